//! The shared edge of the ingest routes: reading a bounded body (charged to the client
//! address's byte budget, see [`crate::services::telemetry`]), parsing forms, the
//! typed [`IngestError`] mapped to HTTP in one place, and the accepted, skipped and
//! rejected counts.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use veranda_actors::telemetry::metrics::{self, Queue};
use veranda_actors::telemetry::rules::SkipReason;

use crate::edge::access;
use crate::edge::body::{read_limited, BodyError};
use crate::services::telemetry::Refused;
use crate::state::AppState;

/// Largest census, event or trace body.
pub const MAX_FORM_BODY: usize = 16 * 1024;
/// Largest body of error records (20 records with 5,000-character stacks fit).
pub const MAX_ERRORS_BODY: usize = 128 * 1024;
/// Largest body of performance records.
pub const MAX_PERF_BODY: usize = 32 * 1024;
/// Seconds a refused page load is told to wait.
pub const PAGE_LOAD_RETRY_AFTER_SECS: u64 = 60;

/// Each ingest endpoint, as a metric label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /api/census/RecordHit`.
    RecordHit,
    /// `POST /api/census/button-click`.
    ButtonClick,
    /// `POST /api/census/button-render`.
    ButtonRender,
    /// `POST /api/census/form-render`.
    FormRender,
    /// `POST /api/census/overlay`.
    Overlay,
    /// `POST /api/census/RecordQuickView/{id}`.
    QuickView,
    /// `GET /api/track/Track`.
    Track,
    /// `POST /api/events/RecordEvent`.
    RecordEvent,
    /// `POST /api/v1/events`.
    Events,
    /// `POST /api/events/RecordJavascriptErrors`.
    JavascriptErrors,
    /// `POST /api/events/Trace`.
    Trace,
    /// `GET /api/1/performance/settings`.
    PerfSettings,
    /// `POST /api/1/performance/records`.
    PerfRecords,
}

impl Endpoint {
    /// Every ingest endpoint.
    pub const ALL: [Endpoint; 13] = [
        Endpoint::RecordHit,
        Endpoint::ButtonClick,
        Endpoint::ButtonRender,
        Endpoint::FormRender,
        Endpoint::Overlay,
        Endpoint::QuickView,
        Endpoint::Track,
        Endpoint::RecordEvent,
        Endpoint::Events,
        Endpoint::JavascriptErrors,
        Endpoint::Trace,
        Endpoint::PerfSettings,
        Endpoint::PerfRecords,
    ];

    /// Whether the recording rules may skip what it receives (census and events).
    fn may_skip(self) -> bool {
        !matches!(self, Endpoint::JavascriptErrors | Endpoint::Trace | Endpoint::PerfSettings | Endpoint::PerfRecords)
    }

    /// The refusals it may answer, as metric labels.
    fn refusals(self) -> Vec<&'static str> {
        let mut refusals: Vec<&'static str> = [
            IngestError::BadRequest(String::new()),
            IngestError::TooLarge(0),
            IngestError::RateLimited(0),
            IngestError::OverByteBudget(0),
            IngestError::Busy(Queue::Writer),
        ]
        .iter()
        .map(IngestError::reason)
        .collect();
        match self {
            Endpoint::JavascriptErrors => refusals.extend([IngestError::PageLoadCap(0).reason(), CRUMB_REFUSAL]),
            Endpoint::RecordEvent => refusals.push(CRUMB_REFUSAL),
            _ => {}
        }
        refusals
    }

    /// The queues whose being full makes it answer 503.
    fn busy_queues(self) -> &'static [Queue] {
        match self {
            Endpoint::RecordHit => &[Queue::VisitorShards, Queue::Writer],
            Endpoint::ButtonClick
            | Endpoint::ButtonRender
            | Endpoint::FormRender
            | Endpoint::Overlay
            | Endpoint::QuickView
            | Endpoint::Track => &[Queue::Writer],
            Endpoint::RecordEvent | Endpoint::Events => &[Queue::Store],
            Endpoint::JavascriptErrors => &[Queue::Errors],
            Endpoint::Trace => &[Queue::Traces],
            Endpoint::PerfSettings => &[],
            Endpoint::PerfRecords => &[Queue::PerfShards],
        }
    }

    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            Endpoint::RecordHit => "record_hit",
            Endpoint::ButtonClick => "button_click",
            Endpoint::ButtonRender => "button_render",
            Endpoint::FormRender => "form_render",
            Endpoint::Overlay => "overlay",
            Endpoint::QuickView => "quick_view",
            Endpoint::Track => "track",
            Endpoint::RecordEvent => "record_event",
            Endpoint::Events => "events",
            Endpoint::JavascriptErrors => "javascript_errors",
            Endpoint::Trace => "trace",
            Endpoint::PerfSettings => "perf_settings",
            Endpoint::PerfRecords => "perf_records",
        }
    }
}

