//! The statuses of the ingest routes not covered elsewhere: 413 on every census and
//! event route, 405 on a wrong method, `ss_cvr` sent only as a form field, and the per-IP
//! 429 with `Retry-After`.

use veranda_actors::store::Tree;
use veranda_actors::telemetry::TelemetryLimits;

use super::{demo, spawn, App};
use veranda_tests::cookie_value;

const CONSENT: &str = "ss_cookieAllowed=true";

/// A form field larger than any census or event body may be (16 KiB).
fn oversized() -> String {
    "x".repeat(20_000)
}

fn now_ms() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_millis()
}

#[actix_rt::test]
async fn oversized_census_and_event_bodies_get_413() {
    let app = demo().await;
    let huge = oversized();
    let forms: [(&str, Vec<(&str, &str)>); 5] = [
        ("/api/census/button-click", vec![("id", "b1"), ("url", "/about"), ("buttonText", &huge)]),
        ("/api/census/button-render", vec![("id", "b1"), ("url", "/about"), ("buttonText", &huge)]),
        ("/api/census/form-render", vec![("formId", "f1"), ("url", "/contact"), ("extra", &huge)]),
        ("/api/census/overlay", vec![("event", "shown"), ("url", "/"), ("extra", &huge)]),
        ("/api/events/RecordEvent", vec![("event", "click"), ("data", &huge)]),
    ];
    for (path, form) in &forms {
        let res = app.post_form(path, form, &[("cookie", CONSENT)]).await;
        assert_eq!(res.status(), 413, "{path}");
        let body: serde_json::Value = res.json().await.expect("a JSON error");
        assert!(body["error"].as_str().is_some_and(|e| e.contains("larger than")), "{path}: {body}");
    }
    let event = serde_json::json!({ "commonData": { "pagePath": "/about" }, "customData": { "k": huge } });
    let res = app.post_body("/api/v1/events", "application/json", event.to_string(), &[]).await;
    assert_eq!(res.status(), 413, "/api/v1/events");
    assert!(app.records(Tree::Census, 0).await.is_empty() && app.records(Tree::Events, 0).await.is_empty());
}

#[actix_rt::test]
async fn a_wrong_method_on_a_telemetry_route_gets_405_naming_the_allowed_ones() {
    let app = demo().await;
    let wrong = [
        (reqwest::Method::GET, "/api/census/RecordHit", "POST"),
        (reqwest::Method::PUT, "/api/events/Trace", "POST"),
        (reqwest::Method::DELETE, "/api/v1/events", "POST"),
        (reqwest::Method::POST, "/api/events/errors", "GET"),
        (reqwest::Method::POST, "/api/track/Track", "GET, HEAD"),
    ];
    for (method, path, allow) in wrong {
        let res = app.client.request(method.clone(), format!("{}{path}", app.address)).send().await.expect("answered");
        assert_eq!(res.status(), 405, "{method} {path}");
        assert_eq!(res.headers()["allow"], allow, "{method} {path}");
    }
}

#[actix_rt::test]
async fn record_hit_takes_the_visitor_cookie_from_the_form_when_the_cookie_is_missing() {
    let app = demo().await;
    let data = serde_json::json!({ "url": "/about", "title": "t" }).to_string();
    let cookies = format!("{CONSENT}; ss_cvt={}", now_ms() - 1000);
    let res = app
        .post_form(
            "/api/census/RecordHit",
            &[("event", "pageView"), ("data", &data), ("ss_cvr", "form-visitor|1|2|3|4")],
            &[("cookie", &cookies)],
        )
        .await;
    assert_eq!(res.status(), 204);
    assert_eq!(cookie_value(&res, "ss_cvr").as_deref(), Some("form-visitor|1|2|3|4"), "the same visit goes on");
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records[0]["visitorId"], "form-visitor");
}

/// Sends `send` three times under a rate of 1 a second with a burst of 2; the third
/// answer is 429 with a `Retry-After` of at least a second.
async fn third_call_is_rate_limited(app: &App, name: &str, send: impl AsyncFn(&App, usize) -> reqwest::Response) {
    let mut statuses = Vec::new();
    for n in 0..3 {
        let res = send(app, n).await;
        statuses.push(res.status().as_u16());
        if res.status() == 429 {
            let wait: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
            assert!(wait >= 1, "{name}: Retry-After {wait}");
        }
    }
    assert_eq!(statuses[2], 429, "{name}: {statuses:?}");
    assert!(statuses[..2].iter().all(|s| (200..300).contains(s)), "{name}: {statuses:?}");
}

#[actix_rt::test]
async fn too_many_hits_and_error_reports_from_one_ip_get_429_with_retry_after() {
    let limits = TelemetryLimits { rate_per_second: 1, rate_burst: 2, ..TelemetryLimits::default() };
    let hits = spawn(None, limits.clone()).await;
    third_call_is_rate_limited(&hits, "RecordHit", async |app: &App, n: usize| {
        let data = serde_json::json!({ "url": format!("/about?n={n}") }).to_string();
        app.post_form("/api/census/RecordHit", &[("event", "pageView"), ("data", &data)], &[]).await
    })
    .await;

    let errors = spawn(None, limits).await;
    let crumb = errors.crumb().await;
    third_call_is_rate_limited(&errors, "RecordJavascriptErrors", async |app: &App, n: usize| {
        let report = serde_json::json!([{ "event": "error", "timestamp": 1, "data": { "url": "https://example.com/about",
            "message": "boom", "file": "https://example.com/a.js", "line": 1, "column": 1,
            "pageLoadId": format!("limited-{n}") } }]);
        let cookie = format!("crumb={crumb}");
        app.post_body(
            "/api/events/RecordJavascriptErrors",
            "application/json",
            report.to_string(),
            &[("cookie", &cookie), ("X-CSRF-Token", &crumb)],
        )
        .await
    })
    .await;
}
