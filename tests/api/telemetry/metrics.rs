//! The ingest metrics on the ops listener's `/metrics`, against the real `veranda`
//! binary (a process of its own, so no other test's calls are counted): accepted,
//! skipped (with the recording rule's reason) and rejected calls per endpoint, and the
//! live visitor sessions and error groups gauges.

use std::time::Duration;

use veranda_tests::eventually;
use veranda_tests::process::ServerProcess;
use veranda_tests::telemetry::{error_record, send_error_records};

/// The value of the sample of `metric` carrying every label of `labels` (0 when absent).
fn sample(text: &str, metric: &str, labels: &[(&str, &str)]) -> f64 {
    veranda_tests::metrics::sample(text, metric, labels).unwrap_or(0.0)
}

async fn scrape(server: &ServerProcess) -> String {
    veranda_tests::metrics::scrape(&server.ops_address).await
}

/// The scrape once `ready` holds of it (waits up to 5 s; the gauges follow the actors'
/// intervals).
async fn scrape_until(server: &ServerProcess, ready: impl Fn(&str) -> bool) -> String {
    eventually(Duration::from_secs(5), "a /metrics scrape showing the calls", || async {
        let text = scrape(server).await;
        ready(&text).then_some(text)
    })
    .await
}

async fn hit(client: &reqwest::Client, server: &ServerProcess, data: &str) -> u16 {
    let res = client
        .post(format!("{}/api/census/RecordHit", server.address))
        .header("cookie", "ss_cookieAllowed=true")
        .form(&[("event", "pageView"), ("data", data)])
        .send()
        .await
        .expect("answered");
    res.status().as_u16()
}

#[actix_rt::test]
async fn ingest_counters_and_the_visitor_and_error_gauges_follow_the_calls() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let server = ServerProcess::start(data.path()).await;
    let client = reqwest::Client::new();
    let before = scrape(&server).await;
    let accepted = |text: &str, endpoint| sample(text, "veranda_ingest_accepted_total", &[("endpoint", endpoint)]);
    assert_eq!(accepted(&before, "record_hit"), 0.0);

    // Two new visitors, a configuration page (skipped) and a malformed body (rejected).
    assert_eq!(hit(&client, &server, r#"{"url":"/about"}"#).await, 204);
    assert_eq!(hit(&client, &server, r#"{"url":"/contact"}"#).await, 204);
    assert_eq!(hit(&client, &server, r#"{"url":"/config/pages"}"#).await, 204);
    assert_eq!(hit(&client, &server, "{nope").await, 400);
    // Two reports of one error: one group.
    let page = client.get(format!("{}/", server.address)).send().await.expect("a page");
    let crumb = veranda_tests::cookie_value(&page, "crumb").expect("pages hand out a crumb");
    for load in ["metrics-1", "metrics-2"] {
        let report = serde_json::json!([error_record("boom", load)]);
        assert_eq!(send_error_records(&server.address, &crumb, None, &report).await, 202);
    }

    let gauges_ready = |text: &str| {
        sample(text, "veranda_visitor_sessions_live", &[]) == 2.0 && sample(text, "veranda_error_groups", &[]) == 1.0
    };
    let after = scrape_until(&server, gauges_ready).await;
    assert_eq!(accepted(&after, "record_hit"), 2.0, "the two recorded page views");
    let skipped = [("endpoint", "record_hit"), ("reason", "config_area")];
    assert_eq!(sample(&after, "veranda_ingest_skipped_total", &skipped), 1.0, "the configuration page");
    let rejected = [("endpoint", "record_hit"), ("reason", "bad_request")];
    assert_eq!(sample(&after, "veranda_ingest_rejected_total", &rejected), 1.0, "the malformed body");
    assert_eq!(accepted(&after, "javascript_errors"), 2.0);
    assert_eq!(sample(&after, "veranda_ingest_dropped_total", &[]), 0.0, "nothing lost");
    assert_eq!(sample(&after, "veranda_visitor_sessions_live", &[]), 2.0, "two visitors");
    assert_eq!(sample(&after, "veranda_error_groups", &[]), 1.0, "one error group");
    server.stop();
}
