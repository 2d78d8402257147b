//! [`TelemetryBuffer`]: the telemetry trees' writes, acknowledged at once and written to
//! Redis by one thread at least every [`TELEMETRY_FLUSH_INTERVAL`], in pipelined
//! scripts of at most [`CHUNK`] changes (a batch written together, such as one
//! `put_atomic`, is never split). Until a write has reached Redis, this instance's
//! reads see it from the buffer, so reading one's own writes works as with sled.
//!
//! Should Redis not answer, the writes stay buffered and the next round tries again;
//! past [`MAX_BUFFERED`] changes the oldest are dropped (and logged): telemetry never
//! holds up the site. The thread also refreshes the byte counts of the telemetry trees
//! each round (other instances write to them too).

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::oneshot;

use super::super::sizes::TreeSizes;
use super::super::{StoreError, Tree};
use super::blocking::{unavailable, BlockingPool};
use super::scripts::{apply_invocation, slot, Change, TreeKeys};
use crate::store::TELEMETRY_FLUSH_INTERVAL;

/// Most changes one script applies.
pub const CHUNK: usize = 500;
/// Most changes kept while Redis does not answer.
pub const MAX_BUFFERED: usize = 200_000;

/// The latest buffered state of a key: `Some(value)` written, `None` removed.
type Latest = BTreeMap<(usize, Vec<u8>), Option<Vec<u8>>>;

/// What waits for the thread.
#[derive(Default)]
struct Pending {
    /// Batches in the order they were written.
    batches: VecDeque<Vec<Change>>,
    /// Changes in `batches`.
    count: usize,
    /// The latest state of every key in `batches`.
    latest: Latest,
    /// The latest state of every key being written now (read until Redis has it).
    in_flight: Latest,
    /// Callers of `flush` waiting for the next round.
    waiters: Vec<oneshot::Sender<Result<(), StoreError>>>,
    /// Set once the store closes: the thread writes what is left and stops.
    closed: bool,
}

/// Shared between the store and its thread.
struct Shared {
    pending: Mutex<Pending>,
    wake: Condvar,
}

