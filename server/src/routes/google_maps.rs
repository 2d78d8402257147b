//! `GET /api/google-maps/places/autocomplete` and `/places/details` (spec 000 §7, 001 §7):
//! a proxy to Google's Places web service for address fields, on only when the operator sets
//! `[maps] server_key` in `veranda.toml`. Without it both answer 503 with a message: the site's
//! browser key (`site.toml` `[maps] googleMapsApiKey`, public in every map page) is never forwarded.
//!
//! Abuse bounds (`docs/security.md`, "Place search"): a request from another site's page (an
//! `Origin` that is not the site's own, or `Sec-Fetch-Site` other than `same-origin`/`none`) is a
//! 403; each client address gets `[maps] places_per_minute` searches (429 with `Retry-After` past
//! it); at most `[maps] places_concurrency` upstream calls run at once (503 with `Retry-After`).
//!
//! The proxy is not open: the upstream address is the operator's (`[maps] places_upstream`,
//! Google's by default) and its two paths are fixed, only the parameters named
//! here are accepted (anything else is a 400), each bounded in length and characters, and
//! the key is added by the server. Details requests should carry the tracking context
//! (`productPage` and `productSection`); one without it is answered but logged as an error
//! (spec 001 §7). The tracking fields are not sent upstream. Upstream answers are passed
//! through with their status when they are JSON, cut off at [`MAX_UPSTREAM_BODY`] bytes;
//! an unreachable or slow upstream (over [`UPSTREAM_TIMEOUT`]) is a 502.

use std::sync::LazyLock;
use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::edge::method;
use crate::edge::no_store;
use crate::routes::streams::access::origin_allowed;
use crate::services::places::Refusal;
use crate::state::AppState;

/// The autocomplete route.
pub const AUTOCOMPLETE_PATH: &str = "/api/google-maps/places/autocomplete";
/// The details route.
pub const DETAILS_PATH: &str = "/api/google-maps/places/details";

/// How long an upstream call may take.
pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(5);
/// Largest upstream answer passed on, in bytes.
pub const MAX_UPSTREAM_BODY: usize = 256 * 1024;
/// The message of the 503 without a server key.
pub const NO_KEY: &str =
    "Place search is not available: the server has no Google Maps key for it ([maps] server_key in veranda.toml).";
/// The message of the 403 for another site's page.
pub const FOREIGN_ORIGIN: &str = "Place search only answers the site's own pages.";
/// The message of the 429 past the per-address limit.
pub const RATE_LIMITED: &str = "Too many place searches from this address; try again shortly.";
/// The message of the 503 when every upstream slot is in use.
pub const BUSY: &str = "Place search is busy; try again shortly.";
/// Longest query string accepted, in bytes.
const MAX_QUERY: usize = 1024;

/// Registers both routes (GET and HEAD); other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    for (path, endpoint) in [(AUTOCOMPLETE_PATH, Endpoint::Autocomplete), (DETAILS_PATH, Endpoint::Details)] {
        cfg.service(
            web::resource(path)
                .route(method::read().to(move |state: web::Data<AppState>, req: HttpRequest| async move {
                    proxy(&state, &req, endpoint).await
                }))
                .default_service(method::only("GET, HEAD")),
        );
    }
}

/// Which endpoint a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// Place predictions for typed text.
    Autocomplete,
    /// One place by id.
    Details,
}

/// One accepted parameter: its name, upstream name (None: not sent on), whether required,
/// and its check.
struct Param {
    name: &'static str,
    upstream: Option<&'static str>,
    required: bool,
    check: fn(&str) -> bool,
}

fn text(v: &str) -> bool {
    !v.trim().is_empty() && v.chars().count() <= 200 && !v.chars().any(char::is_control)
}
fn token(v: &str) -> bool {
    !v.is_empty() && v.len() <= 300 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b))
}
fn language(v: &str) -> bool {
    (2..=10).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
}
fn components(v: &str) -> bool {
    // `country:us|country:ca`: up to five countries.
    v.split('|').count() <= 5
        && v.split('|').all(|c| {
            c.strip_prefix("country:").is_some_and(|cc| cc.len() == 2 && cc.bytes().all(|b| b.is_ascii_alphabetic()))
        })
}
fn types(v: &str) -> bool {
    ["address", "geocode", "establishment", "(regions)", "(cities)"].contains(&v)
}
fn fields(v: &str) -> bool {
    v.len() <= 200
        && v.split(',').all(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_lowercase() || b"_/".contains(&b)))
}
fn context(v: &str) -> bool {
    !v.is_empty() && v.len() <= 100 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b))
}

