//! The telemetry durability class (DESIGN.md): against the real `veranda` binary, page
//! views, error reports, performance records and trace entries acknowledged more than the
//! flush window before a `kill -9` are all there when the server restarts on the same
//! data dir (trace entries, which are written in 30 s batches, through their journal).
//!
//! The binary is `$VERANDA_BIN` when set, else `target/<profile>/veranda`, built (or
//! brought up to date) with `cargo build -p veranda-server --bin veranda` first.

use std::path::Path;
use std::time::Duration;

use veranda_actors::store::{SledStore, Store, Tree};
use veranda_actors::telemetry::records::TELEMETRY_LOSS_WINDOW;
use veranda_tests::process::{crumb_of, ServerProcess};

/// What the test waits past the loss window before the kill: room for the last flush's
/// own duration on a loaded machine.
const FLUSH_MARGIN: Duration = Duration::from_millis(500);
/// Page views, error reports, performance batches and trace requests sent before the wait.
const WRITES: usize = 40;

/// Sends one page view, one error report, one performance batch and one trace entry
/// marked `n`; returns whether all four were acknowledged.
pub(super) async fn ingest(client: &reqwest::Client, server: &ServerProcess, crumb: &str, n: usize) -> bool {
    let data = serde_json::json!({ "url": format!("/about?n={n}"), "title": format!("crash-{n}") }).to_string();
    let hit = client
        .post(format!("{}/api/census/RecordHit", server.address))
        .header("cookie", "ss_cookieAllowed=true")
        .form(&[("event", "pageView"), ("data", &data)])
        .send()
        .await;
    let error = serde_json::json!([{ "event": "error", "timestamp": 1, "data": { "url": "https://example.com/about",
        "message": format!("crash {n}"), "file": "https://example.com/a.js", "line": n, "column": 1,
        "pageLoadId": format!("crash-load-{n}") } }]);
    let error = client
        .post(format!("{}/api/events/RecordJavascriptErrors", server.address))
        .header("cookie", format!("crumb={crumb}"))
        .header("X-CSRF-Token", crumb)
        .json(&error)
        .send()
        .await;
    let perf = serde_json::json!([{ "pageLoadId": format!("crash-load-{n}"), "name": "LCP", "value": 1000 + n }]);
    let perf = client
        .post(format!("{}/api/1/performance/records", server.address))
        .header("content-type", "text/plain")
        .body(perf.to_string())
        .send()
        .await;
    let entries = serde_json::json!([{ "pageUrl": "/about", "type": "log", "data": format!("crash-trace-{n}") }]);
    let trace = client
        .post(format!("{}/api/events/Trace", server.address))
        .form(&[("entries", entries.to_string())])
        .send()
        .await;
    let status = |r: Result<reqwest::Response, reqwest::Error>| r.map(|r| r.status().as_u16()).unwrap_or(0);
    (status(hit), status(error), status(perf), status(trace)) == (204, 202, 202, 202)
}

/// The JSON values of every record in `tree`.
pub(super) fn values(store: &SledStore, tree: Tree) -> Vec<String> {
    let rows = store.scan_prefix(tree, b"", 100_000).expect("scans");
    rows.into_iter().map(|(_, v)| String::from_utf8_lossy(&v).into_owned()).collect()
}

/// Asserts that each call `n` in `calls` (a page view, an error report, a performance
/// batch and a trace entry, as [`ingest`] sends them) is in `store`; `kept` says how, for
/// the failure message. Returns the stored trace records.
pub(super) fn assert_ingested(store: &SledStore, calls: impl IntoIterator<Item = usize>, kept: &str) -> Vec<String> {
    let census = values(store, Tree::Census);
    let errors = values(store, Tree::Errors);
    let perf = values(store, Tree::Perf);
    let traces = values(store, Tree::Traces);
    for n in calls {
        assert!(census.iter().any(|v| v.contains(&format!("\"crash-{n}\""))), "page view {n} {kept}");
        assert!(errors.iter().any(|v| v.contains(&format!("\"crash {n}\""))), "error report {n} {kept}");
        assert!(perf.iter().any(|v| v.contains(&format!("\"crash-load-{n}\""))), "performance batch {n} {kept}");
        assert!(traces.iter().any(|v| v.contains(&format!("\"crash-trace-{n}\""))), "trace entry {n} {kept}");
    }
    traces
}

/// Starts the binary on `data` and takes the crumb its home page hands out.
pub(super) async fn start_with_crumb(data: &Path) -> (ServerProcess, String) {
    let server = ServerProcess::start(data).await;
    let crumb = crumb_of(&server.address).await;
    (server, crumb)
}

#[actix_rt::test]
async fn telemetry_acknowledged_before_the_flush_window_survives_kill_9() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let (server, crumb) = start_with_crumb(data.path()).await;
    let client = reqwest::Client::new();
    let mut acknowledged = Vec::new();
    for n in 0..WRITES {
        if ingest(&client, &server, &crumb, n).await {
            acknowledged.push(n);
        }
    }
    assert_eq!(acknowledged.len(), WRITES, "every write was acknowledged");
    tokio::time::sleep(TELEMETRY_LOSS_WINDOW + FLUSH_MARGIN).await;
    // Writes in flight at the kill: acknowledged or not, they may be lost.
    for n in WRITES..WRITES + 10 {
        ingest(&client, &server, &crumb, n).await;
    }
    server.kill_9();

    let restarted = ServerProcess::start(data.path()).await;
    restarted.stop();
    let store = SledStore::open(data.path()).expect("the data dir opens after the restart");
    // The restarted server read the journal into its buffer and wrote it at its stop.
    assert_ingested(&store, acknowledged, "survived");
    let groups = store.scan_prefix(Tree::Errors, b"g/", 100_000).expect("scans");
    assert!(groups.len() >= WRITES, "each acknowledged error's group survived: {}", groups.len());
}
