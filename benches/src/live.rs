//! Shared by the clients of the edits stream (`edit_latency`, `fanout`): an owner session
//! seeded into the store before the server opens it, the page crumb, one content edit
//! through the API, the websocket request of a subscriber, and nearest-rank percentiles.

use veranda_actors::accounts::SessionRecord;
use veranda_actors::store::redis_store::RedisSettings;
use veranda_actors::store::{RedisStore, SledStore, Store, Tree};

use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;

/// The demo site's "About" text block, the block the benchmarks edit.
pub const DEFAULT_BLOCK: &str = "085024dcf58d4d4d826b5c67";
/// The session cookie's name.
pub const SESSION_COOKIE: &str = veranda_actors::accounts::SESSION_COOKIE;

/// Stores a signed-in owner session under `session_id` in the store at `place`: a sled data
/// dir (single-process: this runs before the server opens it), or a `redis://` URL (the
/// shared store of servers started with that `--redis-url`).
pub async fn seed_session(place: &str, session_id: &str) -> Result<(), String> {
    let record = SessionRecord {
        account_id: "owner".into(),
        owner: true,
        roles: Vec::new(),
        member: false,
        expires_at: i64::MAX,
    };
    let bytes = serde_json::to_vec(&record).map_err(|e| e.to_string())?;
    if place.starts_with("redis://") {
        // The benchmark's Redis keeps nothing on disk; the session only has to be there.
        let settings = RedisSettings { require_durable: false, ..RedisSettings::default() };
        let store = RedisStore::connect(place, &settings).await?;
        store.put(Tree::Sessions, session_id.as_bytes(), &bytes).await.map_err(|e| format!("not stored: {e}"))?;
        store.close();
        return Ok(());
    }
    let store = SledStore::open(std::path::Path::new(place)).map_err(|e| format!("the store does not open: {e}"))?;
    store.put(Tree::Sessions, session_id.as_bytes(), &bytes).await.map_err(|e| format!("not stored: {e}"))?;
    store.close().map_err(|e| format!("the store does not close: {e}"))
}

/// Checks that `address` is `http://127.0.0.1:PORT` (the benchmarks talk to loopback only)
/// and returns it without a trailing slash.
pub fn loopback_address(address: &str) -> Result<String, String> {
    let address = address.trim_end_matches('/');
    let port =
        address.strip_prefix("http://127.0.0.1:").ok_or("addresses must be http://127.0.0.1:PORT (loopback only)")?;
    port.parse::<u16>().map_err(|_| format!("{address}: the port is not a number"))?;
    Ok(address.to_string())
}

/// The crumb cookie `GET /?noredirect` hands out; with `session`, the crumb of that
/// signed-in session (crumbs are bound to the session they were issued for; `noredirect`
/// keeps a signed-in owner on the page instead of sending them to `/config/`).
pub async fn crumb(http: &reqwest::Client, address: &str, session: Option<&str>) -> Result<String, String> {
    let mut request = http.get(format!("{address}/?noredirect"));
    if let Some(session) = session {
        request = request.header("cookie", format!("{SESSION_COOKIE}={session}"));
    }
    let res = request.send().await.map_err(|e| format!("GET /: {e}"))?;
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("crumb=").map(|rest| rest.split(';').next().unwrap_or_default().to_string()))
        .ok_or_else(|| "GET / set no crumb cookie".into())
}

/// A signed-in owner making content edits through the API.
#[derive(Clone)]
pub struct Editor {
    /// The HTTP client (one connection pool for every edit).
    pub http: reqwest::Client,
    /// `http://127.0.0.1:PORT`.
    pub address: String,
    /// The owner session id.
    pub session: String,
    /// The crumb echoed in `X-CSRF-Token`.
    pub crumb: String,
    /// The text block edited.
    pub block: String,
}

impl Editor {
    /// Signs the owner session `session` in at `address` (reads a crumb).
    pub async fn new(address: &str, session: &str, block: &str) -> Result<Editor, String> {
        let http = reqwest::Client::builder().build().map_err(|e| e.to_string())?;
        let crumb = crumb(&http, address, Some(session)).await?;
        Ok(Editor { http, address: address.to_string(), session: session.to_string(), crumb, block: block.to_string() })
    }

    /// Replaces the block's text with `html` (`PUT /api/content/blocks/{id}`); `Ok` on a 2xx.
    pub async fn edit(&self, html: &str) -> Result<(), String> {
        let res = self
            .http
            .put(format!("{}/api/content/blocks/{}", self.address, self.block))
            .header("cookie", format!("{SESSION_COOKIE}={}; crumb={}", self.session, self.crumb))
            .header("x-csrf-token", &self.crumb)
            .json(&serde_json::json!({ "html": html }))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if res.status().is_success() {
            return Ok(());
        }
        let status = res.status();
        Err(format!("answered {status}: {}", res.text().await.unwrap_or_default()))
    }
}

/// The websocket request of a subscriber to `/api/streams/edits` at `address`
/// (`http://127.0.0.1:PORT`), as the owner session `session`, from the site's own origin.
pub fn edits_stream_request(address: &str, session: &str) -> Result<Request, String> {
    let ws = address.replacen("http://", "ws://", 1);
    let mut request = format!("{ws}/api/streams/edits").into_client_request().map_err(|e| e.to_string())?;
    let cookie = format!("{SESSION_COOKIE}={session}").parse().map_err(|_| "unusable session id")?;
    let origin = address.parse().map_err(|_| "unusable origin")?;
    request.headers_mut().insert("cookie", cookie);
    request.headers_mut().insert("origin", origin);
    Ok(request)
}

/// Nearest-rank percentile `p` (0–1) of sorted `values`; `None` when there are none.
pub fn percentile<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let values: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&values, 0.5), Some(50));
        assert_eq!(percentile(&values, 0.99), Some(99));
        assert_eq!(percentile(&[7u32], 0.99), Some(7));
        assert_eq!(percentile::<u32>(&[], 0.5), None);
    }

    #[test]
    fn only_loopback_addresses_are_accepted() {
        assert_eq!(loopback_address("http://127.0.0.1:8080/").as_deref(), Ok("http://127.0.0.1:8080"));
        assert!(loopback_address("http://10.0.0.1:80").is_err());
        assert!(loopback_address("http://127.0.0.1:x").is_err());
        assert!(loopback_address("http://127.0.0.1.example:80").is_err());
    }

    #[test]
    fn a_subscriber_request_carries_the_session_and_the_site_origin() {
        let request = edits_stream_request("http://127.0.0.1:9000", "abc").unwrap();
        assert_eq!(request.uri().to_string(), "ws://127.0.0.1:9000/api/streams/edits");
        assert_eq!(request.headers()["origin"], "http://127.0.0.1:9000");
        assert_eq!(request.headers()["cookie"], format!("{SESSION_COOKIE}=abc").as_str());
    }
}
