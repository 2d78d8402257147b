//! The error-report record (spec 000 §3): `{event, data: {websiteId, templateId, url,
//! userAgent, app, message, stack, file, line, column}, timestamp}`, parsed into an
//! [`ErrorReport`] with every text bounded and the stack trimmed to 5,000 characters.
//! `data.pageLoadId`, when the loader sends it, keys the per-page-load cap. The loader's
//! top-level `count` (how often the page saw the error before sending it once) is kept,
//! bounded to [`MAX_REPORT_COUNT`]; other unknown fields are ignored.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::telemetry::records::truncated;

/// Stacks are trimmed to this many characters (spec 000 §9).
pub const MAX_STACK_CHARS: usize = 5000;
/// Longest message kept.
const MAX_MESSAGE_CHARS: usize = 1000;
/// Longest url, file or user agent kept.
const MAX_TEXT_CHARS: usize = 2048;
/// Longest short field (event, app, ids) kept.
const MAX_SHORT_CHARS: usize = 128;
/// Most records one send (request) may carry: the loader queues at most 10 and sends
/// them together (spec 000 §9). The page-load cap counts sends, so this bounds what one
/// page load can store.
pub const MAX_RECORDS_PER_SEND: usize = 10;
/// The largest `count` one record may claim.
pub const MAX_REPORT_COUNT: u32 = 1000;

/// Why a body of error records was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// Not a JSON array of error records.
    #[error("expected a JSON array of error records: {0}")]
    Malformed(String),
    /// More records than one send may carry.
    #[error("at most {MAX_RECORDS_PER_SEND} error records per request")]
    TooMany,
    /// A record has no message.
    #[error("record {0}: data.message is required")]
    NoMessage(usize),
}

/// A number sent as a JSON number or a numeric string.
enum NumberLike {
    Number(f64),
    Text(String),
}

