//! Error reports, events, traces, performance records, rate limits and backpressure.

use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::store::Tree;
use veranda_actors::telemetry::TelemetryLimits;

use veranda_tests::assert_refused;
use veranda_tests::eventually;

use super::{demo, spawn, App};

fn error_record(message: &str, page_load: &str, line: u32) -> serde_json::Value {
    serde_json::json!({ "event": "error", "timestamp": 1, "data": { "websiteId": "w", "templateId": "t",
        "url": "https://example.com/about", "userAgent": "test", "app": "loader", "message": message,
        "stack": "Error\n    at x (https://example.com/assets/loader-abc123ef.js:1:2)", "file": "https://example.com/assets/loader-abc123ef.js?v=1",
        "line": line, "column": 2, "pageLoadId": page_load } })
}

/// How many error records are stored, once at least `n` are (waits up to 5 s).
async fn stored_error_records(app: &App, n: usize) -> usize {
    eventually(std::time::Duration::from_secs(5), &format!("{n} error records"), || async {
        let chunks = app.records_under(Tree::Errors, b"r/", 0).await;
        let stored: usize = chunks.iter().map(|c| c.as_array().map_or(0, Vec::len)).sum();
        if stored >= n {
            Ok(stored)
        } else {
            Err(stored)
        }
    })
    .await
}

async fn send_errors(app: &App, crumb: &str, records: serde_json::Value) -> reqwest::Response {
    let cookie = format!("crumb={crumb}");
    app.post_body(
        "/api/events/RecordJavascriptErrors",
        "application/json",
        records.to_string(),
        &[("cookie", &cookie), ("X-CSRF-Token", crumb)],
    )
    .await
}

#[actix_rt::test]
async fn error_reports_without_a_good_crumb_are_refused() {
    let app = demo().await;
    let body = serde_json::json!([error_record("boom", "p1", 1)]).to_string();
    let res = app.post_body("/api/events/RecordJavascriptErrors", "application/json", body, &[]).await;
    assert_eq!(res.status(), 403);
    let json: serde_json::Value = res.json().await.expect("JSON");
    assert_eq!(json["crumbFail"], true);
}

#[actix_rt::test]
async fn the_twenty_first_error_of_a_page_load_is_refused() {
    let app = demo().await;
    let crumb = app.crumb().await;
    for i in 0..20 {
        let res = send_errors(&app, &crumb, serde_json::json!([error_record(&format!("boom {i}"), "load-1", 7)])).await;
        assert_eq!(res.status(), 202, "send {i}");
    }
    let refused = send_errors(&app, &crumb, serde_json::json!([error_record("boom", "load-1", 7)])).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    let other = send_errors(&app, &crumb, serde_json::json!([error_record("boom", "load-2", 7)])).await;
    assert_eq!(other.status(), 202, "another page load has its own cap");
}

/// As the loader sends them: up to 10 records a send, up to 20 sends a page load.
#[actix_rt::test]
async fn twenty_sends_of_ten_records_are_all_kept_and_the_twenty_first_send_is_refused() {
    let app = demo().await;
    let crumb = app.crumb().await;
    for send in 0..20 {
        let records: Vec<_> = (0..10).map(|n| error_record(&format!("boom {send}-{n}"), "full-load", 7)).collect();
        let res = send_errors(&app, &crumb, serde_json::Value::Array(records)).await;
        assert_eq!(res.status(), 202, "send {send}");
        let json: serde_json::Value = res.json().await.expect("JSON");
        assert_eq!((json["accepted"].as_u64(), json["dropped"].as_u64()), (Some(10), Some(0)), "send {send}");
    }
    let refused = send_errors(&app, &crumb, serde_json::json!([error_record("one more", "full-load", 7)])).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(stored_error_records(&app, 200).await, 200, "every record of the 20 sends is stored");
    let owner = app.sign_in(true, &[]).await;
    let list: serde_json::Value =
        app.get("/api/events/errors", &[("cookie", &owner)]).await.json().await.expect("JSON");
    let counted: u64 = list["groups"].as_array().expect("groups").iter().filter_map(|g| g["count"].as_u64()).sum();
    assert_eq!(counted, 200, "and counted in the groups the owner sees");
}

#[actix_rt::test]
async fn a_send_of_more_than_ten_records_is_refused() {
    let app = demo().await;
    let crumb = app.crumb().await;
    let records: Vec<_> = (0..11).map(|n| error_record(&format!("boom {n}"), "big-load", 7)).collect();
    let res = send_errors(&app, &crumb, serde_json::Value::Array(records)).await;
    assert_refused(res, 400, "at most 10 error records per request").await;
    let owner = app.sign_in(true, &[]).await;
    let list: serde_json::Value =
        app.get("/api/events/errors", &[("cookie", &owner)]).await.json().await.expect("JSON");
    assert_eq!(list["records"].as_array().map(Vec::len), Some(0), "nothing of it is kept");
}

