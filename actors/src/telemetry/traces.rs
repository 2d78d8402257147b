//! Trace logs (`/api/events/Trace`): entries `{pageUrl, type, data}` parsed at the edge,
//! and the [`TraceFlusher`] that buffers them and writes one batch every
//! [`TRACE_FLUSH_INTERVAL`], whenever the buffer is full, and when it stops.
//!
//! ## Durability
//!
//! Traces are in the telemetry class (DESIGN.md): what was acknowledged more than the
//! flush window ([`TELEMETRY_LOSS_WINDOW`](super::records::TELEMETRY_LOSS_WINDOW)) before
//! a crash is kept, although a batch is written only every 30 s. So each accepted
//! request's entries are first journaled: one record in [`Tree::TraceJournal`], queued on
//! the [`TelemetryWriter`] (group-committed like every telemetry record) before the
//! request is answered 202; a full writer queue answers 503 instead, and nothing is
//! buffered. A batch goes to [`Tree::Traces`] through the same writer, in one job that
//! then removes the journal records it holds (only once the batch is written, so a
//! failed write keeps them). On start the flusher reads the journal left over by a crash
//! into its buffer, and those entries go with the next batch. Between a batch's write
//! and its journal's removal a crash may keep both, so after a crash a few entries can
//! be stored twice; none is lost.

use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message, ResponseFuture};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::store::{Store, Tree};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics::{self, Queue};
use crate::telemetry::records::{now_ms, record_key, truncate_chars};
use crate::telemetry::writer::{TelemetryWriter, Write, WriterBusy};

/// How often buffered entries are written (spec 000 §9: log flush every 30 s).
pub const TRACE_FLUSH_INTERVAL: Duration = Duration::from_secs(30);
/// Most entries one request may carry.
pub const MAX_TRACE_ENTRIES: usize = 200;
/// Largest `data` of one entry, serialised.
pub const MAX_TRACE_DATA_BYTES: usize = 8 * 1024;
/// Most journal records read back on start (far more than 30 s of traces).
const MAX_REPLAYED: usize = 1_000_000;

/// One trace-log entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceEntry {
    /// The page that logged it.
    pub page_url: String,
    /// The kind of entry.
    #[serde(rename = "type")]
    pub kind: String,
    /// Whatever the page logged.
    #[serde(default)]
    pub data: serde_json::Value,
}

/// Why a trace body was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// Not a JSON array of `{pageUrl, type, data}`.
    #[error("expected a JSON array of {{pageUrl, type, data}}: {0}")]
    Malformed(String),
    /// More entries than one request may carry.
    #[error("at most {MAX_TRACE_ENTRIES} trace entries per request")]
    TooMany,
    /// An entry's data is too large.
    #[error("entry {0}: data is larger than {MAX_TRACE_DATA_BYTES} bytes")]
    DataTooLarge(usize),
}

/// Parses a JSON array of trace entries.
pub fn parse_entries(json: &str) -> Result<Vec<TraceEntry>, TraceError> {
    let entries: Vec<TraceEntry> = serde_json::from_str(json).map_err(|e| TraceError::Malformed(e.to_string()))?;
    if entries.len() > MAX_TRACE_ENTRIES {
        return Err(TraceError::TooMany);
    }
    entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            if e.data.to_string().len() > MAX_TRACE_DATA_BYTES {
                return Err(TraceError::DataTooLarge(i));
            }
            Ok(TraceEntry {
                page_url: truncate_chars(&e.page_url, 2048),
                kind: truncate_chars(&e.kind, 100),
                data: e.data,
            })
        })
        .collect()
}

/// Owns the trace entries not yet written in a batch.
pub struct TraceFlusher {
    /// Where journal records and batches go.
    writer: TelemetryWriter,
    /// Entries waiting.
    buffer: Vec<TraceEntry>,
    /// The journal records holding the waiting entries, removed once their batch is written.
    journaled: Vec<Vec<u8>>,
    /// Entries that force a flush.
    capacity: usize,
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
}

/// One batch to write: its record in [`Tree::Traces`] and the journal records it replaces.
#[derive(Debug)]
pub struct TraceBatch {
    /// The batch's record key.
    pub key: Vec<u8>,
    /// The entries, as a JSON array (empty when only unreadable journal records go).
    pub value: Vec<u8>,
    /// Keys of the journal records whose entries the batch holds.
    pub journaled: Vec<Vec<u8>>,
}

impl TraceBatch {
    /// Writes the batch, then removes its journal records; resolves once both are queued
    /// on the writer (waiting for room). False when the writer is gone.
    pub async fn write(self, writer: TelemetryWriter) -> bool {
        let batch = (!self.value.is_empty()).then_some(Write { tree: Tree::Traces, key: self.key, value: self.value });
        writer.write_then_remove(batch.into_iter().collect(), Tree::TraceJournal, self.journaled).await
    }
}

