//! The Places forwarder (`/api/google-maps/places/*`) spends the operator's quota, so a stranger must not be able to
//! drive it: it sends only the server key from `veranda.toml` (never the site's public browser key), answers only
//! the site's own pages, limits each client address, and caps the upstream calls in flight. No test calls Google:
//! the upstream is a stand-in on 127.0.0.1.

use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;
use veranda_server::settings::Settings;
use veranda_tests::metrics::scrape;
use veranda_tests::{spawn_app_configured, TestApp};

use crate::google_maps::{keyed_site, places_stand_in, Asked};

const AUTOCOMPLETE: &str = "/api/google-maps/places/autocomplete";

/// A server whose site has a browser key, forwarding place searches to a stand-in with
/// `server_key`, its settings further changed by `configure`; the app, its site's folder
/// and what the stand-in was asked.
async fn keyed_app(server_key: &str, configure: impl FnOnce(&mut Settings)) -> (TestApp, TempDir, Asked) {
    let (upstream, asked) = places_stand_in().await;
    let dir = keyed_site();
    let app = spawn_app_configured(dir.path(), |s| {
        s.maps.places_upstream = upstream;
        s.maps.server_key = server_key.into();
        configure(s);
    })
    .await;
    (app, dir, asked)
}

async fn search(app: &TestApp, input: &str, headers: &[(&str, &str)]) -> (u16, Option<String>, Value) {
    let res = app.get_with(&format!("{AUTOCOMPLETE}?input={input}"), headers).await;
    let status = res.status().as_u16();
    let retry_after = res.headers().get("retry-after").map(|v| v.to_str().expect("ascii").to_string());
    (status, retry_after, res.json().await.expect("a JSON answer"))
}

async fn metrics(app: &TestApp) -> String {
    scrape(&app.ops_address).await
}

#[actix_rt::test]
async fn without_a_server_key_the_browser_key_is_never_forwarded() {
    let (app, _dir, asked) = keyed_app("", |_| {}).await;
    let (status, _, body) = search(&app, "Linden", &[]).await;
    assert_eq!(status, 503, "{body}");
    let message = body["error"].as_str().expect("an error message");
    assert!(message.contains("server_key"), "the message names the setting: {message}");
    assert!(asked.lock().expect("asked").is_empty(), "nothing was sent upstream");
    let text = metrics(&app).await;
    assert!(text.contains("veranda_places_refused_total{reason=\"no_server_key\"}"), "counted");
}

#[actix_rt::test]
async fn another_sites_page_is_refused_and_the_sites_own_page_is_answered() {
    let (app, _dir, asked) = keyed_app("server-key-not-real", |_| {}).await;
    for headers in [[("origin", "https://evil.example")], [("sec-fetch-site", "cross-site")]] {
        let (status, _, body) = search(&app, "Linden", &headers).await;
        assert_eq!(status, 403, "{headers:?}: {body}");
        assert_eq!(body["error"], "Place search only answers the site's own pages.");
    }
    assert!(asked.lock().expect("asked").is_empty(), "a refused call reaches no one");
    let own = app.address.clone();
    let (status, _, body) = search(&app, "Linden", &[("origin", &own), ("sec-fetch-site", "same-origin")]).await;
    assert_eq!(status, 200, "{body}");
    let calls = asked.lock().expect("asked").clone();
    assert_eq!(calls.len(), 1);
    assert!(calls[0].1.contains(&("key".to_string(), "server-key-not-real".to_string())), "the server key is sent");
    assert!(!calls[0].1.iter().any(|(_, v)| v == "test-key-not-real"), "the browser key is not");
}

#[actix_rt::test]
async fn one_address_gets_its_quota_and_then_429_with_retry_after() {
    let (app, _dir, asked) = keyed_app("server-key-not-real", |s| s.maps.places_per_minute = 3).await;
    for n in 0..3 {
        let (status, _, body) = search(&app, "Linden", &[]).await;
        assert_eq!(status, 200, "search {n}: {body}");
    }
    let (status, retry_after, body) = search(&app, "Linden", &[]).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"], "Too many place searches from this address; try again shortly.");
    let wait: u64 = retry_after.expect("Retry-After").parse().expect("seconds");
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(asked.lock().expect("asked").len(), 3, "the refused search was not forwarded");
    assert!(metrics(&app).await.contains("veranda_places_refused_total{reason=\"rate_limited\"}"));
}

#[actix_rt::test]
async fn upstream_calls_in_flight_are_capped() {
    let (app, _dir, asked) = keyed_app("server-key-not-real", |s| s.maps.places_concurrency = 1).await;
    let slow = {
        let (client, url) = (app.client.clone(), format!("{}{AUTOCOMPLETE}?input=slow", app.address));
        actix_rt::spawn(async move { client.get(url).send().await.expect("answered").status().as_u16() })
    };
    veranda_tests::wait::eventually(Duration::from_secs(10), "the slow search to reach upstream", || async {
        !asked.lock().expect("asked").is_empty()
    })
    .await;
    let (status, retry_after, body) = search(&app, "Linden", &[]).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"], "Place search is busy; try again shortly.");
    assert_eq!(retry_after.as_deref(), Some("1"));
    assert_eq!(slow.await.expect("the slow search ends"), 200);
    let (status, _, body) = search(&app, "Linden", &[]).await;
    assert_eq!(status, 200, "the slot is free again: {body}");
}
