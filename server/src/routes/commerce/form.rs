//! The checkout forms as posted (form-encoded, without JavaScript, read by
//! [`crate::edge::LimitedForm`]): turning them into a [`Customer`] or a donation amount
//! with a message per bad field.

use std::collections::BTreeMap;

use veranda_actors::commerce::money::Currency;
use veranda_actors::commerce::order::Customer;
use veranda_actors::commerce::rules::MAX_DONATION_CENTS;

/// The email message of spec 000 §5.
pub const EMAIL_INVALID: &str = "Email is not valid. Email addresses should follow the format user@domain.com.";
/// A required field left empty.
pub const REQUIRED: &str = "This field is required.";
/// A field longer than [`MAX_FIELD`].
const TOO_LONG: &str = "This is too long.";
/// Longest text field.
const MAX_FIELD: usize = 200;

/// Field values by name, as posted.
pub type Fields = BTreeMap<String, String>;
/// Messages by field name.
pub type FieldErrors = BTreeMap<&'static str, String>;

fn text<'a>(fields: &'a Fields, name: &str) -> &'a str {
    fields.get(name).map(|v| v.trim()).unwrap_or_default()
}

/// Whether `email` is 3 to 256 characters of `local@domain.tld` (spec 000 §5).
pub fn email_ok(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    let length = email.chars().count();
    let Some((_, last)) = domain.rsplit_once('.') else { return false };
    (3..=256).contains(&length)
        && !local.is_empty()
        && !local.contains(char::is_whitespace)
        && !domain.contains(['@', ' '])
        && !domain.starts_with('.')
        && !domain.contains("..")
        && (2..=4).contains(&last.len())
        && last.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The buyer from the checkout form; the address is required when the order ships.
pub fn customer(fields: &Fields, ships: bool) -> Result<Customer, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut take = |name: &'static str, required: bool| -> String {
        let value = text(fields, name);
        if required && value.is_empty() {
            errors.insert(name, REQUIRED.into());
        } else if value.chars().count() > MAX_FIELD {
            errors.insert(name, TOO_LONG.into());
        }
        value.to_string()
    };
    let customer = Customer {
        email: take("email", true),
        name: take("name", true),
        address_line1: take("addressLine1", ships),
        address_line2: take("addressLine2", false),
        city: take("city", ships),
        region: take("region", false),
        postal_code: take("postalCode", ships),
        country: take("country", ships).to_ascii_uppercase(),
    };
    if !errors.contains_key("email") && !email_ok(&customer.email) {
        errors.insert("email", EMAIL_INVALID.into());
    }
    let us_zip = customer.postal_code.len() == 5 && customer.postal_code.bytes().all(|b| b.is_ascii_digit());
    if ships && customer.country == "US" && !errors.contains_key("postalCode") && !us_zip {
        errors.insert("postalCode", "A US zip code is exactly 5 digits.".into());
    }
    if errors.is_empty() {
        Ok(customer)
    } else {
        Err(errors)
    }
}

/// Why a typed donation amount is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// Not a number in major units.
    #[error("Enter an amount, such as 25 or 25.50.")]
    NotAnAmount,
    /// Zero.
    #[error("The amount must be more than zero.")]
    Zero,
    /// More than a donation may be.
    #[error("The amount may be at most {} minor units.", MAX_DONATION_CENTS)]
    TooLarge,
}

/// A donation amount typed in major units (`25`, `25.50`), in minor units of `currency`.
pub fn amount(text: &str, currency: Currency) -> Result<u64, AmountError> {
    let text = text.trim().trim_start_matches(currency.symbol().unwrap_or("$")).replace(',', "");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let places = currency.fraction_digits() as usize;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (!fraction.is_empty() && (!digits(fraction) || fraction.len() > places)) {
        return Err(AmountError::NotAnAmount);
    }
    let whole: u64 = whole.parse().map_err(|_| AmountError::NotAnAmount)?;
    let fraction: u64 = if fraction.is_empty() { 0 } else { format!("{fraction:0<places$}").parse().unwrap_or(0) };
    let per = currency.minor_per_major().unsigned_abs();
    let cents = whole.checked_mul(per).and_then(|c| c.checked_add(fraction)).ok_or(AmountError::NotAnAmount)?;
    if cents == 0 {
        return Err(AmountError::Zero);
    }
    if cents > MAX_DONATION_CENTS {
        return Err(AmountError::TooLarge);
    }
    Ok(cents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_follow_the_simple_pattern() {
        assert!(email_ok("ada@example.com"));
        assert!(!email_ok("ada@example"));
        assert!(!email_ok("ada.example.com"));
        assert!(!email_ok("a@b.toolong"));
    }

    #[test]
    fn amounts_parse_in_minor_units() {
        assert_eq!(amount("25", Currency::USD), Ok(2500));
        assert_eq!(amount("$1,025.5", Currency::USD), Ok(102_550));
        assert_eq!(amount("1500", Currency::JPY), Ok(1500));
        assert!(amount("1.5", Currency::JPY).is_err());
        assert!(amount("-5", Currency::USD).is_err());
        assert_eq!(
            amount("0", Currency::USD).map_err(|e| e.to_string()),
            Err("The amount must be more than zero.".into())
        );
        assert_eq!(
            amount("abc", Currency::USD).map_err(|e| e.to_string()),
            Err("Enter an amount, such as 25 or 25.50.".into())
        );
        assert!(amount("99999999999999999999", Currency::USD).is_err());
    }

    #[test]
    fn shipping_orders_need_an_address() {
        let mut fields = Fields::new();
        fields.insert("email".into(), "ada@example.com".into());
        fields.insert("name".into(), "Ada".into());
        assert!(customer(&fields, false).is_ok());
        let errors = customer(&fields, true).expect_err("no address");
        assert!(errors.contains_key("addressLine1") && errors.contains_key("postalCode"));
    }
}