impl TraceFlusher {
    /// A flusher holding whatever the journal in `store` still holds (entries acknowledged
    /// before a crash and not yet in a batch).
    pub fn new(store: &dyn Store, writer: TelemetryWriter, limits: &TelemetryLimits) -> TraceFlusher {
        let mut flusher = TraceFlusher {
            writer,
            buffer: Vec::new(),
            journaled: Vec::new(),
            capacity: limits.trace_buffer.max(1),
            mailbox_capacity: limits.mailbox_capacity,
        };
        let leftovers = store.scan_prefix(Tree::TraceJournal, b"", MAX_REPLAYED).unwrap_or_else(|error| {
            tracing::warn!(%error, "the trace journal cannot be read; its entries stay for the next start");
            Vec::new()
        });
        for (key, value) in leftovers {
            match serde_json::from_slice::<Vec<TraceEntry>>(&value) {
                Ok(entries) => flusher.buffer.extend(entries),
                Err(error) => tracing::warn!(%error, "an unreadable trace journal record is removed"),
            }
            flusher.journaled.push(key);
        }
        if !flusher.journaled.is_empty() {
            tracing::info!(entries = flusher.buffer.len(), "trace entries replayed from the journal");
        }
        metrics::queue_depth(Queue::Traces, flusher.buffer.len());
        flusher
    }

    /// Journals `entries` (one record queued on the writer); refused when its queue is full.
    pub fn journal(&self, entries: &[TraceEntry], now: u64) -> Result<Vec<u8>, WriterBusy> {
        let key = record_key(now).to_vec();
        // A `Vec` of plain values always serialises.
        let value = serde_json::to_vec(entries).unwrap_or_default();
        self.writer.write(Tree::TraceJournal, key.clone(), value)?;
        Ok(key)
    }

    /// Buffers `entries`, journaled under `journal_key`; returns a batch to write when the
    /// buffer is full.
    pub fn add(&mut self, entries: Vec<TraceEntry>, journal_key: Vec<u8>) -> Option<TraceBatch> {
        self.buffer.extend(entries);
        self.journaled.push(journal_key);
        metrics::queue_depth(Queue::Traces, self.buffer.len());
        (self.buffer.len() >= self.capacity).then(|| self.take_batch(now_ms())).flatten()
    }

    /// Takes every buffered entry as one batch, if any (a batch of no entry still removes
    /// the journal records it holds).
    pub fn take_batch(&mut self, now: u64) -> Option<TraceBatch> {
        if self.journaled.is_empty() {
            return None;
        }
        let entries = std::mem::take(&mut self.buffer);
        let journaled = std::mem::take(&mut self.journaled);
        metrics::queue_depth(Queue::Traces, 0);
        // A `Vec` of plain values always serialises.
        let value = if entries.is_empty() { Vec::new() } else { serde_json::to_vec(&entries).unwrap_or_default() };
        Some(TraceBatch { key: record_key(now).to_vec(), value, journaled })
    }

    /// How many entries wait.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Writes what is buffered, in the background.
    fn flush_in_background(&mut self) {
        if let Some(batch) = self.take_batch(now_ms()) {
            actix::spawn(batch.write(self.writer.clone()));
        }
    }
}

impl Actor for TraceFlusher {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.mailbox_capacity);
        if self.buffered() >= self.capacity {
            self.flush_in_background();
        }
        ctx.run_interval(TRACE_FLUSH_INTERVAL, |flusher, _| flusher.flush_in_background());
    }

    fn stopped(&mut self, _: &mut Self::Context) {
        self.flush_in_background();
    }
}

/// Journals trace entries and buffers them, writing a batch when the buffer fills;
/// answers on `accepted` whether they were taken (false: the writer's queue is full).
#[derive(Message)]
#[rtype(result = "()")]
pub struct AddTraces {
    /// The entries of one request.
    pub entries: Vec<TraceEntry>,
    /// Told whether the entries were journaled and buffered.
    pub accepted: oneshot::Sender<bool>,
}

impl Handler<AddTraces> for TraceFlusher {
    type Result = ();

    fn handle(&mut self, msg: AddTraces, _: &mut Self::Context) {
        let Ok(key) = self.journal(&msg.entries, now_ms()) else {
            let _ = msg.accepted.send(false);
            return;
        };
        let _ = msg.accepted.send(true);
        if let Some(batch) = self.add(msg.entries, key) {
            actix::spawn(batch.write(self.writer.clone()));
        }
    }
}

/// Queues every buffered entry for writing now (shutdown); returns whether there was a
/// batch. The caller waits for the writer to drain.
#[derive(Message)]
#[rtype(result = "bool")]
pub struct FlushTraces;

