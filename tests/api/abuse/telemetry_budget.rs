//! Everything an anonymous caller makes the server store through the telemetry endpoints
//! is charged by its size to its client address: past its byte budget an address gets 429
//! with `Retry-After`, whatever `pageLoadId` it makes up, while other addresses are still
//! accepted; the refusals are counted on `/metrics`.

use serde_json::{json, Value};
use veranda_tests::metrics::scraped;
use veranda_tests::{crumb, demo_site_dir, spawn_app_configured, TestApp};

const ERRORS_PATH: &str = "/api/events/RecordJavascriptErrors";

/// About 9 KB of text that does not repeat.
fn filler(seed: usize, len: usize) -> String {
    (0..len).map(|i| char::from(b'a' + ((i * 7 + seed * 13 + i / 26) % 26) as u8)).collect()
}

/// `records` error records of about 9 KB each, all of the page load `load`.
fn report(load: &str, records: usize) -> Value {
    let records: Vec<Value> = (0..records)
        .map(|n| {
            json!({ "event": "error", "timestamp": 1, "data": {
                "url": format!("https://example.com/{}", filler(n, 2000)),
                "message": format!("boom {}", filler(n + 1, 1000)),
                "stack": filler(n + 2, 5000),
                "file": format!("https://example.com/{}.js", filler(n + 3, 900)),
                "line": 3, "column": 1, "pageLoadId": load } })
        })
        .collect();
    Value::Array(records)
}

/// Sends `body` as error reports from the client address `ip`; the status,
/// `Retry-After` and answer.
async fn send(app: &TestApp, crumb: &str, ip: &str, body: &Value) -> (u16, Option<String>, Value) {
    let req = TestApp::with_crumb(app.client.post(format!("{}{ERRORS_PATH}", app.address)), crumb);
    let res = req.header("x-forwarded-for", ip).json(body).send().await.expect("answered");
    let status = res.status().as_u16();
    let retry_after = res.headers().get("retry-after").map(|v| v.to_str().expect("ascii").to_string());
    (status, retry_after, res.json().await.expect("a JSON answer"))
}

/// The sum of the samples of `metric` carrying every label of `labels` (0 when none).
async fn sample(app: &TestApp, metric: &str, labels: &[(&str, &str)]) -> f64 {
    scraped(&app.ops_address, metric, labels).await.unwrap_or(0.0)
}

#[actix_rt::test]
async fn one_address_past_its_byte_budget_gets_429_with_retry_after_and_another_is_still_accepted() {
    let app = spawn_app_configured(&demo_site_dir(), |s| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")];
        s.telemetry.byte_burst_per_address = 64 * 1024;
        s.telemetry.bytes_per_address_per_minute = 16 * 1024;
    })
    .await;
    let crumb = crumb(&app).await;
    let refused_before = sample(&app, "veranda_rate_limited_total", &[("table", "telemetry_bytes")]).await;
    let flooder = "203.0.113.9";
    let mut accepted = 0;
    let refusal = loop {
        // A fresh page load each time: the per-page-load cap never applies.
        let (status, retry_after, body) = send(&app, &crumb, flooder, &report(&format!("load-{accepted}"), 1)).await;
        if status != 202 {
            break (status, retry_after, body);
        }
        accepted += 1;
        assert!(accepted < 20, "64 KiB of 9 KB records is refused well before 20 sends");
    };
    assert!(accepted >= 5, "the budget admits what fits in it: {accepted} sends");
    let (status, retry_after, body) = refusal;
    assert_eq!(status, 429, "{body}");
    let secs: u64 = retry_after.expect("Retry-After").parse().expect("whole seconds");
    assert!((1..=60).contains(&secs), "{secs}");
    let message = body["error"].as_str().expect("an error message");
    assert!(message.contains("too much telemetry"), "{message}");

    let (status, _, body) = send(&app, &crumb, "203.0.113.10", &report("another-load", 1)).await;
    assert_eq!(status, 202, "another address is accepted: {body}");
    let census = app
        .client
        .post(format!("{}/api/census/RecordHit", app.address))
        .header("x-forwarded-for", flooder)
        .form(&[("event", "pageView"), ("data", &format!(r#"{{"url":"/about","pad":"{}"}}"#, filler(9, 14_000)))])
        .send()
        .await
        .expect("answered");
    assert_eq!(census.status(), 429, "the budget covers every telemetry endpoint: a 14 KB census hit is refused");

    let refused_after = sample(&app, "veranda_rate_limited_total", &[("table", "telemetry_bytes")]).await;
    assert!(refused_after >= refused_before + 2.0, "{refused_before} -> {refused_after}");
    let rejected =
        sample(&app, "veranda_ingest_rejected_total", &[("endpoint", "javascript_errors"), ("reason", "byte_budget")])
            .await;
    assert!(rejected >= 1.0, "{rejected}");
}

#[actix_rt::test]
async fn by_default_a_flood_of_ten_record_sends_from_one_address_is_refused_before_sixteen_megabytes() {
    let app = spawn_app_configured(&demo_site_dir(), |s| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")];
    })
    .await;
    let crumb = crumb(&app).await;
    let body_len = serde_json::to_vec(&report("load-x", 10)).expect("json").len();
    assert!(body_len > 85_000, "ten records of about 9 KB: {body_len}");
    let mut sent = 0;
    loop {
        let (status, retry_after, body) =
            send(&app, &crumb, "203.0.113.11", &report(&format!("load-{sent}"), 10)).await;
        if status == 429 {
            assert!(retry_after.is_some(), "{body}");
            break;
        }
        assert_eq!(status, 202, "{body}");
        sent += 1;
        assert!(sent * body_len < 16 * 1024 * 1024, "still accepted after {sent} sends");
    }
    assert!(sent * body_len > 1024 * 1024, "a real page's error reports fit: refused after {sent} sends");
}
