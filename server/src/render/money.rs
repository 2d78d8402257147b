//! Prices as visitors read them, in the store currency: the one money formatter of
//! [`veranda_actors::commerce::money`], so pages, carts and the browser agree.

use veranda_actors::commerce::money::{Currency, Money};

/// Formats `minor` units of `currency` (a code; unknown codes fall back to the default
/// currency, USD): grouping on, zero fractions kept, e.g. `$1,234.50`, `$12.00`, `¥1,500`.
pub fn format_money(minor: u64, currency: &str) -> String {
    let currency = Currency::parse(currency).unwrap_or_default();
    let minor = i64::try_from(minor).unwrap_or(i64::MAX);
    match Money::new(currency, minor) {
        Ok(money) => money.format(),
        // Prices are capped far below 15 integer places at site load; show the code
        // rather than a wrong number if one ever is not.
        Err(_) => format!("{} {minor}", currency.code()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_grouped_and_zero_fractions_kept() {
        assert_eq!(format_money(0, "USD"), "$0.00");
        assert_eq!(format_money(5, "USD"), "$0.05");
        assert_eq!(format_money(123_456_789, "USD"), "$1,234,567.89");
        assert_eq!(format_money(100_000, "EUR"), "€1,000.00");
    }

    #[test]
    fn yen_has_no_fraction_digits() {
        assert_eq!(format_money(1500, "JPY"), "¥1,500");
        assert_eq!(format_money(999, "jpy"), "¥999");
    }

    #[test]
    fn currencies_without_a_symbol_show_their_code() {
        assert_eq!(format_money(1250, "CHF"), "CHF\u{a0}12.50");
    }
}
