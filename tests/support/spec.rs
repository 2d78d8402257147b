//! The spec's literals, transcribed by hand in `tests/spec/*.json` (each entry cites the spec
//! document, section and line). Tests compare answers with these, never with the product's
//! own constants, so a changed id or message fails.

use serde_json::Value;
use std::sync::OnceLock;

/// Parses one fixture file.
fn parse(name: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("tests/spec/{name} is not JSON: {e}"))
}

/// `tests/spec/enums.json`.
fn enums() -> &'static Value {
    static ENUMS: OnceLock<Value> = OnceLock::new();
    ENUMS.get_or_init(|| parse("enums.json", include_str!("../spec/enums.json")))
}

/// The spec's id of one value of a numeric enumeration, by its variant name
/// (`enum_id("PageType", "LockScreen")` is 103).
pub fn enum_id(enumeration: &str, variant: &str) -> u64 {
    let values = enums()["numeric"][enumeration]["values"].as_array();
    let entry = values.and_then(|values| values.iter().find(|v| v["variant"] == variant));
    entry
        .and_then(|v| v["id"].as_u64())
        .unwrap_or_else(|| panic!("tests/spec/enums.json has no {enumeration} {variant}"))
}

/// The spec's id of a page type, by its variant name (`page_type("NotFound")` is 100).
pub fn page_type(variant: &str) -> u64 {
    enum_id("PageType", variant)
}

/// The spec's literal value of one constant of `tests/spec/constants.json`.
pub fn constant(key: &str) -> &'static Value {
    static CONSTANTS: OnceLock<Value> = OnceLock::new();
    let all = CONSTANTS.get_or_init(|| parse("constants.json", include_str!("../spec/constants.json")));
    let value = &all["constants"][key]["value"];
    assert!(!value.is_null(), "tests/spec/constants.json has no constant {key}");
    value
}

/// The spec's wording of one string of `tests/spec/strings.json`.
pub fn string(key: &str) -> &'static str {
    static STRINGS: OnceLock<Value> = OnceLock::new();
    let all = STRINGS.get_or_init(|| parse("strings.json", include_str!("../spec/strings.json")));
    all["strings"][key]["text"].as_str().unwrap_or_else(|| panic!("tests/spec/strings.json has no string {key}"))
}
