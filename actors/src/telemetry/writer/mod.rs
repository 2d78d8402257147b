//! The [`TelemetryWriter`]: one thread that writes telemetry records to the store, so no
//! actor's arbiter and no request waits on a store write.
//!
//! A record is acknowledged once it is accepted into the writer's bounded queue; the
//! thread takes every job waiting (a job is one record or one batch), writes them tree by
//! tree in order, and the store flushes telemetry trees within its own interval. Under
//! load it pauses [`COALESCE_PAUSE`] between rounds, so jobs gather into larger rounds
//! and a request queueing a job seldom has to wake the thread. The queue holds at most
//! [`WRITER_QUEUE_JOBS`] jobs, so what an acknowledged record waits for is bounded; a full
//! queue refuses the job and the request gets 503, at once or, for a job queued with
//! [`write_all_within`](TelemetryWriter::write_all_within) (a census hit), once the queue
//! has stayed full for the job's patience.
//!
//! The census hits of a round are written as records of up to 6 KiB of hits each
//! ([`census`](crate::telemetry::census)): a page view's hit is the most frequent record, and a store write per
//! 6 KiB of hits instead of one per hit is what keeps the thread's cost per page view small.
//!
//! A job may also remove keys once its records are written
//! ([`write_then_remove`](TelemetryWriter::write_then_remove)): the trace flusher stores a
//! batch and removes the journal entries it holds in one job, so the removal never goes
//! before the batch, and is skipped when the batch could not be written.
//!
//! With a [`Retention`], the same thread runs the retention sweep: one bounded step at a
//! time ([`retention`](super::retention)), with queued writes handled between steps.
//! With a [`Capacity`], it checks the stored total after every round of writes (and once
//! at start) and drops the oldest records when it is over the limit
//! ([`capacity`]); it also keeps the stored-bytes gauge.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, Notify};

use crate::store::{Store, Tree};
use crate::telemetry::capacity::{self, Capacity};
use crate::telemetry::metrics::{self, Queue};
use crate::telemetry::records::now_ms;
use crate::telemetry::retention::{Retention, Sweeper, STEP_PAUSE, SWEPT_TREES};

mod round;

use round::Round;

/// Jobs waiting for the writer thread before new ones are refused.
pub const WRITER_QUEUE_JOBS: usize = 4096;
/// The pause after a round that found more than one job waiting.
pub const COALESCE_PAUSE: Duration = Duration::from_millis(1);

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
    /// Records to write, then keys of a tree to remove once every write of the round
    /// succeeded.
    WriteThenRemove(Vec<Write>, Tree, Vec<Vec<u8>>),
    /// Answered once every job queued before it is written and the size limit applied.
    Drain(oneshot::Sender<()>),
    /// Runs a whole retention sweep now; answered with the records removed (0 without retention).
    Sweep(oneshot::Sender<u64>),
}

impl Job {
    /// The records of a write job (none for the others).
    fn into_writes(self) -> Vec<Write> {
        match self {
            Job::Writes(writes) | Job::WriteThenRemove(writes, _, _) => writes,
            Job::Drain(_) | Job::Sweep(_) => Vec::new(),
        }
    }
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
    /// Notified each time the thread has taken the jobs waiting, so the queue has room.
    room: Arc<Notify>,
}

impl TelemetryWriter {
    /// Starts the writer thread on `store`. Should the thread not start, the failure is
    /// logged and every write is refused as busy (503), which keeps the server serving.
    pub fn start(store: Arc<dyn Store>) -> TelemetryWriter {
        Self::start_with_retention(store, None)
    }

    /// Starts the writer thread on `store`; with a `retention`, the thread also sweeps
    /// old telemetry away, a first time at once and then every `retention.every`.
    pub fn start_with_retention(store: Arc<dyn Store>, retention: Option<Retention>) -> TelemetryWriter {
        Self::start_with_limits(store, retention, None)
    }

