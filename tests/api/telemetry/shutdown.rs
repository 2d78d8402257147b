//! The flush on shutdown, against the real `veranda` binary: everything acknowledged
//! (page views, error reports, performance records, trace entries still in the trace
//! flusher's 30 s buffer) is in the store once a SIGTERM'd server has exited, and the
//! trace journal is left empty.

use veranda_actors::store::{SledStore, Store, Tree};
use veranda_tests::process::ServerProcess;

use super::crash::{ingest, values};

/// Calls of each kind sent before the stop.
const WRITES: usize = 20;

#[actix_rt::test]
async fn everything_acknowledged_is_stored_when_the_server_stops() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let server = ServerProcess::start(data.path()).await;
    let client = reqwest::Client::new();
    let page = client.get(format!("{}/", server.address)).send().await.expect("a page");
    let crumb = veranda_tests::cookie_value(&page, "crumb").expect("pages hand out a crumb");
    for n in 0..WRITES {
        assert!(ingest(&client, &server, &crumb, n).await, "call {n} was acknowledged");
    }
    // At once: the trace entries are still in the flusher's buffer.
    server.stop();

    let store = SledStore::open(data.path()).expect("the data dir opens after the stop");
    let census = values(&store, Tree::Census);
    let errors = values(&store, Tree::Errors);
    let perf = values(&store, Tree::Perf);
    let traces = values(&store, Tree::Traces);
    for n in 0..WRITES {
        assert!(census.iter().any(|v| v.contains(&format!("\"crash-{n}\""))), "page view {n} stored");
        assert!(errors.iter().any(|v| v.contains(&format!("\"crash {n}\""))), "error report {n} stored");
        assert!(perf.iter().any(|v| v.contains(&format!("\"crash-load-{n}\""))), "performance batch {n} stored");
        assert!(traces.iter().any(|v| v.contains(&format!("\"crash-trace-{n}\""))), "trace entry {n} stored");
    }
    assert_eq!(traces.len(), 1, "the buffered entries went as one batch");
    let journal = store.scan_prefix(Tree::TraceJournal, b"", 10).expect("scans");
    assert!(journal.is_empty(), "the journal records went with their batch");
}
