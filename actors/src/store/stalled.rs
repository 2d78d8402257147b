//! [`StalledStore`]: a test-only wrapper that makes every write wait, to see how the
//! server behaves when its disk cannot keep up (the overload suite).
//!
//! Every `put`, `delete` and `delete_all` first passes one gate, one write at a time,
//! and the gate holds each write for the stall before letting it through to the wrapped
//! store. The store therefore takes at most `1000 / stall_ms` writes per second, as a
//! disk that needs `stall_ms` per write would. Reads and `flush` are not delayed.
//!
//! The gate is a plain thread answering through `tokio::sync::oneshot`, so (like the
//! flusher) it needs no particular runtime: actix arbiters, tokio runtimes and the
//! telemetry writer's thread all wait on it alike.
//!
//! `veranda serve` wraps its store in one only when the environment variable
//! [`STALL_ENV`] is set, and then logs a warning at start-up and every minute; it is
//! never a setting of the configuration file, so no configuration turns it on by accident.

use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::oneshot;

use super::{Entries, KeySizes, Store, StoreError, StoreFuture, Swap, Tree};

/// The environment variable that makes `veranda serve` stall its store: milliseconds
/// per write. Test-only.
pub const STALL_ENV: &str = "VERANDA_TEST_STORE_STALL_MS";

/// The longest stall accepted, so a typo cannot freeze a server for good.
pub const MAX_STALL: Duration = Duration::from_secs(10);

/// A store whose writes each wait `stall`, one at a time.
pub struct StalledStore {
    /// The store that does the work.
    inner: Arc<dyn Store>,
    /// Writers waiting to pass the gate (the thread answers them in order).
    gate: Mutex<Sender<oneshot::Sender<()>>>,
    /// How long each write is held.
    stall: Duration,
}

impl StalledStore {
    /// Wraps `inner`; every write waits `stall` (at most [`MAX_STALL`]) behind the writes
    /// before it.
    pub fn new(inner: Arc<dyn Store>, stall: Duration) -> Result<StalledStore, StoreError> {
        Self::start(inner, stall.min(MAX_STALL), None)
    }

    /// Wraps `inner` with a gate that holds every write until [`Release::release`] (or the
    /// handle's drop), then lets each through at once: a store that is stuck, then recovers.
    #[cfg(test)]
    pub fn held(inner: Arc<dyn Store>) -> Result<(StalledStore, Release), StoreError> {
        let (release, held) = channel();
        Ok((Self::start(inner, Duration::ZERO, Some(held))?, Release(release)))
    }

    fn start(
        inner: Arc<dyn Store>,
        stall: Duration,
        held: Option<std::sync::mpsc::Receiver<()>>,
    ) -> Result<StalledStore, StoreError> {
        let (tx, rx) = channel::<oneshot::Sender<()>>();
        std::thread::Builder::new()
            .name("veranda-store-stall".into())
            .spawn(move || {
                if let Some(held) = held {
                    let _ = held.recv();
                }
                // Ends when the store (the only sender) is dropped.
                while let Ok(waiter) = rx.recv() {
                    std::thread::sleep(stall);
                    let _ = waiter.send(());
                }
            })
            .map_err(|e| StoreError::Backend(format!("cannot start the stall thread: {e}")))?;
        Ok(StalledStore { inner, gate: Mutex::new(tx), stall })
    }

    /// How long each write is held.
    pub fn stall(&self) -> Duration {
        self.stall
    }

    /// Parses the value of [`STALL_ENV`]: whole milliseconds, 1 to 10,000.
    pub fn parse_stall(value: &str) -> Result<Duration, String> {
        match value.trim().parse::<u64>() {
            Ok(ms) if ms >= 1 && Duration::from_millis(ms) <= MAX_STALL => Ok(Duration::from_millis(ms)),
            _ => Err(format!("{STALL_ENV} must be a whole number of milliseconds from 1 to {}", MAX_STALL.as_millis())),
        }
    }

    /// Resolves once this write's turn at the gate is over.
    async fn pass_gate(&self) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        let sent = self.gate.lock().unwrap_or_else(PoisonError::into_inner).send(tx);
        if sent.is_err() {
            return Err(StoreError::Closed);
        }
        rx.await.map_err(|_| StoreError::Closed)
    }
}

/// Lets the writes of a [`StalledStore::held`] through.
#[cfg(test)]
pub struct Release(Sender<()>);

#[cfg(test)]
impl Release {
    /// Opens the gate: the writes waiting, and every later one, go through at once.
    pub fn release(self) {
        let _ = self.0.send(());
    }
}

impl Store for StalledStore {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(tree, key)
    }

    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.pass_gate().await?;
            self.inner.put(tree, key, value).await
        })
    }

    fn compare_and_swap<'a>(
        &'a self,
        tree: Tree,
        key: &'a [u8],
        expected: Option<&'a [u8]>,
        new: &'a [u8],
    ) -> StoreFuture<'a, Swap> {
        Box::pin(async move {
            self.pass_gate().await?;
            self.inner.compare_and_swap(tree, key, expected, new).await
        })
    }

    fn put_atomic<'a>(&'a self, writes: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.pass_gate().await?;
            self.inner.put_atomic(writes).await
        })
    }

    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.pass_gate().await?;
            self.inner.delete(tree, key).await
        })
    }

    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Entries, StoreError> {
        self.inner.scan_prefix(tree, prefix, limit)
    }

    fn scan_range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        self.inner.scan_range(tree, start, end, limit)
    }

    fn scan_sizes(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<KeySizes, StoreError> {
        self.inner.scan_sizes(tree, start, end, limit)
    }

    fn delete_all<'a>(&'a self, tree: Tree, keys: &'a [Vec<u8>]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.pass_gate().await?;
            self.inner.delete_all(tree, keys).await
        })
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        self.inner.flush()
    }

    fn stored_bytes(&self, tree: Tree) -> Option<u64> {
        self.inner.stored_bytes(tree)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::store::SledStore;

    #[test]
    fn the_stall_is_parsed_and_bounded() {
        assert_eq!(StalledStore::parse_stall(" 25 "), Ok(Duration::from_millis(25)));
        assert!(StalledStore::parse_stall("0").is_err());
        assert!(StalledStore::parse_stall("10001").is_err());
        assert!(StalledStore::parse_stall("fast").unwrap_err().contains(STALL_ENV));
    }

    #[tokio::test]
    async fn writes_wait_one_after_another_and_still_land() {
        let dir = tempfile::tempdir().expect("a temporary dir");
        let inner: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let store = Arc::new(StalledStore::new(inner, Duration::from_millis(30)).expect("starts"));
        let started = Instant::now();
        let writes: Vec<_> = (0..4u8)
            .map(|n| {
                let store = store.clone();
                tokio::spawn(async move { store.put(Tree::Census, &[n], b"v").await })
            })
            .collect();
        for write in writes {
            write.await.expect("joins").expect("written");
        }
        // Four writes through a one-at-a-time gate of 30 ms take at least 120 ms,
        // however the machine schedules them (a lower bound, never an upper one).
        assert!(started.elapsed() >= Duration::from_millis(120), "{:?}", started.elapsed());
        for n in 0..4u8 {
            assert_eq!(store.get(Tree::Census, &[n]).expect("reads"), Some(b"v".to_vec()));
        }
        store.delete(Tree::Census, &[0]).await.expect("deleted");
        assert_eq!(store.get(Tree::Census, &[0]).expect("reads"), None);
    }
}
