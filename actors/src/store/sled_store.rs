//! The sled implementation of [`Store`], with group commit.
//!
//! Durable writes are applied to sled, then wait for the next flush that starts after
//! them (see [`flusher`](super::flusher)); concurrent writers share that flush.
//! Telemetry writes are acknowledged at once and flushed by the periodic flush, which
//! runs at the latest [`TELEMETRY_FLUSH_INTERVAL`] after the previous flush started:
//! a crash loses at most the telemetry of that interval plus one flush duration
//! (under a second on any working disk). [`SledStore::close`] and `Drop` flush
//! everything before the database closes.
//!
//! The telemetry trees' sizes are counted as they change ([`TreeSizes`]); opening the
//! store reads those trees once to start the count.
//!
//! **No sled transactions or batches.** In sled 0.34 the first `transaction` or
//! `apply_batch` anywhere in a process switches every database of the process to one
//! process-wide lock, taken for reading by every operation and for writing by every
//! transaction: from then on one flush that waits on its disk while holding it stalls
//! every writer of every store (seen as a whole test process hanging). So a write that
//! must be atomic across trees ([`Store::put_atomic`]) is logged as one *intent* (a
//! single insert, atomic by itself), applied key by key, then the intent is removed.
//! sled recovers a prefix of its log, so after a crash either the intent is gone and
//! every write with it, or the intent is there and [`SledStore::open`] applies it
//! again (writing a final value twice changes nothing) before anything reads.

use std::collections::HashMap;
use std::num::NonZeroU64;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::flusher::Flusher;
use super::intents::{encode_intent, finish_intents, INTENTS_TREE};
use super::metrics::StoreMetric;
use super::sizes::{entry_bytes, TreeSizes};
use super::{sled_failure, Durability, Entries, KeySizes, Store, StoreError, StoreFuture, Swap, Tree};

/// The longest a telemetry write waits for a flush (the documented loss window, less
/// the flush's own duration).
pub const TELEMETRY_FLUSH_INTERVAL: Duration = Duration::from_millis(500);

/// The page cache sled may fill, in MiB, unless `store_cache_mb` says otherwise. sled's own
/// default is 1 GB, and under a steady write load the server's memory grows towards it
/// (about 700 MiB at its peak when every hit is a new visitor). With 64 MiB the writer fell
/// behind new visitors' sessions, whose keys land all over the tree, and thousands of hits a
/// run were answered 503; 256 MiB keeps those as rare as 1 GB does with about 500 MiB at the
/// peak (`benches/reports/store.md`). Pages past the cache are read from the data files,
/// which the kernel's own page cache keeps.
pub const DEFAULT_CACHE_MB: NonZeroU64 = NonZeroU64::new(256).expect("256 is not zero");

/// Sled, one tree per kind of record.
pub struct SledStore {
    /// The database.
    db: sled::Db,
    /// One open handle per tree, opened once.
    trees: HashMap<Tree, sled::Tree>,
    /// The group-commit flusher thread.
    flusher: Flusher,
    /// The bytes each telemetry tree holds.
    sizes: TreeSizes,
    /// Atomic writes logged and not yet applied whole (see the module's notes).
    intents: sled::Tree,
    /// The key of the next intent.
    next_intent: AtomicU64,
}