/// Reads a number or a string directly (an untagged enum would buffer every value first).
impl<'de> Deserialize<'de> for NumberLike {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<NumberLike, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = NumberLike;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number or a numeric string")
            }
            fn visit_f64<E>(self, n: f64) -> Result<NumberLike, E> {
                Ok(NumberLike::Number(n))
            }
            fn visit_u64<E>(self, n: u64) -> Result<NumberLike, E> {
                Ok(NumberLike::Number(n as f64))
            }
            fn visit_i64<E>(self, n: i64) -> Result<NumberLike, E> {
                Ok(NumberLike::Number(n as f64))
            }
            fn visit_str<E>(self, t: &str) -> Result<NumberLike, E> {
                Ok(NumberLike::Text(t.to_owned()))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl NumberLike {
    fn as_u32(&self) -> Option<u32> {
        match self {
            NumberLike::Number(n) if n.is_finite() && *n >= 0.0 && *n <= u32::MAX as f64 => Some(*n as u32),
            NumberLike::Text(t) => t.trim().parse().ok(),
            _ => None,
        }
    }

    fn as_u64(&self) -> Option<u64> {
        match self {
            NumberLike::Number(n) if n.is_finite() && *n >= 0.0 => Some(*n as u64),
            NumberLike::Text(t) => t.trim().parse().ok(),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
struct RawRecord {
    #[serde(default)]
    event: Option<String>,
    data: RawData,
    #[serde(default)]
    timestamp: Option<NumberLike>,
    #[serde(default)]
    count: Option<NumberLike>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawData {
    #[serde(default)]
    website_id: Option<String>,
    #[serde(default)]
    template_id: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    user_agent: Option<String>,
    #[serde(default)]
    app: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    stack: Option<String>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    line: Option<NumberLike>,
    #[serde(default)]
    column: Option<NumberLike>,
    #[serde(default)]
    page_load_id: Option<String>,
}

/// One accepted error record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ErrorReport {
    /// The event name the loader gave (e.g. `error`, `unhandledrejection`).
    pub event: String,
    /// The website the page belongs to.
    pub website_id: String,
    /// The template of the page.
    pub template_id: String,
    /// The page the error happened on.
    pub url: String,
    /// The visitor's browser.
    pub user_agent: String,
    /// Which part of the client raised it.
    pub app: String,
    /// The error message.
    pub message: String,
    /// The stack, at most 5,000 characters.
    pub stack: String,
    /// The script file.
    pub file: String,
    /// The line in the file.
    pub line: Option<u32>,
    /// The column in the line.
    pub column: Option<u32>,
    /// The client's time (unix ms), if sent.
    pub timestamp: Option<u64>,
    /// The page load it came from, if sent.
    pub page_load_id: Option<String>,
    /// How many times the page saw it before sending it (1 to [`MAX_REPORT_COUNT`]).
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

fn text(value: Option<String>, max: usize) -> String {
    value.map(|v| truncated(v, max)).unwrap_or_default()
}

/// Parses a body of error records.
pub fn parse_reports(body: &[u8]) -> Result<Vec<ErrorReport>, ReportError> {
    // JSON text is UTF-8 (RFC 8259 §8.1): checked once for the whole body, where parsing
    // the bytes would check each string again as it copies it out.
    let json = std::str::from_utf8(body).map_err(|e| ReportError::Malformed(format!("the body is not UTF-8: {e}")))?;
    let raw: Vec<RawRecord> = serde_json::from_str(json).map_err(|e| ReportError::Malformed(e.to_string()))?;
    if raw.len() > MAX_RECORDS_PER_SEND {
        return Err(ReportError::TooMany);
    }
    raw.into_iter()
        .enumerate()
        .map(|(i, r)| {
            let message = r.data.message.filter(|m| !m.trim().is_empty()).ok_or(ReportError::NoMessage(i))?;
            Ok(ErrorReport {
                event: text(r.event, MAX_SHORT_CHARS),
                website_id: text(r.data.website_id, MAX_SHORT_CHARS),
                template_id: text(r.data.template_id, MAX_SHORT_CHARS),
                url: text(r.data.url, MAX_TEXT_CHARS),
                user_agent: text(r.data.user_agent, MAX_TEXT_CHARS),
                app: text(r.data.app, MAX_SHORT_CHARS),
                message: truncated(message, MAX_MESSAGE_CHARS),
                stack: text(r.data.stack, MAX_STACK_CHARS),
                file: text(r.data.file, MAX_TEXT_CHARS),
                line: r.data.line.as_ref().and_then(NumberLike::as_u32),
                column: r.data.column.as_ref().and_then(NumberLike::as_u32),
                timestamp: r.timestamp.as_ref().and_then(NumberLike::as_u64),
                page_load_id: r.data.page_load_id.filter(|p| !p.is_empty()).map(|p| truncated(p, MAX_SHORT_CHARS)),
                count: r.count.as_ref().and_then(NumberLike::as_u32).unwrap_or(1).clamp(1, MAX_REPORT_COUNT),
            })
        })
        .collect()
}

/// A report of `message` at /a.js:1:2 on /p, as the unit tests of the error path use.
#[cfg(test)]
pub(crate) fn sample_report(message: &str) -> ErrorReport {
    serde_json::from_value(serde_json::json!({
        "event": "error", "websiteId": "", "templateId": "", "url": "/p", "userAgent": "", "app": "",
        "message": message, "stack": "", "file": "/a.js", "line": 1, "column": 2,
        "timestamp": null, "pageLoadId": null
    }))
    .expect("a report")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_parse_with_trimmed_stacks() {
        let stack = "x".repeat(6000);
        let body = serde_json::json!([{ "event": "error", "data": { "message": "boom", "stack": stack,
            "line": "12", "column": 3, "url": "https://s.example/a" }, "timestamp": 17 }]);
        let reports = parse_reports(body.to_string().as_bytes()).expect("valid");
        assert_eq!(reports[0].stack.chars().count(), MAX_STACK_CHARS);
        assert_eq!((reports[0].line, reports[0].column, reports[0].timestamp), (Some(12), Some(3), Some(17)));
    }

    #[test]
    fn the_loaders_count_is_kept_bounded_and_unknown_fields_are_ignored() {
        let body = serde_json::json!([
            { "event": "javascript-error", "data": { "message": "a", "websiteId": null, "extra": 1 }, "count": 3 },
            { "data": { "message": "b" }, "count": 0 },
            { "data": { "message": "c" }, "count": 1_000_000 },
            { "data": { "message": "d" } },
        ]);
        let reports = parse_reports(body.to_string().as_bytes()).expect("valid");
        let counts: Vec<u32> = reports.iter().map(|r| r.count).collect();
        assert_eq!(counts, vec![3, 1, MAX_REPORT_COUNT, 1]);
    }

    #[test]
    fn malformed_bodies_are_refused() {
        assert!(matches!(parse_reports(b"{}"), Err(ReportError::Malformed(_))));
        assert!(matches!(parse_reports(b"[{\"data\":5}]"), Err(ReportError::Malformed(_))));
        let not_utf8 = parse_reports(b"[{\"data\":{\"message\":\"caf\xe9\"}}]");
        assert!(
            matches!(&not_utf8, Err(ReportError::Malformed(why)) if why.starts_with("the body is not UTF-8")),
            "{not_utf8:?}"
        );
        assert_eq!(parse_reports(b"[{\"data\":{}}]"), Err(ReportError::NoMessage(0)));
        let record = "{\"data\":{\"message\":\"m\"}}";
        let full = format!("[{}]", [record; MAX_RECORDS_PER_SEND].join(","));
        assert_eq!(parse_reports(full.as_bytes()).map(|r| r.len()), Ok(MAX_RECORDS_PER_SEND));
        let many = format!("[{}]", [record; MAX_RECORDS_PER_SEND + 1].join(","));
        assert_eq!(parse_reports(many.as_bytes()), Err(ReportError::TooMany));
    }
}
