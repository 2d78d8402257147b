//! Money as text, the way `Intl.NumberFormat("en-US", { style: "currency", … })` writes
//! it with the currency's fraction digits: sign, symbol (or code and a no-break space),
//! the integer part grouped by thousands, then the fraction unless it is zero and
//! trimming is on.

use super::Money;

/// How an amount is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatOptions {
    /// Thousands separators in the integer part (default on).
    pub grouping: bool,
    /// Leave out a fraction that is all zeros: `$12`, not `$12.00`. Off by default
    /// (spec 000 §5: "thousands grouping on by default, trimming zero fractions off by
    /// default").
    pub trim_zero_fractions: bool,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions { grouping: true, trim_zero_fractions: false }
    }
}

/// `money` as text.
pub(super) fn format(money: Money, options: FormatOptions) -> String {
    let currency = money.currency();
    let per = currency.minor_per_major().unsigned_abs();
    let abs = money.minor().unsigned_abs();
    let (major, fraction) = (abs / per, abs % per);
    let digits = major.to_string();
    let mut out = String::with_capacity(digits.len() + 12);
    if money.minor() < 0 {
        out.push('-');
    }
    match currency.symbol() {
        Some(symbol) => out.push_str(symbol),
        None => {
            out.push_str(currency.code());
            out.push('\u{a0}');
        }
    }
    for (i, c) in digits.chars().enumerate() {
        if options.grouping && i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    let places = currency.fraction_digits() as usize;
    if places > 0 && !(options.trim_zero_fractions && fraction == 0) {
        out.push('.');
        out.push_str(&format!("{fraction:0places$}"));
    }
    out
}
