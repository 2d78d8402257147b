//! Group commit: one background thread flushes sled for every writer waiting on it.
//!
//! A durable write is applied to sled first, then registers a waiter; the flusher
//! thread takes every registered waiter, runs one flush and answers them all. A waiter
//! is therefore answered by the next flush that *starts after* its write was applied,
//! and N concurrent writers share one flush instead of paying for N. Flushes start at
//! most every [`MIN_FLUSH_GAP`]: a writer after a quiet spell is flushed at once, and under
//! load everyone writing within the gap shares the next flush (a sled flush costs about
//! the same however many writes it covers, and wakes sled's IO threads each time).
//!
//! Telemetry writes only mark the store dirty; the flusher flushes a dirty store at the
//! latest `telemetry_interval` after the previous flush started. A crash can lose the
//! telemetry written during the last `telemetry_interval` plus one flush duration.
//!
//! The flusher calls sled's blocking `flush` on its own thread rather than `flush_async`:
//! `flush_async` runs on sled's IO pool, and many concurrent calls can occupy every pool
//! thread while the buffer write they wait for sits unserved in that pool's queue (with
//! 16 concurrent writers of one `flush_async` each, sled 0.34 hung). One flush at a time
//! never does.
//!
//! The flusher is a plain thread and waiters are woken through `tokio::sync::oneshot`,
//! which needs no particular runtime: callers on any of actix-web's single-threaded
//! runtimes, a multi-threaded tokio runtime or a blocking `block_on` all work.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::metrics::StoreMetric;
use super::StoreError;

/// The least time between the starts of two flushes (see the module's notes): at most
/// this much is added to a durable write's wait, and only under load. With cart changes
/// from 64 connections it cut the server's CPU per change by about a third and raised
/// the changes acknowledged per second by half (`benches/reports/commerce-and-forms.md`, cart changes).
pub const MIN_FLUSH_GAP: Duration = Duration::from_micros(2_000);

/// What a flush reports to its waiters (sled's error as text, so it can be shared).
type FlushResult = Result<(), String>;

/// The group-commit flusher of one database.
pub(super) struct Flusher {
    /// State shared with the flusher thread.
    shared: Arc<Shared>,
    /// The flusher thread, until [`Flusher::close`] joins it.
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// What writers and the flusher thread share.
struct Shared {
    /// Waiters, the telemetry flag and the closing flag.
    state: Mutex<State>,
    /// Wakes the flusher thread when a waiter registers or the store closes.
    wake: Condvar,
    /// Flushes started so far.
    started: AtomicU64,
    /// Flushes completed so far (group, periodic and final ones); they complete in the
    /// order they started.
    flushes: AtomicU64,
}

/// The flusher's to-do list.
#[derive(Default)]
struct State {
    /// Writers waiting for the next flush to start.
    waiters: Vec<oneshot::Sender<FlushResult>>,
    /// A telemetry write was applied since the last flush started.
    telemetry_dirty: bool,
    /// No more waiters are accepted; the thread runs a final flush and exits.
    closing: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while the lock is held, so a poisoned state is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Flusher {
    /// Starts the flusher thread for `db`.
    pub(super) fn start(db: sled::Db, telemetry_interval: Duration) -> Result<Flusher, StoreError> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            started: AtomicU64::new(0),
            flushes: AtomicU64::new(0),
        });
        let thread_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("veranda-store-flush".into())
            .spawn(move || run(&db, &thread_shared, telemetry_interval))
            .map_err(|e| StoreError::Backend(format!("cannot start the flusher thread: {e}")))?;
        Ok(Flusher { shared, thread: Mutex::new(Some(thread)) })
    }

    /// Fails when the store is closing, so no write starts that nobody would flush.
    pub(super) fn check_open(&self) -> Result<(), StoreError> {
        if self.shared.lock().closing {
            Err(StoreError::Closed)
        } else {
            Ok(())
        }
    }

    /// Registers a waiter for the next flush that starts after this call; the future
    /// resolves when that flush has finished.
    pub(super) fn next_flush(&self) -> impl std::future::Future<Output = Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        let registered = {
            let mut state = self.shared.lock();
            if state.closing {
                false
            } else {
                state.waiters.push(tx);
                true
            }
        };
        if registered {
            self.shared.wake.notify_one();
        }
        async move {
            if !registered {
                return Err(StoreError::Closed);
            }
            match rx.await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(message)) => Err(StoreError::Backend(message)),
                Err(_) => Err(StoreError::Closed),
            }
        }
    }

    /// Notes a telemetry write; the periodic flush will pick it up.
    pub(super) fn mark_telemetry(&self) {
        self.shared.lock().telemetry_dirty = true;
    }

    /// Flushes completed so far.
    pub(super) fn flush_count(&self) -> u64 {
        self.shared.flushes.load(Ordering::SeqCst)
    }

    /// Flushes started so far.
    pub(super) fn flushes_started(&self) -> u64 {
        self.shared.started.load(Ordering::SeqCst)
    }

    /// Stops accepting writes, runs a final flush and joins the thread. Calling it again
    /// does nothing and returns `Ok`.
    pub(super) fn close(&self) -> Result<(), StoreError> {
        let (tx, mut rx) = oneshot::channel();
        {
            let mut state = self.shared.lock();
            if !state.closing {
                state.waiters.push(tx);
                state.closing = true;
            }
        }
        self.shared.wake.notify_one();
        let thread = self.thread.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(thread) = thread {
            if thread.join().is_err() {
                return Err(StoreError::Backend("the flusher thread panicked".into()));
            }
        }
        match rx.try_recv() {
            Ok(Ok(())) => Ok(()),
            Ok(Err(message)) => Err(StoreError::Backend(message)),
            // Already closed before, or the thread ended without a final flush.
            Err(_) => Ok(()),
        }
    }
}

