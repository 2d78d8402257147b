//! The sled implementation of [`Store`](super::Store), with group commit.
//!
//! Durable writes are applied to sled, then wait for the next flush that starts after
//! them (see [`flusher`](super::flusher)); concurrent writers share that flush.
//! Telemetry writes are acknowledged at once and flushed by the periodic flush, which
//! runs at the latest [`TELEMETRY_FLUSH_INTERVAL`] after the previous flush started:
//! a crash loses at most the telemetry of that interval plus one flush duration
//! (under a second on any working disk). [`SledStore::close`] and `Drop` flush
//! everything before the database closes.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use sled::Transactional;

use super::flusher::Flusher;
use super::metrics::StoreMetric;
use super::{Durability, Entries, Store, StoreError, StoreFuture, Tree};

/// The longest a telemetry write waits for a flush (the documented loss window, less
/// the flush's own duration).
pub const TELEMETRY_FLUSH_INTERVAL: Duration = Duration::from_millis(500);

/// Sled, one tree per kind of record.
pub struct SledStore {
    /// The database.
    db: sled::Db,
    /// One open handle per tree, opened once.
    trees: HashMap<Tree, sled::Tree>,
    /// The group-commit flusher thread.
    flusher: Flusher,
}

impl SledStore {
    /// Opens (or creates) the database in `dir`.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        Self::open_with_interval(dir, TELEMETRY_FLUSH_INTERVAL)
    }

    /// Opens the database with a different telemetry flush interval.
    pub fn open_with_interval(dir: &Path, telemetry_interval: Duration) -> Result<SledStore, StoreError> {
        let db = sled::Config::new()
            .path(dir)
            // The flusher below owns every flush; sled's own timer would only add some.
            .flush_every_ms(None)
            .open()
            .map_err(|e| StoreError::Backend(format!("{}: {e}", dir.display())))?;
        let mut trees = HashMap::with_capacity(Tree::ALL.len());
        for tree in Tree::ALL {
            trees.insert(tree, db.open_tree(tree.name()).map_err(backend)?);
        }
        let flusher = Flusher::start(db.clone(), telemetry_interval)?;
        Ok(SledStore { db, trees, flusher })
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
        self.trees.get(&tree).ok_or_else(|| StoreError::Backend(format!("tree {} is not open", tree.name())))
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

fn backend(e: sled::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl Store for SledStore {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree(tree)?.get(key).map_err(backend)?.map(|v| v.to_vec()))
    }

    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.flusher.check_open()?;
            self.tree(tree)?.insert(key, value).map_err(backend)?;
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
                handle.insert(key.as_slice(), value.as_slice()).map_err(backend)?;
            }
            self.acknowledge_writes(tree, entries.len() as u64).await
        })
    }

    fn put_atomic<'a>(&'a self, writes: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let Some(&(first, ..)) = writes.first() else { return Ok(()) };
            self.flusher.check_open()?;
            let mut trees: Vec<Tree> = Vec::new();
            for (tree, ..) in writes {
                if !trees.contains(tree) {
                    trees.push(*tree);
                }
            }
            let handles = trees.iter().map(|t| self.tree(*t).cloned()).collect::<Result<Vec<_>, _>>()?;
            handles
                .as_slice()
                .transaction(|views| {
                    for (tree, key, value) in writes {
                        // Every tree of `writes` is in `trees`, in the order of `views`.
                        let at = trees.iter().position(|t| t == tree).unwrap_or(0);
                        views[at].insert(key.as_slice(), value.as_slice())?;
                    }
                    Ok::<(), sled::transaction::ConflictableTransactionError<()>>(())
                })
                .map_err(|e| StoreError::Backend(format!("an atomic write failed: {e:?}")))?;
            let durable = trees.iter().copied().find(|t| t.durability() == Durability::Durable).unwrap_or(first);
            self.acknowledge_writes(durable, writes.len() as u64).await
        })
    }

    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.flusher.check_open()?;
            self.tree(tree)?.remove(key).map_err(backend)?;
            self.acknowledge(tree).await
        })
    }

    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Entries, StoreError> {
        self.tree(tree)?
            .scan_prefix(prefix)
            .take(limit)
            .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(backend))
            .collect()
    }

    fn scan_range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        let tree = self.tree(tree)?;
        let entries = match end {
            Some(end) if end <= start => return Ok(Vec::new()),
            Some(end) => tree.range(start..end),
            None => tree.range(start..),
        };
        entries.take(limit).map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(backend)).collect()
    }

    fn delete_all<'a>(&'a self, tree: Tree, keys: &'a [Vec<u8>]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if keys.is_empty() {
                return Ok(());
            }
            self.flusher.check_open()?;
            let mut batch = sled::Batch::default();
            for key in keys {
                batch.remove(key.as_slice());
            }
            self.tree(tree)?.apply_batch(batch).map_err(backend)?;
            self.acknowledge(tree).await
        })
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        Box::pin(self.flusher.next_flush())
    }
}