    /// Starts the writer thread on `store`, with the retention sweep (see
    /// [`start_with_retention`](Self::start_with_retention)) and, with a `capacity`, the
    /// size limit.
    pub fn start_with_limits(
        store: Arc<dyn Store>,
        retention: Option<Retention>,
        capacity: Option<Capacity>,
    ) -> TelemetryWriter {
        let (tx, rx) = sync_channel(WRITER_QUEUE_JOBS);
        let depth = Arc::new(AtomicUsize::new(0));
        let counted = depth.clone();
        let room = Arc::new(Notify::new());
        let freed = room.clone();
        let spawned = std::thread::Builder::new().name("veranda-telemetry-writer".into()).spawn(move || {
            run(store, rx, Counters { depth: counted, room: freed }, retention.map(Sweeper::new), capacity)
        });
        if let Err(error) = spawned {
            tracing::error!(%error, "cannot start the telemetry writer; telemetry writes will be refused");
        }
        TelemetryWriter { tx, depth, room }
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
        self.queue(Job::Writes(writes)).map_err(|error| match error {
            TrySendError::Full(Job::Writes(writes)) | TrySendError::Disconnected(Job::Writes(writes)) => {
                WriterBusy(writes)
            }
            _ => WriterBusy(Vec::new()),
        })
    }

    /// Queues records written in order; when the queue is full, waits up to `patience` for
    /// the thread to take the jobs waiting, and is refused (the records handed back) only
    /// if there is still no room then. A burst the writer is about to absorb thus costs
    /// the requests some latency instead of their records; a writer that stays behind
    /// still refuses them, after `patience`.
    pub async fn write_all_within(&self, writes: Vec<Write>, patience: Duration) -> Result<(), WriterBusy> {
        if writes.is_empty() {
            return Ok(());
        }
        let deadline = tokio::time::Instant::now() + patience;
        let mut job = Job::Writes(writes);
        loop {
            // Registered before the attempt, so room made between the attempt and the
            // wait still wakes this request.
            let room = self.room.notified();
            tokio::pin!(room);
            room.as_mut().enable();
            match self.queue(job) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Full(back)) => job = back,
                Err(TrySendError::Disconnected(back)) => return Err(WriterBusy(back.into_writes())),
            }
            if tokio::time::timeout_at(deadline, room).await.is_err() {
                return Err(WriterBusy(job.into_writes()));
            }
        }
    }

    /// Queues `writes`, then the removal of `keys` from `tree`, done only once the writes
    /// succeeded; waits for room rather than refusing them. Returns false only when the
    /// writer thread is gone.
    pub async fn write_then_remove(&self, writes: Vec<Write>, tree: Tree, keys: Vec<Vec<u8>>) -> bool {
        let mut job = Job::WriteThenRemove(writes, tree, keys);
        loop {
            match self.queue(job) {
                Ok(()) => return true,
                Err(TrySendError::Full(back)) => job = back,
                Err(TrySendError::Disconnected(_)) => return false,
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Queues a write job, counting it in the depth.
    fn queue(&self, job: Job) -> Result<(), TrySendError<Job>> {
        self.depth.fetch_add(1, Ordering::Relaxed);
        self.tx.try_send(job).inspect_err(|_| {
            self.depth.fetch_sub(1, Ordering::Relaxed);
        })
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

    /// Resolves once everything queued before the call is written to the store (and the
    /// size limit, if any, applied).
    pub async fn drained(&self) {
        let (done, written) = oneshot::channel();
        let tx = self.tx.clone();
        // `send` blocks while the queue is full: off the async thread.
        let queued = tokio::task::spawn_blocking(move || tx.send(Job::Drain(done)).is_ok()).await;
        if queued.unwrap_or(false) {
            let _ = written.await;
        }
    }

    /// Runs a whole retention sweep on the writer thread, after everything queued before
    /// the call; resolves with the records removed (0 when retention is off or the
    /// sweep failed).
    pub async fn sweep_now(&self) -> u64 {
        let (done, removed) = oneshot::channel();
        let tx = self.tx.clone();
        let queued = tokio::task::spawn_blocking(move || tx.send(Job::Sweep(done)).is_ok()).await;
        if queued.unwrap_or(false) {
            removed.await.unwrap_or(0)
        } else {
            0
        }
    }
}

/// The writer thread: writes every job in order until every handle is dropped, and runs
/// the retention sweep's steps when they are due.
/// What the thread shares with the handles: the queue's depth, and the room it makes.
struct Counters {
    depth: Arc<AtomicUsize>,
    room: Arc<Notify>,
}

fn run(
    store: Arc<dyn Store>,
    rx: Receiver<Job>,
    Counters { depth, room }: Counters,
    mut sweeper: Option<Sweeper>,
    capacity: Option<Capacity>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "the telemetry writer cannot start its runtime");
            return;
        }
    };
    keep_under(&runtime, capacity.as_ref(), store.as_ref());
    let mut next_step = Instant::now();
    let mut round = Round::new(depth.clone());
    loop {
        let job = match &mut sweeper {
            None => match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
            Some(sweeper) => {
                if Instant::now() >= next_step {
                    next_step = Instant::now() + sweep_step(&runtime, sweeper, store.as_ref());
                    metrics::stored_bytes(capacity::stored(store.as_ref()));
                }
                match rx.recv_timeout(next_step.saturating_duration_since(Instant::now())) {
                    Ok(job) => job,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        };
        let (mut jobs, mut write_jobs) = (1, 0);
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                Job::Writes(writes) => {
                    write_jobs += 1;
                    round.add(writes);
                }
                Job::WriteThenRemove(writes, tree, keys) => {
                    write_jobs += 1;
                    round.add(writes);
                    if round.write(&runtime, store.as_ref()) {
                        remove(&runtime, store.as_ref(), tree, &keys);
                    }
                }
                Job::Drain(done) => {
                    round.write(&runtime, store.as_ref());
                    keep_under(&runtime, capacity.as_ref(), store.as_ref());
                    let _ = done.send(());
                }
                Job::Sweep(done) => {
                    round.write(&runtime, store.as_ref());
                    let _ = done.send(whole_sweep(&runtime, sweeper.as_ref(), store.as_ref()));
                }
            }
            if jobs < WRITER_QUEUE_JOBS {
                next = rx.try_recv().ok();
                jobs += usize::from(next.is_some());
            }
        }
        let left = depth.fetch_sub(write_jobs, Ordering::Relaxed).saturating_sub(write_jobs);
        metrics::queue_depth(Queue::Writer, left);
        room.notify_waiters();
        round.write(&runtime, store.as_ref());
        keep_under(&runtime, capacity.as_ref(), store.as_ref());
        if jobs > 1 {
            std::thread::sleep(COALESCE_PAUSE);
        }
    }
}