impl SledStore {
    /// Opens (or creates) the database in `dir`.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        Self::open_with_interval(dir, TELEMETRY_FLUSH_INTERVAL)
    }

    /// Opens the database with a page cache of `cache_mb` MiB (the `store_cache_mb` setting).
    pub fn open_with_cache(dir: &Path, cache_mb: NonZeroU64) -> Result<SledStore, StoreError> {
        Self::open_with(dir, TELEMETRY_FLUSH_INTERVAL, cache_mb)
    }

    /// Opens the database with a different telemetry flush interval.
    pub fn open_with_interval(dir: &Path, telemetry_interval: Duration) -> Result<SledStore, StoreError> {
        Self::open_with(dir, telemetry_interval, DEFAULT_CACHE_MB)
    }

    fn open_with(dir: &Path, telemetry_interval: Duration, cache_mb: NonZeroU64) -> Result<SledStore, StoreError> {
        let config = sled::Config::new()
            .path(dir)
            .cache_capacity(cache_mb.get().saturating_mul(1024 * 1024))
            // The flusher below owns every flush; sled's own timer would only add some.
            .flush_every_ms(None);
        let db = open_waiting_for_lock(|| config.open(), LOCK_WAIT)
            .map_err(|e| StoreError::Backend(format!("{}: {e}", dir.display())))?;
        let mut trees = HashMap::with_capacity(Tree::ALL.len());
        for tree in Tree::ALL {
            trees.insert(tree, db.open_tree(tree.name()).map_err(sled_failure)?);
        }
        let intents = db.open_tree(INTENTS_TREE).map_err(sled_failure)?;
        if finish_intents(&intents, |tree| open_tree(&trees, tree))? > 0 {
            db.flush().map_err(sled_failure)?;
        }
        let sizes = TreeSizes::default();
        for (tree, handle) in &trees {
            if TreeSizes::counts(*tree) {
                sizes.set(*tree, tree_bytes(handle)?);
            }
        }
        let flusher = Flusher::start(db.clone(), telemetry_interval)?;
        Ok(SledStore { db, trees, flusher, sizes, intents, next_intent: AtomicU64::new(0) })
    }

    /// Flushes completed since the store opened (group, periodic and final ones).
    pub fn flush_count(&self) -> u64 {
        self.flusher.flush_count()
    }

    /// Flushes started since the store opened. Once `flush_count()` exceeds a value read
    /// here, a flush that started after that read has finished: everything written
    /// before the read is on disk.
    pub fn flushes_started(&self) -> u64 {
        self.flusher.flushes_started()
    }

    /// Refuses further writes, flushes everything and stops the flusher thread.
    /// Reads keep working until the store is dropped. Closing twice is harmless.
    pub fn close(&self) -> Result<(), StoreError> {
        self.flusher.close()
    }

    fn tree(&self, tree: Tree) -> Result<&sled::Tree, StoreError> {
        open_tree(&self.trees, tree)
    }

    /// The entries with `start <= key < end` (no upper bound when `end` is `None`), in key
    /// order; `None` when the range is empty because `end` is not after `start`.
    fn range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>) -> Result<Option<sled::Iter>, StoreError> {
        let tree = self.tree(tree)?;
        Ok(match end {
            Some(end) if end <= start => None,
            Some(end) => Some(tree.range(start..end)),
            None => Some(tree.range(start..)),
        })
    }

    /// Counts the write, then waits as its durability class requires.
    async fn acknowledge(&self, tree: Tree) -> Result<(), StoreError> {
        self.acknowledge_writes(tree, 1).await
    }

    /// Counts `writes` writes, then waits as their durability class requires.
    async fn acknowledge_writes(&self, tree: Tree, writes: u64) -> Result<(), StoreError> {
        let class = match tree.durability() {
            Durability::Durable => "durable",
            Durability::Telemetry => "telemetry",
        };
        metrics::counter!(StoreMetric::Writes.name(), "tree" => tree.name(), "class" => class).increment(writes);
        match tree.durability() {
            Durability::Durable => self.flusher.next_flush().await,
            Durability::Telemetry => {
                self.flusher.mark_telemetry();
                Ok(())
            }
        }
    }
}

impl Drop for SledStore {
    fn drop(&mut self) {
        if let Err(error) = self.flusher.close() {
            tracing::error!(%error, "final store flush failed");
        }
        // Last resort, should the flusher thread have died early.
        if let Err(error) = self.db.flush() {
            tracing::error!(%error, "store flush on drop failed");
        }
    }
}

/// How long opening waits for the database's file lock: sled releases it from a
/// background thread shortly after the previous handle in this process is dropped.
/// Another process holding the database still fails after this wait.
pub const LOCK_WAIT: Duration = Duration::from_secs(2);

