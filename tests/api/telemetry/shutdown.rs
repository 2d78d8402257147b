//! The flush on shutdown, against the real `veranda` binary: everything acknowledged
//! (page views, error reports, performance records, trace entries still in the trace
//! flusher's 30 s buffer) is in the store once a SIGTERM'd server has exited, and the
//! trace journal is left empty.

use veranda_actors::store::{SledStore, Store, Tree};

use super::crash::{assert_ingested, ingest, start_with_crumb};

/// Calls of each kind sent before the stop.
const WRITES: usize = 20;

#[actix_rt::test]
async fn everything_acknowledged_is_stored_when_the_server_stops() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let (server, crumb) = start_with_crumb(data.path()).await;
    let client = reqwest::Client::new();
    for n in 0..WRITES {
        assert!(ingest(&client, &server, &crumb, n).await, "call {n} was acknowledged");
    }
    // At once: the trace entries are still in the flusher's buffer.
    server.stop();

    let store = SledStore::open(data.path()).expect("the data dir opens after the stop");
    let traces = assert_ingested(&store, 0..WRITES, "stored");
    assert_eq!(traces.len(), 1, "the buffered entries went as one batch");
    let journal = store.scan_prefix(Tree::TraceJournal, b"", 10).expect("scans");
    assert!(journal.is_empty(), "the journal records went with their batch");
}
