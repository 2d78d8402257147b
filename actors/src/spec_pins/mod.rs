//! Tests that pin the shared enumerations, constants and messages to the spec's own literals.
//!
//! The literals are transcribed by hand in `tests/spec/*.json`, each entry citing the spec
//! document, section and line it comes from. These tests compare the product with those
//! literals, never with its own constants, so a changed id, timing or message fails here.

mod constants;
mod enums;

use serde_json::Value;
use std::sync::OnceLock;

/// Parses one fixture file.
fn parse(name: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("tests/spec/{name} is not JSON: {e}"))
}

/// `tests/spec/enums.json`: numeric and named enumerations and the spec's small maps.
pub fn enums() -> &'static Value {
    static ENUMS: OnceLock<Value> = OnceLock::new();
    ENUMS.get_or_init(|| parse("enums.json", include_str!("../../../tests/spec/enums.json")))
}

/// The spec's literal value of one constant of `tests/spec/constants.json`.
pub fn constant(key: &str) -> &'static Value {
    static CONSTANTS: OnceLock<Value> = OnceLock::new();
    let all = CONSTANTS.get_or_init(|| parse("constants.json", include_str!("../../../tests/spec/constants.json")));
    let value = &all["constants"][key]["value"];
    assert!(!value.is_null(), "tests/spec/constants.json has no constant {key}");
    value
}

/// The spec's literal number of one constant.
pub fn number(key: &str) -> f64 {
    constant(key).as_f64().unwrap_or_else(|| panic!("constant {key} is not a number"))
}

/// The spec's literal text of one constant.
pub fn text(key: &str) -> &'static str {
    constant(key).as_str().unwrap_or_else(|| panic!("constant {key} is not text"))
}

/// The spec's wording of one string of `tests/spec/strings.json`.
pub fn string(key: &str) -> &'static str {
    static STRINGS: OnceLock<Value> = OnceLock::new();
    let all = STRINGS.get_or_init(|| parse("strings.json", include_str!("../../../tests/spec/strings.json")));
    all["strings"][key]["text"].as_str().unwrap_or_else(|| panic!("tests/spec/strings.json has no string {key}"))
}

/// The spec's list of one named enumeration of `tests/spec/enums.json`.
pub fn named_list(name: &str) -> &'static Vec<Value> {
    enums()["named"][name]["values"].as_array().unwrap_or_else(|| panic!("no named enumeration {name}"))
}