/// Why an ingest request was refused.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// The body or query could not be parsed.
    #[error("{0}")]
    BadRequest(String),
    /// The body is larger than the endpoint takes.
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    /// The client IP sent too many requests.
    #[error("too many requests; retry in {0} s")]
    RateLimited(u64),
    /// The client address sent more telemetry than its byte budget.
    #[error("this address sent too much telemetry; retry in {0} s")]
    OverByteBudget(u64),
    /// The page load already sent its error reports.
    #[error("this page load already sent {0} error reports")]
    PageLoadCap(u32),
    /// A queue on the way to the store is full (counted by it in
    /// `veranda_ingest_busy_total{queue}`).
    #[error("busy; retry in a second")]
    Busy(Queue),
    /// Not signed in.
    #[error("sign in to see error groups")]
    Unauthorised,
    /// Signed in without owner or admin rights.
    #[error("only owners and admins see error groups")]
    Forbidden,
}

impl IngestError {
    /// The rejection reason, as a metric label.
    pub fn reason(&self) -> &'static str {
        match self {
            IngestError::BadRequest(_) => "bad_request",
            IngestError::TooLarge(_) => "too_large",
            IngestError::RateLimited(_) => "rate_limited",
            IngestError::OverByteBudget(_) => "byte_budget",
            IngestError::PageLoadCap(_) => "page_load_cap",
            IngestError::Busy(_) => "busy",
            IngestError::Unauthorised | IngestError::Forbidden => "forbidden",
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            IngestError::RateLimited(secs) | IngestError::OverByteBudget(secs) => Some(*secs),
            IngestError::PageLoadCap(_) => Some(PAGE_LOAD_RETRY_AFTER_SECS),
            IngestError::Busy(_) => Some(1),
            _ => None,
        }
    }
}