#[actix_rt::test]
async fn errors_are_grouped_by_fingerprint_and_shown_to_owners() {
    let app = demo().await;
    let crumb = app.crumb().await;
    let records = serde_json::json!([
        error_record("Item 1 missing", "p", 3),
        error_record("Item 2 missing", "p", 3),
        error_record("Other failure", "p", 9)
    ]);
    let res = send_errors(&app, &crumb, records).await;
    assert_eq!(res.status(), 202);
    let json: serde_json::Value = res.json().await.expect("JSON");
    assert_eq!(json["accepted"], 3);
    assert_eq!(app.get("/api/events/errors", &[]).await.status(), 401);
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    assert_eq!(app.get("/api/events/errors", &[("cookie", &editor)]).await.status(), 403);
    let owner = app.sign_in(true, &[]).await;
    let groups: serde_json::Value =
        app.get("/api/events/errors", &[("cookie", &owner)]).await.json().await.expect("JSON");
    let groups = groups["groups"].as_array().expect("a list");
    assert_eq!(groups.len(), 2);
    let item = groups.iter().find(|g| g["message"] == "Item 1 missing").expect("the item group");
    assert_eq!(item["count"], 2);
    assert!(item["firstSeen"].as_u64() <= item["lastSeen"].as_u64());
    let chunks = app.records_under(Tree::Errors, b"r/", 1).await;
    let records: usize = chunks.iter().map(|c| c.as_array().map_or(0, Vec::len)).sum();
    let groups = app.records_under(Tree::Errors, b"g/", 2).await.len();
    assert_eq!((records, groups), (3, 2), "three records and two groups are written within the flush window");
}

/// The record exactly as the loader sends it: `javascript-error`, null ids, zero line and
/// column, and a top-level `count` that the group adds up.
#[actix_rt::test]
async fn the_loaders_error_record_is_accepted_and_its_count_is_grouped() {
    let app = demo().await;
    let crumb = app.crumb().await;
    let record = serde_json::json!({ "event": "javascript-error", "timestamp": 1_700_000_000_000u64, "count": 3,
        "data": { "websiteId": null, "templateId": null, "url": "http://127.0.0.1/menu", "userAgent": "Chromium",
        "app": "loader", "message": "porch light flickered", "stack": "Error: porch light flickered\n    at <anonymous>:1:1",
        "file": "", "line": 0, "column": 0 } });
    let res = send_errors(&app, &crumb, serde_json::json!([record])).await;
    assert_eq!(res.status(), 202);
    let owner = app.sign_in(true, &[]).await;
    let list: serde_json::Value =
        app.get("/api/events/errors", &[("cookie", &owner)]).await.json().await.expect("JSON");
    let group = &list["groups"][0];
    assert_eq!(group["message"], "porch light flickered");
    assert_eq!(group["count"], 3, "one record seen three times counts three");
    let records = list["records"].as_array().expect("the latest records");
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["message"], "porch light flickered");
    assert_eq!(records[0]["url"], "http://127.0.0.1/menu");
    assert_eq!(records[0]["count"], 3);
    assert_eq!(records[0]["fingerprint"], group["fingerprint"]);
}

#[actix_rt::test]
async fn malformed_and_oversized_error_bodies_are_refused() {
    let app = demo().await;
    let crumb = app.crumb().await;
    assert_eq!(send_errors(&app, &crumb, serde_json::json!({ "not": "an array" })).await.status(), 400);
    assert_eq!(send_errors(&app, &crumb, serde_json::json!([{ "data": {} }])).await.status(), 400);
    let huge = serde_json::json!([{ "data": { "message": "x".repeat(200_000) } }]);
    assert_eq!(send_errors(&app, &crumb, huge).await.status(), 413);
}