/// The buffer and its flusher thread.
pub struct TelemetryBuffer {
    shared: Arc<Shared>,
    /// The thread, until the buffer is closed.
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl TelemetryBuffer {
    /// Starts the thread, writing with `pool` under `keys` and keeping `sizes` current.
    pub fn start(pool: Arc<BlockingPool>, keys: Arc<Vec<TreeKeys>>, sizes: Arc<TreeSizes>) -> Result<Self, StoreError> {
        let shared = Arc::new(Shared { pending: Mutex::new(Pending::default()), wake: Condvar::new() });
        let worker = shared.clone();
        let thread = std::thread::Builder::new()
            .name("veranda-redis-telemetry".into())
            .spawn(move || run(&worker, &pool, &keys, &sizes))
            .map_err(|e| StoreError::Backend(format!("cannot start the telemetry writer: {e}")))?;
        Ok(TelemetryBuffer { shared, thread: Mutex::new(Some(thread)) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.shared.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Buffers `batch` (written together); refused once closed.
    pub fn push(&self, batch: Vec<Change>) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        let mut pending = self.lock();
        if pending.closed {
            return Err(StoreError::Closed);
        }
        for change in &batch {
            pending.latest.insert((slot(change.tree), change.key.clone()), change.value.clone());
        }
        pending.count += batch.len();
        pending.batches.push_back(batch);
        while pending.count > MAX_BUFFERED {
            let Some(dropped) = pending.batches.pop_front() else { break };
            pending.count -= dropped.len();
            tracing::error!(changes = dropped.len(), "Redis has not taken the buffered telemetry; dropping the oldest");
        }
        Ok(())
    }

    /// The buffered entries of `tree` with `start <= key < end`: `Some(value)` written,
    /// `None` removed (the latest of each key).
    pub fn overlay(&self, tree: Tree, start: &[u8], end: Option<&[u8]>) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        let pending = self.lock();
        let at = slot(tree);
        let mut merged: BTreeMap<Vec<u8>, Option<Vec<u8>>> = BTreeMap::new();
        for latest in [&pending.in_flight, &pending.latest] {
            let from = (at, start.to_vec());
            for ((t, key), value) in latest.range(from..) {
                if *t != at || end.is_some_and(|end| key.as_slice() >= end) {
                    break;
                }
                merged.insert(key.clone(), value.clone());
            }
        }
        merged.into_iter().collect()
    }

    /// The buffered state of one key, if it is buffered.
    pub fn get(&self, tree: Tree, key: &[u8]) -> Option<Option<Vec<u8>>> {
        let pending = self.lock();
        let k = (slot(tree), key.to_vec());
        pending.latest.get(&k).or_else(|| pending.in_flight.get(&k)).cloned()
    }

    /// Resolves once everything buffered before the call is in Redis.
    pub async fn flush(&self) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        {
            let mut pending = self.lock();
            if pending.closed && pending.batches.is_empty() {
                return Ok(());
            }
            pending.waiters.push(tx);
        }
        self.shared.wake.notify_one();
        rx.await.unwrap_or(Err(StoreError::Closed))
    }

    /// Writes what is left and stops the thread. Closing twice is harmless.
    pub fn close(&self) {
        self.lock().closed = true;
        self.shared.wake.notify_one();
        let thread = self.thread.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

impl Drop for TelemetryBuffer {
    fn drop(&mut self) {
        self.close();
    }
}

/// The thread: a round at least every [`TELEMETRY_FLUSH_INTERVAL`], or when woken.
fn run(shared: &Shared, pool: &BlockingPool, keys: &[TreeKeys], sizes: &TreeSizes) {
    let script = redis::Script::new(super::scripts::APPLY);
    loop {
        let (batches, waiters, closing) = {
            let pending = shared.pending.lock().unwrap_or_else(PoisonError::into_inner);
            let (mut pending, _) = shared
                .wake
                .wait_timeout_while(pending, TELEMETRY_FLUSH_INTERVAL, |p| p.waiters.is_empty() && !p.closed)
                .unwrap_or_else(PoisonError::into_inner);
            let batches: Vec<Vec<Change>> = pending.batches.drain(..).collect();
            pending.count = 0;
            let latest = std::mem::take(&mut pending.latest);
            pending.in_flight = latest;
            (batches, std::mem::take(&mut pending.waiters), pending.closed)
        };
        let result = write(pool, &script, keys, &batches);
        {
            let mut pending = shared.pending.lock().unwrap_or_else(PoisonError::into_inner);
            let in_flight = std::mem::take(&mut pending.in_flight);
            if let Err(error) = &result {
                tracing::warn!(%error, "cannot write the buffered telemetry to Redis; trying again next round");
                if !closing {
                    // Back in front, before anything written meanwhile.
                    let count: usize = batches.iter().map(Vec::len).sum();
                    for batch in batches.into_iter().rev() {
                        pending.batches.push_front(batch);
                    }
                    pending.count += count;
                    for (key, value) in in_flight {
                        pending.latest.entry(key).or_insert(value);
                    }
                }
            }
        }
        refresh_sizes(pool, keys, sizes);
        for waiter in waiters {
            let _ = waiter.send(result.clone_error());
        }
        if closing {
            return;
        }
    }
}

/// A result whose error can be handed to several waiters.
trait CloneError {
    fn clone_error(&self) -> Result<(), StoreError>;
}

impl CloneError for Result<(), StoreError> {
    fn clone_error(&self) -> Result<(), StoreError> {
        match self {
            Ok(()) => Ok(()),
            Err(e) => Err(StoreError::Unavailable(e.to_string())),
        }
    }
}

/// Writes `batches` in pipelined scripts of about [`CHUNK`] changes.
fn write(
    pool: &BlockingPool,
    script: &redis::Script,
    keys: &[TreeKeys],
    batches: &[Vec<Change>],
) -> Result<(), StoreError> {
    if batches.is_empty() {
        return Ok(());
    }
    let mut chunks: Vec<Vec<Change>> = vec![Vec::new()];
    for batch in batches {
        let last = chunks.len() - 1;
        if !chunks[last].is_empty() && chunks[last].len() + batch.len() > CHUNK {
            chunks.push(Vec::new());
        }
        let last = chunks.len() - 1;
        chunks[last].extend(batch.iter().cloned());
    }
    pool.run(|conn| {
        let mut pipe = redis::pipe();
        // Loaded first in every round, so the pipeline's EVALSHA finds it even after a
        // restart of Redis.
        pipe.load_script(script).ignore();
        for chunk in &chunks {
            let invocation = apply_invocation(script, keys, chunk);
            pipe.invoke_script(&invocation).ignore();
        }
        pipe.query::<()>(conn)
    })
}

/// Reads every telemetry tree's byte count into `sizes`.
fn refresh_sizes(pool: &BlockingPool, keys: &[TreeKeys], sizes: &TreeSizes) {
    let counted: Vec<Tree> = Tree::ALL.into_iter().filter(|t| TreeSizes::counts(*t)).collect();
    let names: Vec<&str> = counted.iter().map(|t| keys[slot(*t)].bytes.as_str()).collect();
    match pool.run(|conn| redis::cmd("MGET").arg(&names).query::<Vec<Option<u64>>>(conn)) {
        Ok(values) => {
            for (tree, bytes) in counted.iter().zip(values) {
                sizes.set(*tree, bytes.unwrap_or(0));
            }
        }
        Err(error) => tracing::debug!(%error, "cannot read the telemetry byte counts from Redis"),
    }
}

/// Waits at most `timeout` for `flush`.
pub async fn bounded(
    flush: impl std::future::Future<Output = Result<(), StoreError>>,
    timeout: Duration,
) -> Result<(), StoreError> {
    tokio::time::timeout(timeout, flush).await.unwrap_or_else(|_| Err(unavailable("the telemetry flush took too long")))
}
