//! What a flood leaves on disk: telemetry stays under `[telemetry] max_stored_mb`, the
//! oldest records dropped first and counted; expired form keys are all swept, however
//! many were issued.

use std::time::Duration;

use futures_util::future::join_all;
use serde_json::{json, Value};
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_actors::telemetry::capacity;
use veranda_tests::metrics::{sample, scrape, scraped};
use veranda_tests::process::{crumb_of, get_in_session, store_owner_session, ServerProcess};
use veranda_tests::telemetry::{error_record, send_error_records};
use veranda_tests::{crumb, demo_site_dir, eventually, spawn_app_configured, TestApp};

/// The limit the test sets: one mebibyte.
const LIMIT_BYTES: f64 = 1_048_576.0;
/// Error-report sends, ten records of about 5 KB each: about three times the limit.
const SENDS: usize = 60;
/// Records dropped for the size limit, by tree.
const DROPPED: &str = "veranda_telemetry_dropped_records_total";
/// The stored total.
const STORED: &str = "veranda_telemetry_stored_bytes";

/// The stack of record `r` of send `n`: unique, and about 5 KB.
fn stack(n: usize, r: usize) -> String {
    format!("disk-send-{n:03}-record-{r}\n{}", "at flood (https://example.com/a.js:1:1)\n".repeat(120))
}

/// Sends the ten records of send `n` as client address `10.9.0.<n>` (through the trusted
/// loopback proxy); the status.
async fn send_errors(server: &ServerProcess, crumb: &str, n: usize) -> u16 {
    let records: Vec<Value> = (0..10)
        .map(|r| {
            let mut record = error_record("disk flood", &format!("disk-load-{n}"));
            record["data"]["stack"] = json!(stack(n, r));
            record
        })
        .collect();
    send_error_records(&server.address, crumb, Some(&format!("10.9.0.{n}")), &json!(records)).await
}

#[actix_rt::test]
async fn past_the_size_limit_the_oldest_telemetry_is_dropped_and_the_newest_kept() {
    let data = tempfile::tempdir().expect("temp dir");
    store_owner_session(data.path(), "disk-owner").await;
    let env =
        [("VERANDA_TELEMETRY", "{max_stored_mb = 1}"), ("VERANDA_SECURITY", "{trusted_proxies = [\"127.0.0.1\"]}")];
    let server = ServerProcess::start_with_env(&demo_site_dir(), data.path(), &env).await;
    let client = reqwest::Client::new();
    let ops = &server.ops_address;
    for tree in ["errors", "census", "traces", "events", "perf", "visitor_sessions"] {
        let dropped = scraped(ops, DROPPED, &[("tree", tree)]).await;
        assert_eq!(dropped, Some(0.0), "{tree}: exported at zero from start-up");
    }
    assert!(scraped(ops, STORED, &[]).await.is_some(), "the stored total is a gauge");

    let crumb = crumb_of(&server.address).await;
    for n in 0..SENDS {
        assert_eq!(send_errors(&server, &crumb, n).await, 202, "send {n} is accepted, not refused");
    }

    eventually(
        Duration::from_secs(20),
        "the oldest records to be dropped and the total to be under the limit",
        || async move {
            let text = scrape(ops).await;
            let dropped = sample(&text, DROPPED, &[("tree", "errors")]).unwrap_or(0.0);
            let stored = sample(&text, STORED, &[]).unwrap_or(f64::MAX);
            dropped > 0.0 && stored > 0.0 && stored <= LIMIT_BYTES
        },
    )
    .await;
    let listed = get_in_session(&client, &server.address, "/api/events/errors", "disk-owner").await;
    assert_eq!(listed.status(), 200);
    let listed: Value = listed.json().await.expect("the errors list");
    let newest = format!("disk-send-{:03}-", SENDS - 1);
    let records = listed["records"].as_array().expect("records");
    assert!(records.iter().any(|r| r["stack"].as_str().is_some_and(|s| s.starts_with(&newest))), "{newest} listed");
    server.stop();

    let store = SledStore::open(data.path()).expect("the store opens");
    assert!(capacity::stored(&store) as f64 <= LIMIT_BYTES, "the stored total is under the limit after a restart");
    let kept: Vec<String> = store
        .scan_prefix(Tree::Errors, b"r/", 100_000)
        .expect("scans")
        .into_iter()
        .map(|(_, v)| String::from_utf8_lossy(&v).into_owned())
        .collect();
    let has = |n: usize| kept.iter().any(|v| v.contains(&format!("disk-send-{n:03}-record-")));
    assert!(!has(0) && !has(1), "the oldest sends are gone");
    assert!(has(SENDS - 1) && has(SENDS - 2), "the newest sends are kept");
    let first_kept = (0..SENDS).find(|n| has(*n)).expect("some kept");
    assert!((first_kept..SENDS).all(has), "everything newer than the oldest kept send is kept");
}

/// Asks for a form key with `crumb`; the status.
async fn issue_key(app: &TestApp, crumb: &str) -> u16 {
    let req = TestApp::with_crumb(app.client.post(format!("{}/api/form/FormSubmissionKey", app.address)), crumb);
    req.json(&Value::Null).send().await.expect("answered").status().as_u16()
}

/// Form keys in the store.
fn keys_stored(app: &TestApp) -> usize {
    app.store.scan_prefix(Tree::Submissions, b"key:", usize::MAX).expect("scans").len()
}

#[actix_rt::test]
async fn more_than_a_thousand_expired_form_keys_are_all_swept() {
    let app = spawn_app_configured(&demo_site_dir(), |s| {
        s.forms.keys_per_minute = 100_000;
        s.forms.key_lifetime_secs = 2;
        s.forms.key_sweep_secs = 1;
    })
    .await;
    let swept = || scraped(&app.ops_address, "veranda_form_keys_swept_total", &[("kind", "key")]);
    let before = swept().await.expect("exported from start-up");
    assert!(scraped(&app.ops_address, "veranda_form_keys_live", &[]).await.is_some(), "a gauge of live keys");
    let crumb = crumb(&app).await;

    let mut issued = 0;
    for _ in 0..30 {
        let statuses = join_all((0..40).map(|_| issue_key(&app, &crumb))).await;
        assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
        issued += statuses.len();
    }
    assert_eq!(issued, 1200);

    eventually(Duration::from_secs(20), "every expired form key to be swept", || async { keys_stored(&app) == 0 })
        .await;
    // The count moves once a sweep ends.
    eventually(Duration::from_secs(5), "the swept keys to be counted", || async {
        swept().await.is_some_and(|after| after - before >= 1200.0)
    })
    .await;
}