const AUTOCOMPLETE_PARAMS: &[Param] = &[
    Param { name: "input", upstream: Some("input"), required: true, check: text },
    Param { name: "sessiontoken", upstream: Some("sessiontoken"), required: false, check: token },
    Param { name: "language", upstream: Some("language"), required: false, check: language },
    Param { name: "components", upstream: Some("components"), required: false, check: components },
    Param { name: "types", upstream: Some("types"), required: false, check: types },
];

const DETAILS_PARAMS: &[Param] = &[
    Param { name: "placeId", upstream: Some("place_id"), required: true, check: token },
    Param { name: "sessiontoken", upstream: Some("sessiontoken"), required: false, check: token },
    Param { name: "language", upstream: Some("language"), required: false, check: language },
    Param { name: "fields", upstream: Some("fields"), required: false, check: fields },
    Param { name: "productPage", upstream: None, required: false, check: context },
    Param { name: "productSection", upstream: None, required: false, check: context },
];

/// A checked request: the upstream query pairs, and whether the tracking context was there.
#[derive(Debug, PartialEq, Eq)]
pub struct Checked {
    /// Parameters to send upstream (the key is added later).
    pub upstream: Vec<(&'static str, String)>,
    /// Whether both `productPage` and `productSection` were given.
    pub tracked: bool,
}

/// Why a place search query is refused; the message is the 400 answer's.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The query is too long.
    #[error("The query is longer than {} bytes.", MAX_QUERY)]
    TooLong,
    /// The query is not form-encoded.
    #[error("The query could not be read: {0}")]
    Unreadable(String),
    /// A parameter the route does not know.
    #[error("'{name}' is not a parameter of this route (known: {known}).")]
    Unknown { name: String, known: String },
    /// A parameter given twice.
    #[error("'{0}' is given more than once.")]
    Repeated(String),
    /// A value the parameter does not accept.
    #[error("'{0}' has a value that is not accepted.")]
    BadValue(String),
    /// A required parameter is missing.
    #[error("'{0}' is required.")]
    Missing(&'static str),
}

/// Checks the query string of a request to `endpoint`: every parameter known, none
/// repeated, each valid, the required ones present. The error is the 400 message.
pub fn check(endpoint: Endpoint, query: &str) -> Result<Checked, QueryError> {
    if query.len() > MAX_QUERY {
        return Err(QueryError::TooLong);
    }
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(query).map_err(|e| QueryError::Unreadable(e.to_string()))?;
    let params = match endpoint {
        Endpoint::Autocomplete => AUTOCOMPLETE_PARAMS,
        Endpoint::Details => DETAILS_PARAMS,
    };
    let mut upstream = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in &pairs {
        let Some(param) = params.iter().find(|p| p.name == name) else {
            let known: Vec<&str> = params.iter().map(|p| p.name).collect();
            return Err(QueryError::Unknown { name: name.clone(), known: known.join(", ") });
        };
        if seen.contains(&param.name) {
            return Err(QueryError::Repeated(name.clone()));
        }
        seen.push(param.name);
        if !(param.check)(value) {
            return Err(QueryError::BadValue(name.clone()));
        }
        if let Some(up) = param.upstream {
            upstream.push((up, value.clone()));
        }
    }
    if let Some(missing) = params.iter().find(|p| p.required && !seen.contains(&p.name)) {
        return Err(QueryError::Missing(missing.name));
    }
    let tracked = seen.contains(&"productPage") && seen.contains(&"productSection");
    Ok(Checked { upstream, tracked })
}

static CLIENT: LazyLock<Option<reqwest::Client>> = LazyLock::new(|| {
    reqwest::Client::builder()
        .timeout(UPSTREAM_TIMEOUT)
        .connect_timeout(UPSTREAM_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| tracing::error!(%error, "the Google Maps client could not be built"))
        .ok()
});

fn error(status: StatusCode, message: impl Into<String>) -> HttpResponse {
    no_store(HttpResponse::build(status)).json(serde_json::json!({ "error": message.into() }))
}

fn retry(status: StatusCode, after_secs: u64, message: &str) -> HttpResponse {
    let mut response = error(status, message);
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&after_secs.to_string()) {
        response.headers_mut().insert(actix_web::http::header::RETRY_AFTER, value);
    }
    response
}

/// Whether the request may come from the site's own page. Browsers send `Origin` on cross-origin requests and
/// `Sec-Fetch-Site` on every request to a secure origin; either one naming another site refuses it. A request with
/// neither (an older browser over plain http, or a script) is left to the per-address limit.
fn same_origin(req: &HttpRequest, site: &veranda_actors::site::Site) -> bool {
    let headers = req.headers();
    if headers.contains_key(actix_web::http::header::ORIGIN) && !origin_allowed(req, site) {
        return false;
    }
    match headers.get("sec-fetch-site").map(|v| v.to_str().unwrap_or("")) {
        None => true,
        Some(site) => matches!(site, "same-origin" | "none"),
    }
}

