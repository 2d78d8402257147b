//! A page view's `data` read without building it: the census needs its `url` and
//! `referrer`, and stores the rest as the loader sent it.
//!
//! The text is still read in full and held to the rules a parse into `serde_json::Value`
//! holds it to (escapes decoded, lone surrogates and out-of-range numbers refused, a
//! repeated field read as its last), so what is stored is always readable as JSON values,
//! and what was refused before is refused still; only no tree of values is built and
//! written out again.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::ingest::{json_object, IngestError};

/// The fields of a page view's `data` the census reads.
#[derive(Debug, Default, PartialEq)]
pub struct PageFields {
    /// `url`, whatever its type.
    pub url: Option<serde_json::Value>,
    /// `referrer`, whatever its type.
    pub referrer: Option<serde_json::Value>,
}

impl PageFields {
    /// Reads `text`, a JSON object, or a 400 naming `data` as [`json_object`] does.
    pub fn read(text: &str) -> Result<PageFields, IngestError> {
        match serde_json::from_str(text) {
            Ok(fields) => Ok(fields),
            // The error the whole-value parse gives (not an object, not JSON).
            Err(_) => {
                let data = json_object("data", text)?;
                Ok(PageFields { url: data.get("url").cloned(), referrer: data.get("referrer").cloned() })
            }
        }
    }
}

impl<'de> Deserialize<'de> for PageFields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PageFields, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = PageFields;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PageFields, A::Error> {
                let mut fields = PageFields::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Url => fields.url = Some(map.next_value()?),
                        Key::Referrer => fields.referrer = Some(map.next_value()?),
                        Key::Other => {
                            map.next_value::<Checked>()?;
                        }
                    }
                }
                Ok(fields)
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// A key of `data`, told apart as it is read. (A `Cow<str>` key would be a new `String`
/// every time: serde deserialises `Cow` through its owned form. A page view's `data` has
/// some sixteen keys.)
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Key {
    Url,
    Referrer,
    #[serde(other)]
    Other,
}

/// Any JSON value, read as a value is (strings decoded, numbers parsed) and then dropped:
/// unlike [`IgnoredAny`](serde::de::IgnoredAny), which serde_json skips without those checks.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Checked, D::Error> {
        deserializer.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_none<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        // A key is read as a string value is: decoded, then dropped.
        while map.next_key::<Checked>()?.is_some() {
            map.next_value::<Checked>()?;
        }
        Ok(Checked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<PageFields, String> {
        PageFields::read(text).map_err(|e| e.to_string())
    }

    #[test]
    fn url_and_referrer_are_read_and_a_repeated_field_is_its_last() {
        let fields = read(r#"{"title":"t","url":"/a","z":{"k":[1,2.5,null,true]},"referrer":"https://r.example/"}"#);
        let fields = fields.expect("an object");
        assert_eq!(fields.url, Some(serde_json::json!("/a")));
        assert_eq!(fields.referrer, Some(serde_json::json!("https://r.example/")));
        assert_eq!(read(r#"{"url":"/a","url":"/b"}"#).expect("an object").url, Some(serde_json::json!("/b")));
        assert_eq!(read(r#"{"url":5}"#).expect("an object").url, Some(serde_json::json!(5)));
        assert_eq!(read("{}").expect("an object"), PageFields::default());
        let escaped = read(r#"{"u\u0072l":"/e","referre\u0072":"https://e.example/","\u0078":1}"#);
        let escaped = escaped.expect("an object");
        assert_eq!(escaped.url, Some(serde_json::json!("/e")), "a key is read decoded");
        assert_eq!(escaped.referrer, Some(serde_json::json!("https://e.example/")));
    }

    #[test]
    fn what_a_json_value_refuses_is_refused_with_the_same_message() {
        for text in [
            r#"{"url":"/a","x":"\ud800"}"#,
            r#"{"url":"/a","x":"\udc00\u0041"}"#,
            r#"{"url":"/a","x":{"\ud800":1}}"#,
            r#"{"url":"/a","\ud800":1}"#,
            r#"{"url":"/a","x":[1e999]}"#,
            r#"{"url":"/a","x":"a"#,
            "{\"url\":\"/a\",\"x\":\"a\u{1}b\"}",
        ] {
            let whole = json_object("data", text).expect_err("a value refuses it").to_string();
            assert_eq!(read(text).expect_err(text), whole, "{text}");
            assert!(whole.starts_with("data is not JSON"), "{whole}");
        }
        for text in [r#"[{"url":"/a"}]"#, r#""{}""#, "3"] {
            assert_eq!(read(text).expect_err(text), "data must be a JSON object", "{text}");
        }
    }
}
