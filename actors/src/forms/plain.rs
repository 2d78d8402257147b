//! Reading a plain HTML form post (a visitor without JavaScript) into the `form` values
//! the save call carries, using the input names the server renders:
//!
//! - single-value fields, radio, select and hidden: `<field id>`;
//! - name, address, phone, date and time: `<field id>-<Part>` for each summary sub-field
//!   (`name-First`, `time-Ampm`, …);
//! - checkboxes: `<field id>` once per checked box;
//! - likert: `<field id>-<question index>`, answered -2 to 2; each question's checked
//!   answers become its list.
//!
//! The result goes through [`super::read_form`] like any other submission. Names the
//! form does not render are ignored.

use serde_json::{Map, Value};

use super::definition::FormDefinition;
use super::value::parts;
use crate::site::blocks::FieldKind;

/// The `form` values (an object keyed by field id) of a form-encoded post's `pairs`.
pub fn values_from_pairs(definition: &FormDefinition, pairs: &[(String, String)]) -> Value {
    let first = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| Value::String(v.clone()));
    let mut values = Map::new();
    for field in &definition.fields {
        let value = match field.kind {
            FieldKind::Section => continue,
            FieldKind::Name | FieldKind::Address | FieldKind::Date | FieldKind::Time | FieldKind::Phone => {
                let sub: Map<String, Value> = parts(field.kind)
                    .iter()
                    .filter_map(|(part, _)| first(&format!("{}-{part}", field.id)).map(|v| (part.to_string(), v)))
                    .collect();
                Value::Object(sub)
            }
            FieldKind::Checkbox => Value::Array(
                pairs.iter().filter(|(k, _)| *k == field.id).map(|(_, v)| Value::String(v.clone())).collect(),
            ),
            FieldKind::Likert => {
                let answers: Map<String, Value> = field
                    .options
                    .iter()
                    .enumerate()
                    .map(|(i, question)| {
                        let name = format!("{}-{i}", field.id);
                        let checked = pairs.iter().filter(|(k, _)| *k == name).map(|(_, v)| Value::String(v.clone()));
                        (question.clone(), Value::Array(checked.collect()))
                    })
                    .collect();
                Value::Object(answers)
            }
            _ => match first(&field.id) {
                Some(value) => value,
                None => continue,
            },
        };
        values.insert(field.id.clone(), value);
    }
    Value::Object(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::blocks::FormField;

    fn field(id: &str, kind: FieldKind, options: &[&str]) -> FormField {
        let mut f: FormField = serde_json::from_value(serde_json::json!({ "id": id, "type": "text", "title": id }))
            .expect("a minimal field");
        f.kind = kind;
        f.options = options.iter().map(|o| o.to_string()).collect();
        f
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn rendered_input_names_become_the_save_calls_values() {
        let definition = FormDefinition {
            form_id: "f".into(),
            fields: vec![
                field("name", FieldKind::Name, &[]),
                field("email", FieldKind::Email, &[]),
                field("intro", FieldKind::Section, &[]),
                field("extras", FieldKind::Checkbox, &["Cake", "Music"]),
                field("visit", FieldKind::Likert, &["Coffee", "Food"]),
                field("phone", FieldKind::Phone, &[]),
                field("note", FieldKind::Textarea, &[]),
            ],
            captcha: false,
            destination: crate::forms::Destination::Submissions,
            success_redirect: None,
            success_message: String::new(),
            post_submit_html: String::new(),
        };
        let posted = pairs(&[
            ("formId", "f"),
            ("name-First", "Ada"),
            ("name-Last", "Lovelace"),
            ("email", "ada@example.com"),
            ("extras", "Cake"),
            ("extras", "Music"),
            ("visit-1", "2"),
            ("phone-Areacode", "555"),
            ("phone-Prefix", "014"),
            ("phone-Line", "2000"),
            ("unknown", "dropped"),
        ]);
        assert_eq!(
            values_from_pairs(&definition, &posted),
            serde_json::json!({
                "name": {"First": "Ada", "Last": "Lovelace"},
                "email": "ada@example.com",
                "extras": ["Cake", "Music"],
                "visit": {"Coffee": [], "Food": ["2"]},
                "phone": {"Areacode": "555", "Prefix": "014", "Line": "2000"}
            })
        );
    }
}