/// On exit (normal or not) the thread refuses new waiters and answers the remaining ones,
/// so no writer waits forever.
struct ExitGuard<'a>(&'a Shared);

impl Drop for ExitGuard<'_> {
    fn drop(&mut self) {
        let waiters = {
            let mut state = self.0.lock();
            state.closing = true;
            std::mem::take(&mut state.waiters)
        };
        for waiter in waiters {
            let _ = waiter.send(Err("the store flusher stopped".into()));
        }
    }
}

/// The flusher thread: waits for work, flushes, answers the waiters of that flush.
fn run(db: &sled::Db, shared: &Shared, telemetry_interval: Duration) {
    let _guard = ExitGuard(shared);
    let mut last_start = Instant::now();
    loop {
        let (waiters, closing) = {
            let mut state = shared.lock();
            loop {
                if state.closing {
                    break;
                }
                if !state.waiters.is_empty() {
                    // Under load, let the writers of the next millisecond join this flush.
                    let since = last_start.elapsed();
                    if since < MIN_FLUSH_GAP {
                        drop(state);
                        std::thread::sleep(MIN_FLUSH_GAP - since);
                        state = shared.lock();
                    }
                    break;
                }
                let due = last_start + telemetry_interval;
                let now = Instant::now();
                if state.telemetry_dirty && now >= due {
                    break;
                }
                let timeout = if state.telemetry_dirty { due - now } else { telemetry_interval };
                state = shared.wake.wait_timeout(state, timeout).unwrap_or_else(PoisonError::into_inner).0;
            }
            // Everything applied so far is covered by the flush that starts now.
            state.telemetry_dirty = false;
            shared.started.fetch_add(1, Ordering::SeqCst);
            (std::mem::take(&mut state.waiters), state.closing)
        };
        last_start = Instant::now();
        let result = db.flush().map(|_| ()).map_err(|e| e.to_string());
        metrics::histogram!(StoreMetric::FlushDuration.name()).record(last_start.elapsed().as_secs_f64());
        metrics::counter!(StoreMetric::Flushes.name()).increment(1);
        shared.flushes.fetch_add(1, Ordering::SeqCst);
        if let Err(error) = &result {
            tracing::error!(%error, "store flush failed");
        }
        for waiter in waiters {
            // A writer that gave up (its future dropped) no longer listens.
            let _ = waiter.send(result.clone());
        }
        if closing {
            return;
        }
    }
}