#[actix_rt::test]
async fn record_event_needs_a_crumb_and_is_stored() {
    let app = demo().await;
    let data = serde_json::json!({ "pagePath": "/about", "websiteId": "w" }).to_string();
    assert_eq!(
        app.post_form("/api/events/RecordEvent", &[("event", "click"), ("data", &data)], &[]).await.status(),
        403
    );
    let crumb = app.crumb().await;
    let cookie = format!("crumb={crumb}");
    let res = app
        .post_form(
            "/api/events/RecordEvent",
            &[("crumb", &crumb), ("event", "click"), ("data", &data)],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(res.status(), 204);
    let events = app.records(Tree::Events, 1).await;
    assert_eq!(events[0]["event"], "click");
    let bad = app
        .post_form(
            "/api/events/RecordEvent",
            &[("crumb", &crumb), ("event", "click"), ("data", "[1]")],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(bad.status(), 400);
}

#[actix_rt::test]
async fn v1_events_answer_202_and_drop_the_analytics_id_without_consent() {
    let app = demo().await;
    let body = serde_json::json!({ "analyticsId": "a-1", "commonData": "{\"pagePath\":\"/about\"}",
        "customData": "{\"k\":1}", "customSchemaName": "Click" })
    .to_string();
    assert_eq!(app.post_body("/api/v1/events", "text/plain", body, &[]).await.status(), 202);
    let events = app.records(Tree::Events, 1).await;
    assert_eq!(events[0]["customData"]["k"], 1);
    assert_eq!(events[0]["analyticsId"], serde_json::Value::Null);
    assert_eq!(app.post_body("/api/v1/events", "application/json", "[".into(), &[]).await.status(), 400);
    let bad = serde_json::json!({ "commonData": "not json" }).to_string();
    assert_eq!(app.post_body("/api/v1/events", "application/json", bad, &[]).await.status(), 400);
}

/// The loader puts the session id in `commonData`; without consent under the restrictive
/// policy neither it nor any other analytics identifier is stored, with consent they are.
#[actix_rt::test]
async fn without_consent_v1_events_store_no_session_or_visitor_identifier() {
    let app = demo().await;
    let common = serde_json::json!({ "websiteId": "w", "sessionId": "s-1", "pagePath": "/about",
        "isFirstSession": true, "clientTimestamp": 1 });
    let custom = serde_json::json!({ "visitorId": "v-1", "SS_ANALYTICS_ID": "a-1", "k": 1 });
    let body = serde_json::json!({ "analyticsId": "a-1", "commonData": common.to_string(),
        "customData": custom.to_string(), "customSchemaName": "Click" })
    .to_string();
    assert_eq!(app.post_body("/api/v1/events", "application/json", body.clone(), &[]).await.status(), 202);
    let stored = app.records(Tree::Events, 1).await.remove(0);
    assert_eq!(stored["analyticsId"], serde_json::Value::Null);
    assert_eq!(
        stored["commonData"],
        serde_json::json!({ "websiteId": "w", "pagePath": "/about", "isFirstSession": true, "clientTimestamp": 1 })
    );
    assert_eq!(stored["customData"], serde_json::json!({ "k": 1 }));
    let consent = [("cookie", "ss_cookieAllowed=true")];
    assert_eq!(app.post_body("/api/v1/events", "application/json", body, &consent).await.status(), 202);
    let events = app.records(Tree::Events, 2).await;
    let kept = events.iter().find(|e| e["analyticsId"] == "a-1").expect("the event sent with consent");
    assert_eq!(kept["commonData"]["sessionId"], "s-1");
    assert_eq!(kept["customData"]["visitorId"], "v-1");
}

#[actix_rt::test]
async fn traces_are_accepted_and_malformed_ones_refused() {
    let app = demo().await;
    let entries = serde_json::json!([{ "pageUrl": "/about", "type": "nav", "data": { "ms": 3 } }]).to_string();
    assert_eq!(app.post_form("/api/events/Trace", &[("entries", &entries)], &[]).await.status(), 202);
    let logged = serde_json::json!([{ "pageUrl": "http://127.0.0.1/menu", "type": "nav", "data": null }]).to_string();
    assert_eq!(
        app.post_form("/api/events/Trace", &[("data", &logged)], &[]).await.status(),
        202,
        "the loader's `data` field"
    );
    assert_eq!(app.post_form("/api/events/Trace", &[("entries", "{}")], &[]).await.status(), 400);
    assert_eq!(app.post_form("/api/events/Trace", &[("other", "[]")], &[]).await.status(), 400);
    let huge = "x".repeat(20_000);
    assert_eq!(app.post_form("/api/events/Trace", &[("entries", &huge)], &[]).await.status(), 413);
}

#[actix_rt::test]
async fn a_full_trace_buffer_is_flushed_at_once() {
    let app = spawn(None, TelemetryLimits { trace_buffer: 2, ..TelemetryLimits::default() }).await;
    let entries = serde_json::json!([{ "pageUrl": "/a", "type": "x" }, { "pageUrl": "/b", "type": "y" }]).to_string();
    assert_eq!(app.post_form("/api/events/Trace", &[("entries", &entries)], &[]).await.status(), 202);
    let batches = app.records(Tree::Traces, 1).await;
    assert_eq!(batches[0].as_array().map(Vec::len), Some(2));
}

#[actix_rt::test]
async fn performance_settings_give_a_page_load_id_and_records_are_accepted_as_a_beacon() {
    let app = demo().await;
    let settings: serde_json::Value = app.get("/api/1/performance/settings", &[]).await.json().await.expect("JSON");
    let id = settings["pageLoadId"].as_str().expect("a pageLoadId").to_string();
    let records = serde_json::json!([{ "pageLoadId": id, "name": "LCP", "value": 1234.5, "pagePath": "/about" },
        { "pageLoadId": id, "name": "CLS", "value": 0.02, "pagePath": "/about" }])
    .to_string();
    assert_eq!(
        app.post_body("/api/1/performance/records", "text/plain;charset=UTF-8", records, &[]).await.status(),
        202
    );
    assert_eq!(app.records(Tree::Perf, 1).await.len(), 1);
    // As the loader sends them: the `web-vitals` fields, and extra ones the server ignores.
    let vitals = serde_json::json!([{ "pageLoadId": id, "name": "INP", "value": 88, "rating": "good", "delta": 88,
        "id": "v4-1700000000000-123", "navigationType": "back-forward-cache", "pagePath": "/about", "websiteId": null },
        { "pageLoadId": id, "name": "TTFB", "value": 12.5, "rating": "good", "delta": 12.5, "id": "v4-2",
        "navigationType": "navigate", "pagePath": "/about", "websiteId": "51ee8ec89a317a31733c9281" }])
    .to_string();
    assert_eq!(
        app.post_body("/api/1/performance/records", "text/plain;charset=UTF-8", vitals, &[]).await.status(),
        202
    );
    let stored = app.records(Tree::Perf, 2).await;
    let inp =
        stored.iter().flat_map(|batch| batch.as_array().cloned().unwrap_or_default()).find(|r| r["name"] == "INP");
    assert_eq!(inp.expect("the INP record is stored")["navigationType"], "back-forward-cache");
    let bad = serde_json::json!([{ "pageLoadId": id, "name": "LCP", "value": "slow" }]).to_string();
    assert_eq!(app.post_body("/api/1/performance/records", "application/json", bad, &[]).await.status(), 400);
    let huge = format!("[{}]", "1,".repeat(40_000));
    assert_eq!(app.post_body("/api/1/performance/records", "text/plain", huge, &[]).await.status(), 413);
}

#[actix_rt::test]
async fn too_many_requests_from_one_ip_get_429_with_retry_after() {
    let app = spawn(None, TelemetryLimits { rate_per_second: 1, rate_burst: 2, ..TelemetryLimits::default() }).await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let res = app.get("/api/1/performance/settings", &[]).await;
        statuses.push(res.status().as_u16());
        if res.status() == 429 {
            let wait: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
            assert!(wait >= 1);
        }
    }
    assert_eq!(statuses, vec![200, 200, 429]);
}

/// The actors run on this test's thread: while it is blocked, a mailbox of one fills
/// after one message and further calls get 503 at once (trace entries go through the
/// trace flusher's mailbox), counted on `/metrics` by the queue that was full.
#[actix_rt::test]
async fn a_saturated_actor_answers_503_with_retry_after() {
    let app = spawn(None, TelemetryLimits { mailbox_capacity: 1, ..TelemetryLimits::default() }).await;
    // One page first, so the server has answered once before this thread stops serving.
    app.crumb().await;
    let (address, client) = (app.address.clone(), app.client.clone());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async move {
            let mut tasks = Vec::new();
            for i in 0..8 {
                let (client, address, tx) = (client.clone(), address.clone(), tx.clone());
                tasks.push(tokio::spawn(async move {
                    let entries = serde_json::json!([{ "pageUrl": format!("/p{i}"), "type": "nav" }]).to_string();
                    let res =
                        client.post(format!("{address}/api/events/Trace")).form(&[("entries", entries)]).send().await;
                    if let Ok(res) = res {
                        let retry = res.headers().get("retry-after").map(|v| v.to_str().unwrap_or("").to_string());
                        let _ = tx.send((res.status().as_u16(), retry));
                    }
                }));
            }
            for task in tasks {
                let _ = task.await;
            }
        });
    });
    // Blocks this thread (and so the actors) until a refusal arrives.
    let mut seen = Vec::new();
    let refusal = loop {
        match rx.recv_timeout(std::time::Duration::from_secs(10)) {
            Ok((503, retry)) => break retry,
            Ok(other) => seen.push(other),
            Err(e) => panic!("no 503 arrived ({e}); saw {seen:?}"),
        }
    };
    assert_eq!(refusal.as_deref(), Some("1"));
    // The operator sees which queue was full, beside the refusal's `busy` reason.
    let metrics = app.get_ops("/metrics").await.text().await.expect("the metrics text");
    let busy = [("endpoint", "trace"), ("queue", "traces")];
    let counted = veranda_tests::metrics::sample(&metrics, "veranda_ingest_busy_total", &busy).unwrap_or(0.0);
    assert!(counted >= 1.0, "the trace flusher's full mailbox is counted: {counted}");
}