impl ResponseError for IngestError {
    fn status_code(&self) -> StatusCode {
        match self {
            IngestError::BadRequest(_) => StatusCode::BAD_REQUEST,
            IngestError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            IngestError::RateLimited(_) | IngestError::OverByteBudget(_) | IngestError::PageLoadCap(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            IngestError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            IngestError::Unauthorised => StatusCode::UNAUTHORIZED,
            IngestError::Forbidden => StatusCode::FORBIDDEN,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        if let Some(secs) = self.retry_after() {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        response.json(match self {
            IngestError::Unauthorised => access::login_required(&self.to_string()),
            IngestError::Forbidden => access::authorization_fail(&self.to_string()),
            _ => serde_json::json!({ "error": self.to_string() }),
        })
    }
}

/// Marks a success answer whose call a recording rule kept from being recorded.
#[derive(Debug, Clone, Copy)]
struct Skipped(SkipReason);

/// The answer `response` for a call not recorded because of `reason`; [`finish`] counts
/// it as skipped, not accepted.
pub fn skipped(reason: SkipReason, mut response: HttpResponse) -> HttpResponse {
    response.extensions_mut().insert(Skipped(reason));
    response
}

/// The rejection reason of a send without a valid crumb.
pub const CRUMB_REFUSAL: &str = "crumb";

/// Exports every ingest series whose labels are known before any request, at zero: each
/// endpoint's accepted count, the skips of the endpoints the recording rules apply to,
/// and the refusals each may answer.
pub fn export_metrics_at_zero() {
    let skips: Vec<&'static str> = SkipReason::ALL.iter().map(|reason| reason.label()).collect();
    let series: Vec<metrics::IngestSeries> = Endpoint::ALL
        .iter()
        .map(|&endpoint| metrics::IngestSeries {
            endpoint: endpoint.label(),
            skips: if endpoint.may_skip() { skips.clone() } else { Vec::new() },
            refusals: endpoint.refusals(),
            busy: endpoint.busy_queues(),
        })
        .collect();
    metrics::export_at_zero(&series);
}

/// Counts the outcome of a request and turns it into a response.
pub fn finish(endpoint: Endpoint, result: Result<HttpResponse, IngestError>) -> HttpResponse {
    match result {
        Ok(response) => {
            let skip = response.extensions().get::<Skipped>().copied();
            match skip {
                Some(Skipped(reason)) => metrics::skipped(endpoint.label(), reason.label()),
                None => metrics::accepted(endpoint.label()),
            }
            response
        }
        Err(error) => {
            metrics::rejected(endpoint.label(), error.reason());
            if let IngestError::Busy(queue) = error {
                metrics::busy(endpoint.label(), queue);
            }
            error.error_response()
        }
    }
}

/// Reads the body, refusing it past `limit` bytes (from `Content-Length` when given), and
/// charges its size to the client address's byte budget.
pub async fn read_body(req: &HttpRequest, mut payload: web::Payload, limit: usize) -> Result<web::Bytes, IngestError> {
    let body = read_limited(req, &mut payload, limit).await.map_err(|e| match e {
        BodyError::TooLarge(limit) => IngestError::TooLarge(limit),
        _ => IngestError::BadRequest("the body could not be read".into()),
    })?;
    if let Some(state) = req.app_data::<web::Data<AppState>>() {
        state.services.telemetry.charge(req, body.len())?;
    }
    Ok(body)
}

/// A form-encoded body as name/value pairs.
pub struct Form(pub Vec<(String, String)>);

impl Form {
    /// Parses a form-encoded body as the URL standard's `application/x-www-form-urlencoded`
    /// parser does (`form_urlencoded::parse`): pairs split at `&` (empty ones skipped), name
    /// and value at the first `=`, `+` read as a space, `%` and two hex digits as that byte,
    /// any other `%` kept, bytes that are not UTF-8 replaced by U+FFFD. Any body is a form,
    /// so this does not fail.
    ///
    /// Written here rather than taken from `form_urlencoded`: its decoder goes a byte at a
    /// time through an iterator and then checks the UTF-8 again, and a page view's `data`
    /// field is most of a kilobyte of percent-encoded JSON: parsing the form was a sixth of
    /// the instructions of a RecordHit (`benches/load/instructions.sh`). The separators are
    /// found with `memchr`. A test holds this one to the library's answers.
    pub fn parse(body: &[u8]) -> Form {
        let mut pairs = Vec::new();
        let mut start = 0;
        for end in memchr::memchr_iter(b'&', body).chain([body.len()]) {
            let pair = &body[start..end];
            start = end + 1;
            if pair.is_empty() {
                continue;
            }
            let (name, value) = match memchr::memchr(b'=', pair) {
                Some(eq) => (&pair[..eq], &pair[eq + 1..]),
                None => (pair, &pair[pair.len()..]),
            };
            pairs.push((form_decode(name), form_decode(value)));
        }
        Form(pairs)
    }

    /// The first value named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The value named `name`, or a 400 naming it.
    pub fn require(&self, name: &str) -> Result<&str, IngestError> {
        self.get(name).filter(|v| !v.is_empty()).ok_or_else(|| IngestError::BadRequest(format!("{name} is required")))
    }

    /// The fields as a JSON object, leaving out `skip` (at most 64 fields).
    pub fn to_json(&self, skip: &[&str]) -> serde_json::Value {
        let map: serde_json::Map<String, serde_json::Value> = self
            .0
            .iter()
            .filter(|(k, _)| !skip.contains(&k.as_str()))
            .take(64)
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        serde_json::Value::Object(map)
    }
}

/// Parses a JSON object field, or a 400 naming it.
pub fn json_object(name: &str, text: &str) -> Result<serde_json::Value, IngestError> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value @ serde_json::Value::Object(_)) => Ok(value),
        Ok(_) => Err(IngestError::BadRequest(format!("{name} must be a JSON object"))),
        Err(e) => Err(IngestError::BadRequest(format!("{name} is not JSON: {e}"))),
    }
}