impl Handler<FlushTraces> for TraceFlusher {
    type Result = ResponseFuture<bool>;

    fn handle(&mut self, _: FlushTraces, _: &mut Self::Context) -> Self::Result {
        let batch = self.take_batch(now_ms());
        let writer = self.writer.clone();
        Box::pin(async move {
            match batch {
                Some(batch) => batch.write(writer).await,
                None => false,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::store::SledStore;

    fn entry(n: u32) -> TraceEntry {
        TraceEntry { page_url: "/p".into(), kind: "log".into(), data: serde_json::json!({ "n": n }) }
    }

    fn store() -> (tempfile::TempDir, Arc<dyn Store>) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        (dir, store)
    }

    fn rows(store: &Arc<dyn Store>, tree: Tree) -> Vec<(Vec<u8>, Vec<u8>)> {
        store.scan_prefix(tree, b"", 100).expect("scans")
    }

    #[test]
    fn entries_parse_and_bad_bodies_are_refused() {
        let ok = parse_entries(r#"[{"pageUrl":"/a","type":"nav","data":{"x":1}}]"#).expect("valid");
        assert_eq!(ok[0].kind, "nav");
        assert!(matches!(parse_entries("{}"), Err(TraceError::Malformed(_))));
        assert!(matches!(parse_entries(r#"[{"type":"x"}]"#), Err(TraceError::Malformed(_))));
        let big = format!(r#"[{{"pageUrl":"/a","type":"x","data":"{}"}}]"#, "y".repeat(MAX_TRACE_DATA_BYTES));
        assert_eq!(parse_entries(&big), Err(TraceError::DataTooLarge(0)));
    }

    #[tokio::test]
    async fn a_full_buffer_yields_one_batch_holding_its_journal_records() {
        let (_dir, store) = store();
        let limits = TelemetryLimits { trace_buffer: 3, ..TelemetryLimits::default() };
        let mut flusher = TraceFlusher::new(store.as_ref(), TelemetryWriter::start(store.clone()), &limits);
        assert!(flusher.add(vec![entry(1), entry(2)], b"j1".to_vec()).is_none());
        let batch = flusher.add(vec![entry(3)], b"j2".to_vec()).expect("the buffer is full");
        let written: Vec<TraceEntry> = serde_json::from_slice(&batch.value).expect("a JSON array");
        assert_eq!(written.len(), 3);
        assert_eq!(batch.journaled, vec![b"j1".to_vec(), b"j2".to_vec()]);
        assert_eq!(flusher.buffered(), 0);
        assert!(flusher.take_batch(1).is_none());
    }

    #[actix::test]
    async fn accepted_entries_are_journaled_at_once_and_leave_the_journal_with_their_batch() {
        let (_dir, store) = store();
        let writer = TelemetryWriter::start(store.clone());
        let addr = TraceFlusher::new(store.as_ref(), writer.clone(), &TelemetryLimits::default()).start();
        let (accepted, answer) = oneshot::channel();
        addr.send(AddTraces { entries: vec![entry(1)], accepted }).await.expect("delivered");
        assert!(answer.await.expect("answered"), "accepted");
        writer.drained().await;
        assert_eq!(rows(&store, Tree::TraceJournal).len(), 1, "journaled before the batch is due");
        assert!(rows(&store, Tree::Traces).is_empty());

        assert!(addr.send(FlushTraces).await.expect("delivered"));
        writer.drained().await;
        assert_eq!(rows(&store, Tree::Traces).len(), 1);
        assert!(rows(&store, Tree::TraceJournal).is_empty(), "the batch replaced the journal record");
        assert!(!addr.send(FlushTraces).await.expect("delivered"), "nothing left");
    }

    #[actix::test]
    async fn journal_records_left_by_a_crash_go_with_the_next_batch() {
        let (_dir, store) = store();
        let leftover = serde_json::to_vec(&vec![entry(7), entry(8)]).expect("serialises");
        store.put(Tree::TraceJournal, b"left", &leftover).await.expect("put");
        let writer = TelemetryWriter::start(store.clone());
        let flusher = TraceFlusher::new(store.as_ref(), writer.clone(), &TelemetryLimits::default());
        assert_eq!(flusher.buffered(), 2, "replayed");
        let addr = flusher.start();
        assert!(addr.send(FlushTraces).await.expect("delivered"));
        writer.drained().await;
        let batches = rows(&store, Tree::Traces);
        let written: Vec<TraceEntry> = serde_json::from_slice(&batches[0].1).expect("a JSON array");
        assert_eq!(written, vec![entry(7), entry(8)]);
        assert!(rows(&store, Tree::TraceJournal).is_empty());
    }
}