/// Removes `keys` from `tree` (a failure is logged; the keys stay).
fn remove(runtime: &tokio::runtime::Runtime, store: &dyn Store, tree: Tree, keys: &[Vec<u8>]) {
    if let Err(error) = runtime.block_on(store.delete_all(tree, keys)) {
        tracing::warn!(%error, tree = tree.name(), "telemetry removal failed");
    }
}

/// Sets the stored-bytes gauge and, over the `capacity`, drops the oldest records (a
/// failure is logged; the next round tries again).
fn keep_under(runtime: &tokio::runtime::Runtime, capacity: Option<&Capacity>, store: &dyn Store) {
    if let Some(capacity) = capacity {
        if let Err(error) = runtime.block_on(capacity.enforce(store)) {
            tracing::warn!(%error, "dropping the oldest telemetry failed");
        }
    }
    metrics::stored_bytes(capacity::stored(store));
}

/// Runs a whole retention sweep now; the records removed (0 without retention or on failure).
fn whole_sweep(runtime: &tokio::runtime::Runtime, running: Option<&Sweeper>, store: &dyn Store) -> u64 {
    let Some(running) = running else { return 0 };
    let mut whole = Sweeper::new(running.retention());
    runtime.block_on(whole.sweep(store, now_ms())).unwrap_or_else(|error| {
        tracing::warn!(%error, "telemetry retention sweep failed");
        0
    })
}