impl From<Refused> for IngestError {
    fn from(refused: Refused) -> IngestError {
        match refused {
            Refused::TooFast(limited) => IngestError::RateLimited(limited.retry_after_secs),
            Refused::OverByteBudget(limited) => IngestError::OverByteBudget(limited.retry_after_secs),
        }
    }
}

/// The value of each ASCII hex digit, by byte; `0xff` for every other byte.
const HEX_VALUES: [u8; 256] = {
    let mut table = [0xff; 256];
    let mut digit = 0;
    while digit < 16 {
        let (lower, upper) = (b"0123456789abcdef"[digit], b"0123456789ABCDEF"[digit]);
        table[lower as usize] = digit as u8;
        table[upper as usize] = digit as u8;
        digit += 1;
    }
    table
};

/// One name or value of a form body, decoded (see [`Form::parse`]): one pass, a byte
/// written for each byte or escape read, an escape's digits read from a table. (Escapes are
/// dense in an encoded JSON `data`, a few bytes apart, so finding them with `memchr` cost
/// more than this loop.)
fn form_decode(encoded: &[u8]) -> String {
    let mut out = Vec::with_capacity(encoded.len());
    let mut at = 0;
    while let Some(&b) = encoded.get(at) {
        at += 1;
        let byte = match b {
            b'+' => b' ',
            b'%' => match encoded.get(at..at + 2) {
                Some(&[high, low]) => {
                    let (high, low) = (HEX_VALUES[usize::from(high)], HEX_VALUES[usize::from(low)]);
                    // Both are digits exactly when neither is 0xff, so when their bits
                    // together stay under 16.
                    if high | low < 16 {
                        at += 2;
                        high << 4 | low
                    } else {
                        b'%'
                    }
                }
                _ => b'%',
            },
            _ => b,
        };
        out.push(byte);
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's answer, as the handlers parsed forms before.
    fn library(body: &[u8]) -> Vec<(String, String)> {
        serde_urlencoded::from_bytes(body).expect("any body is a form")
    }

    #[test]
    fn a_form_is_decoded_as_the_url_standard_decodes_it() {
        let form = Form::parse(b"event=view&data=%7B%22a%22%3A1%7D&ss_cvr=id%7C1&q=a+b%2Bc");
        let pairs: Vec<(&str, &str)> = form.0.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(pairs, [("event", "view"), ("data", "{\"a\":1}"), ("ss_cvr", "id|1"), ("q", "a b+c")]);
        for tricky in [
            &b""[..],
            b"&&a&=&b=&=c&%",
            b"a=%&b=%4&c=%4g&d=%%41&e=100%25&f=%zz%41",
            b"n%61me=v%61lue=more&+=+",
            b"bad=%ff%fe&mixed=caf%C3%A9&raw=caf\xc3\xa9&cut=\xc3",
            b"a=1&a=2&A=3",
        ] {
            let ours: Vec<(String, String)> = Form::parse(tricky).0;
            assert_eq!(ours, library(tricky), "{}", String::from_utf8_lossy(tricky));
        }
    }

    #[test]
    fn any_bytes_decode_as_the_library_decodes_them() {
        // Bytes from a small generator, weighted toward the ones the decoder treats apart.
        let alphabet = b"%+&=aF09gz\xc3\xa9\xff ";
        let mut seed: u64 = 0x5eed;
        for _ in 0..3_000 {
            let len = (seed % 24) as usize;
            let body: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    alphabet[(seed >> 33) as usize % alphabet.len()]
                })
                .collect();
            seed = seed.wrapping_add(len as u64 + 1);
            let ours: Vec<(String, String)> = Form::parse(&body).0;
            assert_eq!(ours, library(&body), "{body:?}");
        }
    }
}
