//! Sending what the loader sends to the telemetry ingest.

use serde_json::{json, Value};

/// The error-report ingest (spec 000 §9).
pub const ERRORS_PATH: &str = "/api/events/RecordJavascriptErrors";

/// One error record of the page load `load`, as the loader queues it.
pub fn error_record(message: &str, load: &str) -> Value {
    json!({ "event": "error", "timestamp": 1, "data": { "url": "https://example.com/about", "message": message,
        "file": "https://example.com/a.js", "line": 3, "column": 1, "pageLoadId": load } })
}

/// Posts `records` (a JSON array) to the error ingest of the server at `address` with the
/// crumb `crumb`, as the client address `from` when given (`X-Forwarded-For`, for a server
/// trusting the loopback proxy); the status.
pub async fn send_error_records(address: &str, crumb: &str, from: Option<&str>, records: &Value) -> u16 {
    let mut req = reqwest::Client::new()
        .post(format!("{address}{ERRORS_PATH}"))
        .header("cookie", format!("crumb={crumb}"))
        .header("X-CSRF-Token", crumb)
        .json(records);
    if let Some(from) = from {
        req = req.header("X-Forwarded-For", from);
    }
    req.send().await.expect("the error ingest answers").status().as_u16()
}
