//! The checks of spec 000 §5 on values already read into their shapes: required fields,
//! email addresses, textarea maximum lengths and US zip codes.

use std::collections::BTreeMap;

use super::messages;
use super::value::{parts, FieldValue};
use crate::site::blocks::{FieldKind, FormField};

/// Field id to message, for every invalid field.
pub type FieldErrors = BTreeMap<String, String>;

/// Spec §5 and §9: an email address has 3 to 256 characters.
pub use crate::accounts::EMAIL_LENGTH;

/// Country values that make an address one in the United States.
const US_COUNTRIES: [&str; 4] = ["us", "usa", "united states", "united states of america"];

/// The message for `field` holding `value`, if it is invalid.
pub fn check(field: &FormField, value: &FieldValue) -> Option<String> {
    if field.required && is_missing(field, value) {
        let title = if field.title.trim().is_empty() { field.id.as_str() } else { field.title.trim() };
        return Some(messages::field_required(title));
    }
    match (field.kind, value) {
        (FieldKind::Email, FieldValue::Text(text)) if !text.trim().is_empty() && !is_email(text.trim()) => {
            Some(messages::email_invalid())
        }
        (FieldKind::Textarea, FieldValue::Text(text)) if exceeds(field.max_length, text) => {
            Some(messages::CHARACTER_LIMIT.to_string())
        }
        (FieldKind::Address, FieldValue::List(values)) if !us_zip_ok(values) => {
            Some(messages::US_ZIP_INVALID.to_string())
        }
        _ => None,
    }
}

/// Whether a required field lacks its value: an empty text, a multi-part field with an
/// empty needed part, no checked box, or an unanswered likert question.
fn is_missing(field: &FormField, value: &FieldValue) -> bool {
    match value {
        FieldValue::Text(text) => text.trim().is_empty(),
        FieldValue::List(values) if field.kind == FieldKind::Checkbox => values.is_empty(),
        FieldValue::List(values) => {
            parts(field.kind).iter().zip(values).any(|((_, needed), v)| *needed && v.trim().is_empty())
        }
        FieldValue::Map(answers) => field.options.iter().any(|q| answers.get(q).is_none_or(Vec::is_empty)),
    }
}

/// Spec §5's simple pattern, the same check as account addresses
/// ([`crate::accounts::check_email`]).
pub fn is_email(text: &str) -> bool {
    crate::accounts::check_email(text).is_ok()
}

/// Whether `text` is longer than a textarea's maximum. A maximum of 0 or less means no
/// limit (spec §5). Length counts UTF-16 units, like the page's live counter.
fn exceeds(max_length: Option<i64>, text: &str) -> bool {
    match max_length {
        Some(max) if max > 0 => i64::try_from(text.encode_utf16().count()).map_or(true, |n| n > max),
        _ => false,
    }
}

/// An address in the United States needs a zip of exactly 5 digits (spec §5); an empty
/// zip is left to the required check.
fn us_zip_ok(values: &[String]) -> bool {
    let (Some(zip), Some(country)) = (values.get(4), values.get(5)) else { return true };
    let zip = zip.trim();
    let in_us = US_COUNTRIES.contains(&country.trim().to_lowercase().as_str());
    !in_us || zip.is_empty() || (zip.len() == 5 && zip.bytes().all(|b| b.is_ascii_digit()))
}
