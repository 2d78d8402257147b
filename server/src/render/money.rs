//! Prices as visitors read them, in the store currency. The one place rendering turns
//! an amount in minor units into text (commerce will swap in its money type here).

/// Currencies whose minor unit is the main unit (an amount of 1500 is ¥1,500).
const ZERO_DECIMAL: [&str; 1] = ["JPY"];

/// The symbol shown before an amount, as browsers in `en-US` show it; other
/// currencies are shown by code.
fn symbol(currency: &str) -> Option<&'static str> {
    Some(match currency {
        "USD" => "$",
        "EUR" => "€",
        "GBP" => "£",
        "JPY" => "¥",
        "AUD" => "A$",
        "CAD" => "CA$",
        "NZD" => "NZ$",
        "HKD" => "HK$",
        "MXN" => "MX$",
        "BRL" => "R$",
        "ILS" => "₪",
        "INR" => "₹",
        "PHP" => "₱",
        _ => return None,
    })
}

/// Formats `minor` units of `currency`: two fraction digits (none for JPY), thousands
/// grouped with commas, e.g. `$1,234.50`, `¥1,500`, `CHF 12.00`.
pub fn format_money(minor: u64, currency: &str) -> String {
    let code = currency.trim().to_ascii_uppercase();
    let number = if ZERO_DECIMAL.contains(&code.as_str()) {
        group(minor)
    } else {
        format!("{}.{:02}", group(minor / 100), minor % 100)
    };
    match symbol(&code) {
        Some(sym) => format!("{sym}{number}"),
        None => format!("{code}\u{a0}{number}"),
    }
}

/// `1234567` as `1,234,567`.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_have_two_fraction_digits_and_grouping() {
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
        assert_eq!(format_money(1200, "CHF"), "CHF\u{a0}12.00");
    }
}
