//! The save call's payload (spec 000 §3 "Form submission payload", both readings) and
//! reading a payload into a valid submission of a form.
//!
//! Fields outside the documented ones (analytics event fields among them) are ignored.
//! `form` may be a JSON string (as the page sends it) or an object; both hold the
//! values keyed by field id.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::definition::FormDefinition;
use super::validate::{self, FieldErrors};
use super::value::{self, FieldValue, Unparseable};

/// The page a submission was sent from (the second reading of the save call).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageFields {
    /// The page's title.
    #[serde(default, deserialize_with = "lenient_text", skip_serializing_if = "Option::is_none")]
    pub page_title: Option<String>,
    /// The page's id.
    #[serde(default, deserialize_with = "lenient_text", skip_serializing_if = "Option::is_none")]
    pub page_id: Option<String>,
    /// `i` for an item, `c` for a collection.
    #[serde(default, deserialize_with = "lenient_text", skip_serializing_if = "Option::is_none")]
    pub content_source: Option<String>,
    /// The page's path.
    #[serde(default, deserialize_with = "lenient_text", skip_serializing_if = "Option::is_none")]
    pub page_path: Option<String>,
    /// The page's permission type.
    #[serde(default, deserialize_with = "lenient_text", skip_serializing_if = "Option::is_none")]
    pub page_permission_type_value: Option<String>,
}

/// The body of `POST /api/form/SaveFormSubmission`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavePayload {
    /// The single-use key from `FormSubmissionKey`.
    #[serde(default, deserialize_with = "lenient_text")]
    pub key: Option<String>,
    /// The form submitted.
    #[serde(deserialize_with = "required_text")]
    pub form_id: String,
    /// The collection the page belongs to.
    #[serde(default, deserialize_with = "lenient_text")]
    pub collection_id: Option<String>,
    /// The name of the object the form sits on.
    #[serde(default, deserialize_with = "lenient_text")]
    pub object_name: Option<String>,
    /// Whether the form was shown in the popup overlay.
    #[serde(default, deserialize_with = "lenient_bool")]
    pub is_overlay_form: bool,
    /// The submit button's text.
    #[serde(default, deserialize_with = "lenient_text")]
    pub submit_button_text: Option<String>,
    /// Field values keyed by field id: a JSON string or an object.
    #[serde(default)]
    pub form: Value,
    /// The captcha proof, when the form has a captcha.
    #[serde(default, deserialize_with = "lenient_text")]
    pub captcha_key: Option<String>,
    /// The page the form was sent from.
    #[serde(flatten)]
    pub page: PageFields,
}

/// Why a submission's values were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// `form` is not a map of values, or a value has the wrong shape.
    #[error("the form fields could not be read")]
    Unparseable,
    /// Some fields are invalid (field id to message).
    #[error("{} field(s) invalid", .0.len())]
    Invalid(FieldErrors),
}

impl From<Unparseable> for FormError {
    fn from(_: Unparseable) -> Self {
        FormError::Unparseable
    }
}

/// Every field's value (sections skipped), keyed by field id.
pub type Values = BTreeMap<String, FieldValue>;

/// Reads `form` (a JSON string or an object) against `definition` and checks every
/// field. Values for ids the form does not have are dropped.
pub fn read_form(definition: &FormDefinition, form: &Value) -> Result<Values, FormError> {
    let parsed;
    let map = match form {
        Value::Object(map) => map,
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).map_err(|_| FormError::Unparseable)?;
            parsed.as_object().ok_or(FormError::Unparseable)?
        }
        _ => return Err(FormError::Unparseable),
    };
    let mut values = Values::new();
    let mut errors = FieldErrors::new();
    for field in &definition.fields {
        let Some(value) = value::read(field, map.get(&field.id))? else { continue };
        if let Some(message) = validate::check(field, &value) {
            errors.insert(field.id.clone(), message);
        }
        values.insert(field.id.clone(), value);
    }
    if errors.is_empty() {
        Ok(values)
    } else {
        Err(FormError::Invalid(errors))
    }
}

/// A string, number or boolean as text; null or absent as `None`.
fn lenient_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

/// Like [`lenient_text`], but the value must be there and not empty.
fn required_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    lenient_text(d)?
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| serde::de::Error::custom("formId must be a non-empty string"))
}

/// `true`, `"true"`, `1` or `"1"` as true; anything else as false (form-encoded bodies
/// carry booleans as text).
fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => b,
        Value::String(s) => s == "true" || s == "1",
        Value::Number(n) => n.as_i64() == Some(1),
        _ => false,
    })
}