/// Calls `open` until it succeeds, fails otherwise than on sled's file lock, or `wait`
/// has passed.
fn open_waiting_for_lock<T>(mut open: impl FnMut() -> sled::Result<T>, wait: Duration) -> sled::Result<T> {
    let started = std::time::Instant::now();
    loop {
        match open() {
            Err(sled::Error::Io(e)) if is_lock_contention(&e) && started.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// Sled reports a held file lock as an `Other` error with this message.
fn is_lock_contention(e: &std::io::Error) -> bool {
    e.to_string().starts_with("could not acquire lock on")
}

/// The bytes of every key and value of `tree` (one scan).
fn tree_bytes(tree: &sled::Tree) -> Result<u64, StoreError> {
    tree.iter().try_fold(0u64, |sum, entry| entry.map(|(k, v)| sum + entry_bytes(&k, &v)).map_err(sled_failure))
}

/// The handle of `tree` among `trees`.
fn open_tree(trees: &HashMap<Tree, sled::Tree>, tree: Tree) -> Result<&sled::Tree, StoreError> {
    trees.get(&tree).ok_or_else(|| StoreError::Backend(format!("tree {} is not open", tree.name())))
}

/// The bytes of an entry `key` replaced or removed, if there was one.
fn old_bytes(key: &[u8], old: Option<sled::IVec>) -> u64 {
    old.map_or(0, |v| entry_bytes(key, &v))
}

impl Store for SledStore {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree(tree)?.get(key).map_err(sled_failure)?.map(|v| v.to_vec()))
    }

    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.flusher.check_open()?;
            let old = self.tree(tree)?.insert(key, value).map_err(sled_failure)?;
            self.sizes.change(tree, entry_bytes(key, value), old_bytes(key, old));
            self.acknowledge(tree).await
        })
    }

    fn put_all<'a>(&'a self, tree: Tree, entries: &'a [(Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if entries.is_empty() {
                return Ok(());
            }
            self.flusher.check_open()?;
            let handle = self.tree(tree)?;
            for (key, value) in entries {
                let old = handle.insert(key.as_slice(), value.as_slice()).map_err(sled_failure)?;
                self.sizes.change(tree, entry_bytes(key, value), old_bytes(key, old));
            }
            self.acknowledge_writes(tree, entries.len() as u64).await
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
            self.flusher.check_open()?;
            match self.tree(tree)?.compare_and_swap(key, expected, Some(new)).map_err(sled_failure)? {
                Ok(()) => {
                    self.sizes.change(tree, entry_bytes(key, new), expected.map_or(0, |old| entry_bytes(key, old)));
                    self.acknowledge(tree).await?;
                    Ok(Swap::Swapped)
                }
                Err(found) => Ok(Swap::Conflict(found.current.map(|v| v.to_vec()))),
            }
        })
    }

    fn put_atomic<'a>(&'a self, writes: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let Some(&(first, ..)) = writes.first() else { return Ok(()) };
            self.flusher.check_open()?;
            for (tree, ..) in writes {
                self.tree(*tree)?;
            }
            let intent = self.next_intent.fetch_add(1, Ordering::Relaxed).to_be_bytes();
            self.intents.insert(intent, encode_intent(writes)).map_err(sled_failure)?;
            for (tree, key, value) in writes {
                let old = self.tree(*tree)?.insert(key.as_slice(), value.as_slice()).map_err(sled_failure)?;
                self.sizes.change(*tree, entry_bytes(key, value), old_bytes(key, old));
            }
            self.intents.remove(intent).map_err(sled_failure)?;
            let durable = writes.iter().map(|w| w.0).find(|t| t.durability() == Durability::Durable).unwrap_or(first);
            self.acknowledge_writes(durable, writes.len() as u64).await
        })
    }

    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.flusher.check_open()?;
            let old = self.tree(tree)?.remove(key).map_err(sled_failure)?;
            self.sizes.change(tree, 0, old_bytes(key, old));
            self.acknowledge(tree).await
        })
    }

    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Entries, StoreError> {
        self.tree(tree)?
            .scan_prefix(prefix)
            .take(limit)
            .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(sled_failure))
            .collect()
    }

    fn scan_range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        let entries = self.range(tree, start, end)?.into_iter().flatten();
        entries.take(limit).map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(sled_failure)).collect()
    }

    fn scan_sizes(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<KeySizes, StoreError> {
        // A value sled holds is shared, not copied, until `to_vec`: only its length is read.
        let entries = self.range(tree, start, end)?.into_iter().flatten();
        entries.take(limit).map(|r| r.map(|(k, v)| (k.to_vec(), v.len())).map_err(sled_failure)).collect()
    }

    fn delete_all<'a>(&'a self, tree: Tree, keys: &'a [Vec<u8>]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if keys.is_empty() {
                return Ok(());
            }
            self.flusher.check_open()?;
            let handle = self.tree(tree)?;
            for key in keys {
                let old = handle.remove(key.as_slice()).map_err(sled_failure)?;
                self.sizes.change(tree, 0, old_bytes(key, old));
            }
            self.acknowledge(tree).await
        })
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        Box::pin(self.flusher.next_flush())
    }

    fn stored_bytes(&self, tree: Tree) -> Option<u64> {
        self.sizes.get(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count a fresh scan gives.
    fn scanned(store: &SledStore, tree: Tree) -> u64 {
        tree_bytes(store.tree(tree).expect("open")).expect("scans")
    }

    #[test]
    fn opening_waits_for_the_lock_a_dropped_handle_still_holds_and_no_more() {
        fn held<T>() -> sled::Result<T> {
            Err(sled::Error::Io(std::io::Error::other("could not acquire lock on \"db\": WouldBlock")))
        }
        let mut calls = 0;
        let opened = open_waiting_for_lock(
            || {
                calls += 1;
                if calls < 3 {
                    held()
                } else {
                    Ok(calls)
                }
            },
            Duration::from_secs(5),
        );
        assert_eq!(opened.ok(), Some(3), "released on the third attempt");

        let started = std::time::Instant::now();
        let refused: sled::Result<()> = open_waiting_for_lock(held::<()>, Duration::from_millis(100));
        assert!(refused.is_err(), "a lock never released fails");
        assert!(started.elapsed() < Duration::from_secs(2), "after the wait, not forever");

        let mut calls = 0;
        let other: sled::Result<()> = open_waiting_for_lock(
            || {
                calls += 1;
                Err(sled::Error::Io(std::io::Error::other("permission denied")))
            },
            Duration::from_secs(5),
        );
        assert!(other.is_err());
        assert_eq!(calls, 1, "other errors are not retried");
    }

    #[test]
    fn a_database_another_handle_keeps_open_is_refused_after_the_wait() {
        let dir = tempfile::tempdir().expect("temp dir");
        let _open = SledStore::open(dir.path()).expect("opens");
        let config = sled::Config::new().path(dir.path());
        let second = open_waiting_for_lock(|| config.open(), Duration::from_millis(100));
        let error = second.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("could not acquire lock on"), "{error}");
    }

    #[tokio::test]
    async fn an_atomic_write_leaves_no_intent_and_one_a_crash_left_is_applied_whole_at_opening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let writes =
            [(Tree::Orders, b"o1".to_vec(), b"order".to_vec()), (Tree::Carts, b"c1".to_vec(), b"cart".to_vec())];
        store.put_atomic(&writes).await.expect("puts");
        assert_eq!(store.get(Tree::Carts, b"c1").expect("reads"), Some(b"cart".to_vec()));
        assert!(store.intents.is_empty(), "a finished atomic write removes its intent");

        // A crash after the intent was logged, before its writes were applied.
        let pending =
            [(Tree::Orders, b"o2".to_vec(), b"order 2".to_vec()), (Tree::Census, b"k".to_vec(), b"v".to_vec())];
        store.intents.insert(7u64.to_be_bytes(), encode_intent(&pending)).expect("logs");
        store.close().expect("closes");
        drop(store);

        let reopened = SledStore::open(dir.path()).expect("reopens");
        assert_eq!(reopened.get(Tree::Orders, b"o2").expect("reads"), Some(b"order 2".to_vec()));
        assert_eq!(reopened.get(Tree::Census, b"k").expect("reads"), Some(b"v".to_vec()));
        assert_eq!(reopened.stored_bytes(Tree::Census), Some(2), "counted after the intent was applied");
        assert!(reopened.intents.is_empty());
        assert_eq!(reopened.get(Tree::Orders, b"o1").expect("reads"), Some(b"order".to_vec()));
    }

    #[test]
    fn the_store_never_runs_a_sled_transaction_or_batch() {
        // Either one switches every database of the process to sled's process-wide lock
        // (see the module's notes). The calls are spelled in two parts so this test's own
        // text does not match.
        for (file, source) in
            [("sled_store.rs", include_str!("sled_store.rs")), ("intents.rs", include_str!("intents.rs"))]
        {
            for call in [[".transac", "tion("], [".apply_", "batch("], [".check", "sum("]] {
                assert!(!source.contains(&call.concat()), "{file} calls {}", call.concat());
            }
        }
    }

    #[test]
    fn a_damaged_intent_stops_the_opening_with_a_clear_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        {
            let db = sled::open(dir.path()).expect("opens");
            db.open_tree(INTENTS_TREE).expect("opens").insert(b"x", &b"\xff\xff"[..]).expect("writes");
            db.flush().expect("flushes");
        }
        let error = SledStore::open(dir.path()).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("unfinished atomic write") && error.contains("unreadable"), "{error}");
    }

    #[tokio::test]
    async fn telemetry_sizes_follow_every_write_and_removal_and_survive_a_reopen() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        store.put(Tree::Census, b"k1", b"12345").await.expect("puts");
        assert_eq!(store.stored_bytes(Tree::Census), Some(7));
        store.put(Tree::Census, b"k1", b"1").await.expect("replaces");
        assert_eq!(store.stored_bytes(Tree::Census), Some(3), "a replaced value no longer counts");
        let entries = vec![(b"a".to_vec(), b"xx".to_vec()), (b"b".to_vec(), b"yyyy".to_vec())];
        store.put_all(Tree::Perf, &entries).await.expect("puts");
        assert_eq!(store.stored_bytes(Tree::Perf), Some(8));
        let atomic = [(Tree::Errors, b"e".to_vec(), b"123".to_vec()), (Tree::Accounts, b"x".to_vec(), b"y".to_vec())];
        store.put_atomic(&atomic).await.expect("puts");
        assert_eq!(store.stored_bytes(Tree::Errors), Some(4));
        assert_eq!(store.stored_bytes(Tree::Accounts), None, "durable trees are not counted");
        store.delete_all(Tree::Perf, &[b"a".to_vec(), b"missing".to_vec()]).await.expect("removes");
        assert_eq!(store.stored_bytes(Tree::Perf), Some(5));
        store.delete(Tree::Census, b"k1").await.expect("removes");
        store.delete(Tree::Census, b"k1").await.expect("removes nothing");
        assert_eq!(store.stored_bytes(Tree::Census), Some(0));
        for tree in [Tree::Census, Tree::Perf, Tree::Errors] {
            assert_eq!(store.stored_bytes(tree), Some(scanned(&store, tree)), "{tree:?} matches a scan");
        }
        store.close().expect("closes");
        drop(store);

        let reopened = SledStore::open(dir.path()).expect("reopens");
        assert_eq!(reopened.stored_bytes(Tree::Perf), Some(5), "counted again by the scan at opening");
        assert_eq!(reopened.stored_bytes(Tree::Errors), Some(4));
    }
}
