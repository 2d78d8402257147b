//! Retention: the periodic sweep removes telemetry older than `retention_days` and keeps
//! the recent records, including those the ingest endpoints just wrote.

use std::time::Duration;

use veranda_actors::store::Tree;
use veranda_actors::telemetry::records::{now_ms, record_key};
use veranda_actors::telemetry::TelemetryLimits;

use veranda_tests::eventually;

use super::spawn;

const DAY_MS: u64 = 86_400_000;

fn census_data() -> String {
    serde_json::json!({ "url": "https://example.com/about", "title": "t", "userAgent": "test", "websiteId": "w" })
        .to_string()
}

#[actix_rt::test]
async fn the_sweep_removes_old_telemetry_and_keeps_recent_records() {
    let limits = TelemetryLimits { retention_days: 1, retention_sweep_secs: 1, ..TelemetryLimits::default() };
    let app = spawn(None, limits).await;
    let old = record_key(now_ms() - 2 * DAY_MS).to_vec();
    let kept = record_key(now_ms() - DAY_MS / 2).to_vec();
    for tree in [Tree::Census, Tree::Events, Tree::Traces] {
        app.store.put(tree, &old, b"{}").await.expect("puts");
        app.store.put(tree, &kept, b"{}").await.expect("puts");
    }
    let old_perf = [b"load-old/".as_slice(), &old].concat();
    app.store.put(Tree::Perf, &old_perf, b"[]").await.expect("puts");
    let old_error = [b"r/".as_slice(), &old].concat();
    app.store.put(Tree::Errors, &old_error, b"{}").await.expect("puts");
    let data = census_data();
    let res = app
        .post_form(
            "/api/census/RecordHit",
            &[("event", "pageView"), ("data", &data)],
            &[("cookie", "ss_cookieAllowed=true")],
        )
        .await;
    assert_eq!(res.status(), 204);

    let what = "records older than retention_days to be removed within a sweep interval";
    eventually(Duration::from_secs(5), what, || async {
        [(Tree::Census, &old), (Tree::Events, &old), (Tree::Traces, &old), (Tree::Perf, &old_perf)]
            .into_iter()
            .chain([(Tree::Errors, &old_error)])
            .all(|(tree, key)| app.store.get(tree, key).expect("gets").is_none())
    })
    .await;
    for tree in [Tree::Census, Tree::Events, Tree::Traces] {
        assert!(app.store.get(tree, &kept).expect("gets").is_some(), "{tree:?} keeps recent records");
    }
    assert_eq!(app.records(Tree::Census, 2).await.len(), 2, "the recent and the fresh hit stay");
    let metrics = app.get_ops("/metrics").await;
    let text = metrics.text().await.expect("body");
    assert!(text.contains("# TYPE veranda_retention_removed_total counter"), "the removals are counted");
    assert!(text.contains("# TYPE veranda_retention_last_sweep_timestamp_seconds gauge"));
}