async fn proxy(state: &AppState, req: &HttpRequest, endpoint: Endpoint) -> HttpResponse {
    // A malformed request is the caller's to fix whether or not a key is configured.
    let checked = match check(endpoint, req.query_string()) {
        Ok(checked) => checked,
        Err(message) => return error(StatusCode::BAD_REQUEST, message.to_string()),
    };
    let site = state.services.site.current();
    if !same_origin(req, &site) {
        Refusal::ForeignOrigin.count();
        return error(StatusCode::FORBIDDEN, FOREIGN_ORIGIN);
    }
    let Some(key) = state.settings.maps.server_key().map(str::to_string) else {
        Refusal::NoServerKey.count();
        return error(StatusCode::SERVICE_UNAVAILABLE, NO_KEY);
    };
    if let Err(retry_after) = state.services.places.admit(crate::security::proxy::client_ip(req)) {
        Refusal::RateLimited.count();
        return retry(StatusCode::TOO_MANY_REQUESTS, retry_after, RATE_LIMITED);
    }
    let Some(_slot) = state.services.places.slot() else {
        Refusal::Busy.count();
        return retry(StatusCode::SERVICE_UNAVAILABLE, 1, BUSY);
    };
    if endpoint == Endpoint::Details && !checked.tracked {
        tracing::error!("place details requested without the tracking context (productPage and productSection)");
    }
    let Some(client) = CLIENT.as_ref() else {
        return error(StatusCode::BAD_GATEWAY, "Place search is not available right now.");
    };
    let path = match endpoint {
        Endpoint::Autocomplete => "autocomplete/json",
        Endpoint::Details => "details/json",
    };
    let mut query = checked.upstream;
    query.push(("key", key));
    let answer = async {
        let base = state.settings.maps.places_upstream.trim_end_matches('/');
        let mut response = client.get(format!("{base}/{path}")).query(&query).send().await.ok()?;
        let status = StatusCode::from_u16(response.status().as_u16()).ok()?;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.ok()? {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_UPSTREAM_BODY {
                return None;
            }
        }
        serde_json::from_slice::<serde_json::Value>(&body).ok().map(|json| (status, json))
    };
    match answer.await {
        Some((status, json)) => no_store(HttpResponse::build(status)).json(json),
        None => {
            tracing::warn!(?endpoint, "the Google Places service did not answer usably");
            error(StatusCode::BAD_GATEWAY, "The place service did not answer. Try again.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autocomplete_takes_known_bounded_parameters() {
        let ok = check(
            Endpoint::Autocomplete,
            "input=12%20Linden&sessiontoken=abc-123&language=en&components=country:us|country:ca&types=address",
        )
        .expect("a good query");
        assert_eq!(ok.upstream[0], ("input", "12 Linden".to_string()));
        assert_eq!(ok.upstream.len(), 5);
        for (query, message) in [
            ("", "'input' is required."),
            ("input=", "'input' has a value that is not accepted."),
            ("input=a&input=b", "'input' is given more than once."),
            (
                "input=a&key=mine",
                "'key' is not a parameter of this route (known: input, sessiontoken, language, components, types).",
            ),
            ("input=a&url=https://evil.example/", "'url' is not a parameter"),
            ("input=a&language=en%0d%0aX", "'language' has a value that is not accepted."),
            ("input=a&components=country:usa", "'components' has a value"),
            ("input=a&types=anything", "'types' has a value"),
            ("input=a%00b", "'input' has a value"),
        ] {
            let got = check(Endpoint::Autocomplete, query).expect_err(query).to_string();
            assert!(got.starts_with(message), "{query}: {got}");
        }
        let long = format!("input={}", "a".repeat(201));
        assert!(check(Endpoint::Autocomplete, &long).is_err());
        let huge = format!("input=a&sessiontoken={}", "a".repeat(2000));
        assert_eq!(
            check(Endpoint::Autocomplete, &huge).map_err(|e| e.to_string()),
            Err("The query is longer than 1024 bytes.".to_string())
        );
    }

    #[test]
    fn details_need_a_place_id_and_keep_tracking_to_themselves() {
        let tracked = check(Endpoint::Details, "placeId=ChIJ_abc-1&productPage=checkout&productSection=address")
            .expect("a good query");
        assert!(tracked.tracked);
        assert_eq!(tracked.upstream, vec![("place_id", "ChIJ_abc-1".to_string())]);
        assert!(!check(Endpoint::Details, "placeId=ChIJ1").expect("untracked").tracked);
        assert!(!check(Endpoint::Details, "placeId=ChIJ1&productPage=checkout").expect("half").tracked);
        for query in
            ["", "placeId=../../x", "placeId=a&input=b", "placeId=a&fields=name,ADDRESS", "placeId=a&productPage=a%20b"]
        {
            assert!(check(Endpoint::Details, query).is_err(), "{query}");
        }
    }
}
