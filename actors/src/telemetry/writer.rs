//! The [`TelemetryWriter`]: one thread that writes telemetry records to the store, so no
//! actor's arbiter and no request waits on a store write.
//!
//! A record is acknowledged once it is accepted into the writer's bounded queue; the
//! thread writes each job as it comes (a job is one record or one batch), and the store
//! flushes telemetry trees within its own interval. The queue holds at most
//! [`WRITER_QUEUE_JOBS`] jobs, so what an acknowledged record waits for is bounded; a full
//! queue refuses the job and the request gets 503.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;

use crate::store::{Store, Tree};
use crate::telemetry::metrics::{self, Queue};

/// Jobs waiting for the writer thread before new ones are refused.
pub const WRITER_QUEUE_JOBS: usize = 4096;

/// One record to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    /// Its tree.
    pub tree: Tree,
    /// Its key.
    pub key: Vec<u8>,
    /// Its value.
    pub value: Vec<u8>,
}

enum Job {
    /// Records to write, in order.
    Writes(Vec<Write>),
    /// Answered once every job queued before it is written.
    Drain(oneshot::Sender<()>),
}

/// The writer's queue is full.
#[derive(Debug, thiserror::Error)]
#[error("the telemetry writer is busy")]
pub struct WriterBusy(pub Vec<Write>);

/// A handle on the writer thread; clones share it.
#[derive(Clone)]
pub struct TelemetryWriter {
    /// The bounded queue of jobs.
    tx: SyncSender<Job>,
    /// Jobs queued and not yet written, for the queue-depth gauge.
    depth: Arc<AtomicUsize>,
}

impl TelemetryWriter {
    /// Starts the writer thread on `store`. Should the thread not start, the failure is
    /// logged and every write is refused as busy (503), which keeps the server serving.
    pub fn start(store: Arc<dyn Store>) -> TelemetryWriter {
        let (tx, rx) = sync_channel(WRITER_QUEUE_JOBS);
        let depth = Arc::new(AtomicUsize::new(0));
        let counted = depth.clone();
        let spawned =
            std::thread::Builder::new().name("veranda-telemetry-writer".into()).spawn(move || run(store, rx, counted));
        if let Err(error) = spawned {
            tracing::error!(%error, "cannot start the telemetry writer; telemetry writes will be refused");
        }
        TelemetryWriter { tx, depth }
    }

    /// Queues one record; refused when the queue is full.
    pub fn write(&self, tree: Tree, key: Vec<u8>, value: Vec<u8>) -> Result<(), WriterBusy> {
        self.write_all(vec![Write { tree, key, value }])
    }

    /// Queues records written in order; refused (and handed back) when the queue is full.
    pub fn write_all(&self, writes: Vec<Write>) -> Result<(), WriterBusy> {
        if writes.is_empty() {
            return Ok(());
        }
        self.depth.fetch_add(1, Ordering::Relaxed);
        match self.tx.try_send(Job::Writes(writes)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(job) | TrySendError::Disconnected(job)) => {
                self.depth.fetch_sub(1, Ordering::Relaxed);
                match job {
                    Job::Writes(writes) => Err(WriterBusy(writes)),
                    Job::Drain(_) => Err(WriterBusy(Vec::new())),
                }
            }
        }
    }

    /// Queues `writes`, waiting for room rather than refusing them (shutdown and flushes).
    pub async fn write_all_waiting(&self, mut writes: Vec<Write>) {
        loop {
            match self.write_all(writes) {
                Ok(()) => return,
                Err(WriterBusy(back)) if !back.is_empty() => writes = back,
                Err(_) => return,
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Resolves once everything queued before the call is written to the store.
    pub async fn drained(&self) {
        let (done, written) = oneshot::channel();
        let tx = self.tx.clone();
        // `send` blocks while the queue is full: off the async thread.
        let queued = tokio::task::spawn_blocking(move || tx.send(Job::Drain(done)).is_ok()).await;
        if queued.unwrap_or(false) {
            let _ = written.await;
        }
    }
}

/// The writer thread: writes every job in order until every handle is dropped.
fn run(store: Arc<dyn Store>, rx: Receiver<Job>, depth: Arc<AtomicUsize>) {
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "the telemetry writer cannot start its runtime");
            return;
        }
    };
    while let Ok(job) = rx.recv() {
        match job {
            Job::Writes(writes) => {
                let left = depth.fetch_sub(1, Ordering::Relaxed).saturating_sub(1);
                metrics::queue_depth(Queue::Writer, left);
                let started = std::time::Instant::now();
                runtime.block_on(async {
                    for w in &writes {
                        if let Err(error) = store.put(w.tree, &w.key, &w.value).await {
                            tracing::warn!(%error, tree = w.tree.name(), "telemetry write failed");
                        }
                    }
                });
                metrics::flush_duration(Queue::Writer, started.elapsed());
            }
            Job::Drain(done) => {
                let _ = done.send(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;

    #[tokio::test]
    async fn queued_records_are_written_in_order_and_drained_on_request() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        writer.write(Tree::Census, b"a".to_vec(), b"1".to_vec()).expect("queued");
        let batch = (0..3u8).map(|i| Write { tree: Tree::Perf, key: vec![i], value: b"x".to_vec() }).collect();
        writer.write_all(batch).expect("queued");
        writer.write(Tree::Census, b"a".to_vec(), b"2".to_vec()).expect("queued");
        writer.drained().await;
        assert_eq!(store.get(Tree::Census, b"a").expect("gets").as_deref(), Some(&b"2"[..]), "in order");
        assert_eq!(store.scan_prefix(Tree::Perf, b"", 10).expect("scans").len(), 3);
    }
}