/// Runs one step of the retention sweep; returns how long to wait before the next one.
fn sweep_step(runtime: &tokio::runtime::Runtime, sweeper: &mut Sweeper, store: &dyn Store) -> Duration {
    let now = now_ms();
    match runtime.block_on(sweeper.step(store, now)) {
        Ok(step) if step.done => {
            metrics::retention_swept(now, &SWEPT_TREES);
            sweeper.retention().every
        }
        Ok(_) => STEP_PAUSE,
        Err(error) => {
            tracing::warn!(%error, "telemetry retention sweep failed");
            *sweeper = Sweeper::new(sweeper.retention());
            sweeper.retention().every
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;
    use crate::telemetry::census;

    /// A sled store in a temporary directory (kept for as long as the directory is).
    fn temp_store() -> (tempfile::TempDir, Arc<dyn Store>) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        (dir, store)
    }

    #[tokio::test]
    async fn queued_records_are_written_in_order_and_drained_on_request() {
        let (_dir, store) = temp_store();
        let writer = TelemetryWriter::start(store.clone());
        writer.write(Tree::Events, b"a".to_vec(), b"1".to_vec()).expect("queued");
        let batch = (0..3u8).map(|i| Write { tree: Tree::Perf, key: vec![i], value: b"x".to_vec() }).collect();
        writer.write_all(batch).expect("queued");
        writer.write(Tree::Events, b"a".to_vec(), b"2".to_vec()).expect("queued");
        writer.drained().await;
        assert_eq!(store.get(Tree::Events, b"a").expect("gets").as_deref(), Some(&b"2"[..]), "in order");
        assert_eq!(store.scan_prefix(Tree::Perf, b"", 10).expect("scans").len(), 3);
    }

    #[tokio::test]
    async fn a_batch_written_a_few_entries_at_a_time_is_stored_whole_and_in_order() {
        let (_dir, store) = temp_store();
        let writer = TelemetryWriter::start(store.clone());
        // 1,000 writes of 250 keys: several store calls (and yields) per round; the last
        // value of each key must win.
        let batch: Vec<Write> = (0..1000u32)
            .map(|n| Write { tree: Tree::Perf, key: (n % 250).to_be_bytes().to_vec(), value: n.to_be_bytes().to_vec() })
            .collect();
        writer.write_all(batch).expect("queued");
        writer.drained().await;
        let stored = store.scan_prefix(Tree::Perf, b"", 1000).expect("scans");
        assert_eq!(stored.len(), 250);
        for (key, value) in stored {
            let key = u32::from_be_bytes(key[..4].try_into().expect("4 bytes"));
            assert_eq!(value, (key + 750).to_be_bytes(), "key {key} holds its last write");
        }
    }

    #[tokio::test]
    async fn census_hits_of_a_round_are_stored_together_and_every_hit_is_kept() {
        use crate::telemetry::records::record_key;

        let (_dir, store) = temp_store();
        let writer = TelemetryWriter::start(store.clone());
        let hits: Vec<Write> = (0..5u64)
            .map(|n| Write {
                tree: Tree::Census,
                key: record_key(1_000 + n).to_vec(),
                value: format!("{{\"n\":{n}}}").into_bytes(),
            })
            .collect();
        let newest = hits[4].key.clone();
        writer.write_all(hits).expect("queued");
        writer.drained().await;
        let records = store.scan_prefix(Tree::Census, b"", 10).expect("scans");
        assert_eq!(records.len(), 1, "one record for the round");
        assert_eq!(&records[0].0[..16], &newest[..], "keyed by the newest hit");
        assert_eq!(census::hits_in(&records[0].0), 5);
        let numbers: Vec<_> = census::hits(&records[0].1).expect("JSON").iter().map(|hit| hit["n"].as_u64()).collect();
        assert_eq!(numbers, [Some(0), Some(1), Some(2), Some(3), Some(4)]);
    }

    #[tokio::test]
    async fn the_writer_thread_sweeps_old_records_and_keeps_writing() {
        use crate::telemetry::records::record_key;
        use crate::telemetry::TelemetryLimits;

        let (_dir, store) = temp_store();
        let limits = TelemetryLimits { retention_days: 1, ..TelemetryLimits::default() };
        let writer = TelemetryWriter::start_with_retention(store.clone(), Retention::from_limits(&limits));
        let day_ms = 86_400_000;
        let old = record_key(now_ms() - 2 * day_ms).to_vec();
        let recent = record_key(now_ms()).to_vec();
        writer.write(Tree::Events, old.clone(), b"old".to_vec()).expect("queued");
        writer.write(Tree::Events, recent.clone(), b"new".to_vec()).expect("queued");
        assert_eq!(writer.sweep_now().await, 1);
        assert_eq!(store.get(Tree::Events, &old).expect("gets"), None);
        assert_eq!(store.get(Tree::Events, &recent).expect("gets").as_deref(), Some(&b"new"[..]));

        let keep_forever = TelemetryWriter::start(store.clone());
        keep_forever.write(Tree::Events, old.clone(), b"old".to_vec()).expect("queued");
        assert_eq!(keep_forever.sweep_now().await, 0, "no retention, no sweep");
        assert!(store.get(Tree::Events, &old).expect("gets").is_some());
    }

    #[tokio::test]
    async fn past_the_size_limit_the_writer_drops_the_oldest_records() {
        use crate::telemetry::records::record_key;

        let (_dir, store) = temp_store();
        let writer = TelemetryWriter::start_with_limits(store.clone(), None, Some(Capacity { limit: 10_000 }));
        let keys: Vec<Vec<u8>> = (0..50u64).map(|i| record_key(1_000 + i).to_vec()).collect();
        for key in &keys {
            writer.write(Tree::Events, key.clone(), vec![b'e'; 984]).expect("queued");
            writer.drained().await;
        }
        assert!(capacity::stored(store.as_ref()) <= 10_000, "the total stays under the limit");
        assert!(store.get(Tree::Events, &keys[0]).expect("gets").is_none(), "the oldest went");
        assert!(store.get(Tree::Events, &keys[49]).expect("gets").is_some(), "the newest stayed");
    }

    fn event(key: &[u8]) -> Vec<Write> {
        vec![Write { tree: Tree::Events, key: key.to_vec(), value: b"v".to_vec() }]
    }

    #[tokio::test]
    async fn a_full_queue_makes_a_write_wait_for_room_and_refuses_it_only_after_its_patience() {
        let (_dir, store) = temp_store();
        let (held, release) = crate::store::StalledStore::held(store.clone()).expect("starts");
        let writer = TelemetryWriter::start(Arc::new(held));
        // The thread takes the first job and waits at the gate; the queue then fills.
        writer.write_all(event(b"first")).expect("queued");
        let mut queued = 1;
        let started = Instant::now();
        while writer.write_all(event(format!("filler-{queued}").as_bytes())).is_ok() {
            queued += 1;
            assert!(started.elapsed() < Duration::from_secs(10), "the queue never filled");
        }
        assert!(queued > WRITER_QUEUE_JOBS / 2, "the queue holds thousands of jobs: {queued}");

        // Still full after the patience: refused, with its records handed back, and not before.
        let waited = Instant::now();
        let refused = writer.write_all_within(event(b"refused"), Duration::from_millis(100)).await;
        assert!(waited.elapsed() >= Duration::from_millis(100), "waited {:?}", waited.elapsed());
        assert_eq!(refused.expect_err("no room came").0, event(b"refused"));

        // Room comes while it waits: queued, and written.
        let late = tokio::spawn({
            let writer = writer.clone();
            async move { writer.write_all_within(event(b"patient"), Duration::from_secs(30)).await.is_ok() }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!late.is_finished(), "it waits while the queue is full");
        release.release();
        assert!(late.await.expect("joins"), "queued once the thread took the jobs waiting");
        writer.drained().await;
        assert!(store.get(Tree::Events, b"patient").expect("gets").is_some(), "and written");
        assert!(store.get(Tree::Events, b"refused").expect("gets").is_none(), "the refused one was not");
    }
}
