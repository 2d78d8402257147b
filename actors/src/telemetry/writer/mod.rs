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
//! at start) and drops the oldest records when it is over the limit ([`capacity`]): a
//! batch at a time ([`Dropper`]), after each round for as long as the round took (longer
//! the further past the limit the total is, [`Dropper::pace`]) and
//! whenever no job waits, so that a drop pass does not hold the queue up; it also keeps
//! the stored-bytes gauge.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TryRecvError, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, Notify};

use crate::store::{Store, Tree};
use crate::telemetry::capacity::{self, Capacity, Dropper};
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
            run(store, rx, Shared { depth: counted, room: freed }, retention.map(Sweeper::new), capacity)
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
    /// still refuses them, after `patience`. A write that waits is counted in
    /// `veranda_ingest_waited_total{queue="writer"}`.
    pub async fn write_all_within(&self, writes: Vec<Write>, patience: Duration) -> Result<(), WriterBusy> {
        if writes.is_empty() {
            return Ok(());
        }
        let deadline = tokio::time::Instant::now() + patience;
        self.queue_waiting(Job::Writes(writes), Some(deadline), || metrics::waited(Queue::Writer))
            .await
            .map_err(|job| WriterBusy(job.into_writes()))
    }

    /// Queues `writes`, then the removal of `keys` from `tree`, done only once the writes
    /// succeeded; waits for room rather than refusing them. Returns false only when the
    /// writer thread is gone.
    pub async fn write_then_remove(&self, writes: Vec<Write>, tree: Tree, keys: Vec<Vec<u8>>) -> bool {
        self.queue_waiting(Job::WriteThenRemove(writes, tree, keys), None, || {}).await.is_ok()
    }

    /// Queues `job`, waiting for room until `deadline` (for as long as it takes without
    /// one); hands the job back when the deadline passed or the thread is gone. Calls
    /// `waits` once if the queue is full when it comes.
    async fn queue_waiting(
        &self,
        mut job: Job,
        deadline: Option<tokio::time::Instant>,
        waits: impl FnOnce(),
    ) -> Result<(), Job> {
        // The usual case, a queue with room, takes no place among the waiters.
        match self.queue(job) {
            Ok(()) => return Ok(()),
            Err(TrySendError::Full(back)) => job = back,
            Err(TrySendError::Disconnected(back)) => return Err(back),
        }
        waits();
        loop {
            // Registered before the next attempt, so room made between that attempt and
            // the wait still wakes this task.
            let room = self.room.notified();
            tokio::pin!(room);
            room.as_mut().enable();
            match self.queue(job) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Full(back)) => job = back,
                Err(TrySendError::Disconnected(back)) => return Err(back),
            }
            match deadline {
                Some(deadline) => {
                    if tokio::time::timeout_at(deadline, room).await.is_err() {
                        return Err(job);
                    }
                }
                None => room.await,
            }
        }
    }

    /// Queues a write job, counting it in the depth.
    fn queue(&self, job: Job) -> Result<(), TrySendError<Job>> {
        self.depth.fetch_add(1, Ordering::Relaxed);
        self.tx.try_send(job).inspect_err(|_| {
            self.depth.fetch_sub(1, Ordering::Relaxed);
        })
    }

    /// Queues `writes`, waiting for room rather than refusing them (shutdown and flushes);
    /// gives up only when the writer thread is gone.
    pub async fn write_all_waiting(&self, writes: Vec<Write>) {
        if !writes.is_empty() {
            let _ = self.queue_waiting(Job::Writes(writes), None, || {}).await;
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

/// What the thread shares with the handles: the queue's depth, and the room it makes.
struct Shared {
    depth: Arc<AtomicUsize>,
    room: Arc<Notify>,
}

/// The writer thread: writes every job in order until every handle is dropped, and runs
/// the retention sweep's steps when they are due.
fn run(
    store: Arc<dyn Store>,
    rx: Receiver<Job>,
    shared: Shared,
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
    let mut dropper = capacity.map(Dropper::new);
    keep_under(&runtime, dropper.as_mut(), store.as_ref());
    let mut next_step = Instant::now();
    let mut round = Round::new(shared.depth.clone());
    loop {
        // While a drop pass is under way, its steps take the time no job waits for.
        if let Some(dropping) = dropper.as_mut().filter(|d| d.busy()) {
            match rx.try_recv() {
                Ok(job) => {
                    let jobs = Jobs { rx: &rx, shared: &shared, sweeper: sweeper.as_ref() };
                    jobs.handle(job, &mut round, &runtime, dropper.as_mut(), store.as_ref());
                }
                Err(TryRecvError::Empty) => drop_for(&runtime, dropping, store.as_ref(), Duration::ZERO),
                Err(TryRecvError::Disconnected) => return,
            }
            continue;
        }
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
        let jobs = Jobs { rx: &rx, shared: &shared, sweeper: sweeper.as_ref() };
        jobs.handle(job, &mut round, &runtime, dropper.as_mut(), store.as_ref());
    }
}

/// Where a round's jobs come from, and what they report to.
struct Jobs<'a> {
    rx: &'a Receiver<Job>,
    shared: &'a Shared,
    sweeper: Option<&'a Sweeper>,
}

impl Jobs<'_> {
    /// Handles `job` and every job waiting behind it as one round: writes them, then works
    /// on the size limit for as long as the round took (paced by [`Dropper::pace`]).
    fn handle(
        &self,
        job: Job,
        round: &mut Round,
        runtime: &tokio::runtime::Runtime,
        mut dropper: Option<&mut Dropper>,
        store: &dyn Store,
    ) {
        let started = Instant::now();
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
                    if round.write(runtime, store) {
                        remove(runtime, store, tree, &keys);
                    }
                }
                Job::Drain(done) => {
                    round.write(runtime, store);
                    keep_under(runtime, dropper.as_deref_mut(), store);
                    let _ = done.send(());
                }
                Job::Sweep(done) => {
                    round.write(runtime, store);
                    let _ = done.send(whole_sweep(runtime, self.sweeper, store));
                }
            }
            if jobs < WRITER_QUEUE_JOBS {
                next = self.rx.try_recv().ok();
                jobs += usize::from(next.is_some());
            }
        }
        let left = self.shared.depth.fetch_sub(write_jobs, Ordering::Relaxed).saturating_sub(write_jobs);
        metrics::queue_depth(Queue::Writer, left);
        self.shared.room.notify_waiters();
        round.write(runtime, store);
        if let Some(dropper) = dropper {
            drop_for(runtime, dropper, store, started.elapsed());
        }
        metrics::stored_bytes(capacity::stored(store));
        if jobs > 1 {
            std::thread::sleep(COALESCE_PAUSE);
        }
    }
}

/// Works on the size limit for about `budget` (one step at least; see [`Dropper::work`]);
/// a failure is logged and the next round tries again.
fn drop_for(runtime: &tokio::runtime::Runtime, dropper: &mut Dropper, store: &dyn Store, budget: Duration) {
    if let Err(error) = runtime.block_on(dropper.work(store, budget)) {
        tracing::warn!(%error, "dropping the oldest telemetry failed");
    }
}

/// Removes `keys` from `tree` (a failure is logged; the keys stay).
fn remove(runtime: &tokio::runtime::Runtime, store: &dyn Store, tree: Tree, keys: &[Vec<u8>]) {
    if let Err(error) = runtime.block_on(store.delete_all(tree, keys)) {
        tracing::warn!(%error, tree = tree.name(), "telemetry removal failed");
    }
}

/// Sets the stored-bytes gauge and, over the capacity, drops the oldest records at once
/// (at start and when the writer drains; a failure is logged, the next round tries again).
fn keep_under(runtime: &tokio::runtime::Runtime, dropper: Option<&mut Dropper>, store: &dyn Store) {
    if let Some(dropper) = dropper {
        if let Err(error) = runtime.block_on(dropper.finish(store)) {
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
mod tests;
