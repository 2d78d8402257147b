//! Tests that pin the server's calls and image widths to the spec's literals, transcribed by
//! hand in `tests/spec/*.json` (each entry cites the spec document, section and line).

use crate::media::ladder::SIZE_LADDER;
use serde_json::{json, Value};

/// Calls the spec names that Veranda does not answer yet (`docs/spec-coverage.md`).
const NOT_BUILT: [&str; 0] = [];

/// Parses one JSON file.
fn parse(name: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"))
}

#[test]
fn every_call_and_checkout_route_of_the_spec_is_in_the_openapi_document() {
    let calls = parse("tests/spec/calls.json", include_str!("../../tests/spec/calls.json"));
    let openapi = parse("server/openapi/openapi.json", include_str!("../openapi/openapi.json"));
    let calls = calls["calls"].as_array().expect("a list of calls");
    assert!(calls.len() >= 30, "both documents' call tables are transcribed");
    for call in calls {
        let (method, path) = (call["method"].as_str().expect("method"), call["path"].as_str().expect("path"));
        let documented = openapi["paths"][path][method].is_object();
        if NOT_BUILT.contains(&path) {
            assert!(!documented, "{path} is answered now: take it off NOT_BUILT and docs/spec-coverage.md");
        } else {
            assert!(documented, "{} {path} ({}) is not in the OpenAPI document", method.to_uppercase(), call["spec"]);
        }
    }
}

#[test]
fn images_are_served_at_the_spec_ladder_widths() {
    let constants = parse("tests/spec/constants.json", include_str!("../../tests/spec/constants.json"));
    assert_eq!(json!(SIZE_LADDER), constants["constants"]["image.sizeLadder"]["value"]);
}
