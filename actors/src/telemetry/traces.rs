//! Trace logs (`/api/events/Trace`): entries `{pageUrl, type, data}` parsed at the edge,
//! and the [`TraceFlusher`] that buffers them and writes one batch every
//! [`TRACE_FLUSH_INTERVAL`], whenever the buffer is full, and when it stops.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::{Actor, AsyncContext, Context, Handler, Message, ResponseFuture};
use serde::{Deserialize, Serialize};

use crate::store::{Store, Tree};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics::{self, Queue};
use crate::telemetry::records::{now_ms, record_key, truncate_chars};

/// How often buffered entries are written (spec 000 §9: log flush every 30 s).
pub const TRACE_FLUSH_INTERVAL: Duration = Duration::from_secs(30);
/// Most entries one request may carry.
pub const MAX_TRACE_ENTRIES: usize = 200;
/// Largest `data` of one entry, serialised.
pub const MAX_TRACE_DATA_BYTES: usize = 8 * 1024;

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

/// Owns the trace entries not yet written.
pub struct TraceFlusher {
    /// Where batches go.
    store: Arc<dyn Store>,
    /// Entries waiting.
    buffer: Vec<TraceEntry>,
    /// Entries that force a flush.
    capacity: usize,
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
}

impl TraceFlusher {
    /// An empty flusher.
    pub fn new(store: Arc<dyn Store>, limits: &TelemetryLimits) -> TraceFlusher {
        TraceFlusher {
            store,
            buffer: Vec::new(),
            capacity: limits.trace_buffer.max(1),
            mailbox_capacity: limits.mailbox_capacity,
        }
    }

    /// Buffers `entries`; returns a batch to write when the buffer is full.
    pub fn add(&mut self, entries: Vec<TraceEntry>) -> Option<(Vec<u8>, Vec<u8>)> {
        self.buffer.extend(entries);
        metrics::queue_depth(Queue::Traces, self.buffer.len());
        (self.buffer.len() >= self.capacity).then(|| self.take_batch(now_ms())).flatten()
    }

    /// Takes every buffered entry as one record (key, JSON array), if any.
    pub fn take_batch(&mut self, now: u64) -> Option<(Vec<u8>, Vec<u8>)> {
        if self.buffer.is_empty() {
            return None;
        }
        let entries = std::mem::take(&mut self.buffer);
        metrics::queue_depth(Queue::Traces, 0);
        serde_json::to_vec(&entries).ok().map(|value| (record_key(now).to_vec(), value))
    }

    /// How many entries wait.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }
}

async fn write(store: Arc<dyn Store>, batch: Option<(Vec<u8>, Vec<u8>)>) -> bool {
    let Some((key, value)) = batch else { return false };
    let started = Instant::now();
    let result = store.put(Tree::Traces, &key, &value).await;
    metrics::flush_duration(Queue::Traces, started.elapsed());
    if let Err(error) = &result {
        tracing::warn!(%error, "trace batch write failed");
    }
    result.is_ok()
}

impl Actor for TraceFlusher {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.mailbox_capacity);
        ctx.run_interval(TRACE_FLUSH_INTERVAL, |flusher, _| {
            actix::spawn(write(flusher.store.clone(), flusher.take_batch(now_ms())));
        });
    }

    fn stopped(&mut self, _: &mut Self::Context) {
        actix::spawn(write(self.store.clone(), self.take_batch(now_ms())));
    }
}

/// Buffers trace entries, writing a batch when the buffer fills.
#[derive(Message)]
#[rtype(result = "()")]
pub struct AddTraces(pub Vec<TraceEntry>);

impl Handler<AddTraces> for TraceFlusher {
    type Result = ();

    fn handle(&mut self, msg: AddTraces, _: &mut Self::Context) {
        if let Some(batch) = self.add(msg.0) {
            actix::spawn(write(self.store.clone(), Some(batch)));
        }
    }
}

/// Writes every buffered entry now (shutdown); returns whether a batch was written.
#[derive(Message)]
#[rtype(result = "bool")]
pub struct FlushTraces;

impl Handler<FlushTraces> for TraceFlusher {
    type Result = ResponseFuture<bool>;

    fn handle(&mut self, _: FlushTraces, _: &mut Self::Context) -> Self::Result {
        Box::pin(write(self.store.clone(), self.take_batch(now_ms())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;

    fn entry(n: u32) -> TraceEntry {
        TraceEntry { page_url: "/p".into(), kind: "log".into(), data: serde_json::json!({ "n": n }) }
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

    #[test]
    fn a_full_buffer_yields_one_batch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let limits = TelemetryLimits { trace_buffer: 3, ..TelemetryLimits::default() };
        let mut flusher = TraceFlusher::new(store, &limits);
        assert!(flusher.add(vec![entry(1), entry(2)]).is_none());
        let (_, value) = flusher.add(vec![entry(3)]).expect("the buffer is full");
        let written: Vec<TraceEntry> = serde_json::from_slice(&value).expect("a JSON array");
        assert_eq!(written.len(), 3);
        assert_eq!(flusher.buffered(), 0);
        assert!(flusher.take_batch(1).is_none());
    }

    #[actix::test]
    async fn flushing_writes_what_is_buffered() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let addr = TraceFlusher::new(store.clone(), &TelemetryLimits::default()).start();
        addr.send(AddTraces(vec![entry(1)])).await.expect("delivered");
        assert!(addr.send(FlushTraces).await.expect("delivered"));
        assert_eq!(store.scan_prefix(Tree::Traces, b"", 10).expect("scans").len(), 1);
        assert!(!addr.send(FlushTraces).await.expect("delivered"), "nothing left");
    }
}
