//! Reading each field's submitted value into the shape spec 000 §3 gives it
//! ("Form field kinds and the value each yields"):
//!
//! - address, name, date, time: an array of the sub-field values, in the summary
//!   order (the page may send an array or an object keyed by sub-field name);
//! - phone: an array of Country, Areacode, Prefix, Line; when only 3 parts come, a
//!   blank country is put first;
//! - checkbox: the checked values; radio: the first checked value; select: the chosen
//!   value; likert: a map from each question to its list of checked answers (-2 to 2;
//!   a question nobody answered is left out);
//! - hidden: what the page sent (the query parameter named like the field), else the
//!   field's default value;
//! - every other kind: the entered text. Sections are skipped.
//!
//! A value of the wrong shape, a choice the field does not offer or a likert answer
//! off the scale makes the whole `form` unparseable.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::site::blocks::{FieldKind, FormField};

/// The value one field yields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// Single-value fields, radio, select and hidden.
    Text(String),
    /// Multi-part fields (sub-field values in order) and checkboxes (checked values).
    List(Vec<String>),
    /// Likert: each question to its checked answers. A record stored when a question held
    /// one answer as text reads back as a list of that answer.
    Map(#[serde(deserialize_with = "checked_answers")] BTreeMap<String, Vec<String>>),
}

/// The `form` values could not be read against the form's fields.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field '{field}' has a value of the wrong shape")]
pub struct Unparseable {
    /// The field whose value could not be read.
    pub field: String,
}

/// Sub-field names of a multi-part kind, in the summary order (spec 000 §3), with
/// whether each part is needed when the field is required.
pub fn parts(kind: FieldKind) -> &'static [(&'static str, bool)] {
    match kind {
        FieldKind::Name => &[("First", true), ("Last", true)],
        FieldKind::Phone => &[("Country", false), ("Areacode", true), ("Prefix", true), ("Line", true)],
        FieldKind::Address => {
            &[("Line1", true), ("Line2", false), ("City", true), ("State", true), ("Zip", true), ("Country", true)]
        }
        FieldKind::Date => &[("Month", true), ("Day", true), ("Year", true)],
        FieldKind::Time => &[("Hour", true), ("Minute", true), ("Second", false), ("Ampm", true)],
        _ => &[],
    }
}

/// The likert scale's values (spec 000 §3: -2 to 2).
pub const LIKERT_VALUES: [&str; 5] = ["-2", "-1", "0", "1", "2"];

/// Reads the value of `field` from `raw` (absent is `None`). `None` for sections.
pub fn read(field: &FormField, raw: Option<&Value>) -> Result<Option<FieldValue>, Unparseable> {
    let fail = || Unparseable { field: field.id.clone() };
    let raw = raw.filter(|v| !v.is_null());
    let value = match field.kind {
        FieldKind::Section => return Ok(None),
        FieldKind::Name | FieldKind::Address | FieldKind::Date | FieldKind::Time | FieldKind::Phone => {
            FieldValue::List(read_parts(field.kind, raw).ok_or_else(fail)?)
        }
        FieldKind::Checkbox => {
            let checked = match raw {
                None => Vec::new(),
                Some(Value::Array(items)) => items.iter().map(scalar).collect::<Option<Vec<_>>>().ok_or_else(fail)?,
                Some(other) => vec![scalar(other).ok_or_else(fail)?],
            };
            let checked: Vec<String> = checked.into_iter().filter(|c| !c.is_empty()).collect();
            if !checked.iter().all(|c| field.options.contains(c)) {
                return Err(fail());
            }
            FieldValue::List(checked)
        }
        FieldKind::Radio | FieldKind::Select => {
            let chosen = match raw {
                None => String::new(),
                Some(Value::Array(items)) => {
                    items.first().map(scalar).unwrap_or(Some(String::new())).ok_or_else(fail)?
                }
                Some(other) => scalar(other).ok_or_else(fail)?,
            };
            if !chosen.is_empty() && !field.options.contains(&chosen) {
                return Err(fail());
            }
            FieldValue::Text(chosen)
        }
        FieldKind::Likert => FieldValue::Map(read_likert(field, raw).ok_or_else(fail)?),
        FieldKind::Hidden => {
            let sent = raw.map(|v| scalar(v).ok_or_else(fail)).transpose()?;
            FieldValue::Text(sent.unwrap_or_else(|| field.value.clone().unwrap_or_default()))
        }
        _ => FieldValue::Text(raw.map(|v| scalar(v).ok_or_else(fail)).transpose()?.unwrap_or_default()),
    };
    Ok(Some(value))
}

/// A string, number or boolean as text; `null` as empty; arrays and objects fail.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => Some(String::new()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// Sub-field values in order, from an array or an object keyed by sub-field name.
fn read_parts(kind: FieldKind, raw: Option<&Value>) -> Option<Vec<String>> {
    let names = parts(kind);
    match raw {
        None => Some(vec![String::new(); names.len()]),
        Some(Value::Array(items)) => {
            let mut values = items.iter().map(scalar).collect::<Option<Vec<_>>>()?;
            if kind == FieldKind::Phone && values.len() == names.len() - 1 {
                values.insert(0, String::new());
            }
            (values.len() == names.len()).then_some(values)
        }
        Some(Value::Object(map)) => {
            if !map.keys().all(|k| names.iter().any(|(n, _)| n == k)) {
                return None;
            }
            names.iter().map(|(n, _)| map.get(*n).map(scalar).unwrap_or(Some(String::new()))).collect()
        }
        Some(_) => None,
    }
}

/// Each question to its checked answers (a list, or one answer alone); every question must
/// be the field's and every answer on the scale. Questions with no answer are left out.
fn read_likert(field: &FormField, raw: Option<&Value>) -> Option<BTreeMap<String, Vec<String>>> {
    let Some(raw) = raw else { return Some(BTreeMap::new()) };
    let map = raw.as_object()?;
    let mut answers = BTreeMap::new();
    for (question, sent) in map {
        if !field.options.contains(question) {
            return None;
        }
        let checked = match sent {
            Value::Array(items) => items.iter().map(scalar).collect::<Option<Vec<_>>>()?,
            other => vec![scalar(other)?],
        };
        let checked: Vec<String> = checked.into_iter().filter(|a| !a.is_empty()).collect();
        if !checked.iter().all(|a| LIKERT_VALUES.contains(&a.as_str())) {
            return None;
        }
        if !checked.is_empty() {
            answers.insert(question.clone(), checked);
        }
    }
    Some(answers)
}

/// A stored likert map: each answer a list, or (in records kept before answers were lists)
/// one answer as text.
fn checked_answers<'de, D>(deserializer: D) -> Result<BTreeMap<String, Vec<String>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Checked {
        List(Vec<String>),
        One(String),
    }
    let map = BTreeMap::<String, Checked>::deserialize(deserializer)?;
    Ok(map
        .into_iter()
        .map(|(question, checked)| match checked {
            Checked::List(list) => (question, list),
            Checked::One(one) => (question, vec![one]),
        })
        .collect())
}
