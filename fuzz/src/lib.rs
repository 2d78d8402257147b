//! Helpers shared by the fuzz targets: where the demo site is, and the reverse of money
//! formatting used to check that formatted amounts read back.

use std::path::PathBuf;

use veranda_actors::commerce::money::{Currency, FormatOptions};

/// The demo site shipped with the repository.
pub fn demo_site_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo")
}

/// Reads text written by `Money::format_with` back into minor units: optional `-`, the
/// currency's symbol (or its code and a no-break space), digits grouped by commas when
/// `grouping` is on, then `.` and exactly the currency's fraction digits unless trimmed.
pub fn parse_formatted(text: &str, currency: Currency, options: FormatOptions) -> Option<i64> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let rest = match currency.symbol() {
        Some(symbol) => rest.strip_prefix(symbol)?,
        None => rest.strip_prefix(currency.code())?.strip_prefix('\u{a0}')?,
    };
    let places = currency.fraction_digits() as usize;
    let (integer, fraction) = match rest.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (rest, None),
    };
    let digits: String = if options.grouping {
        let groups: Vec<&str> = integer.split(',').collect();
        let first_ok = (1..=3).contains(&groups[0].len());
        let rest_ok = groups[1..].iter().all(|g| g.len() == 3);
        if !first_ok || !rest_ok {
            return None;
        }
        groups.concat()
    } else {
        integer.to_string()
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    let major: i64 = digits.parse().ok()?;
    let minor_part: i64 = match fraction {
        Some(f) if places > 0 && f.len() == places && f.bytes().all(|b| b.is_ascii_digit()) => f.parse().ok()?,
        Some(_) => return None,
        None if places > 0 && !options.trim_zero_fractions => return None,
        None => 0,
    };
    let magnitude = major.checked_mul(currency.minor_per_major())?.checked_add(minor_part)?;
    if negative && magnitude == 0 {
        return None;
    }
    Some(if negative { -magnitude } else { magnitude })
}
