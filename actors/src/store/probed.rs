//! [`ProbedStore`]: a test-only sled store that counts its reads and can fail its scans on
//! demand, for tests of what a caller does with the store's answers.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::{Entries, KeySizes, SledStore, Store, StoreError, StoreFuture, Tree};

/// A sled store counting its reads (`get`), the sessions its scans read and the value bytes
/// they copy, whose range scans fail while `failing_scans` is set.
pub struct ProbedStore {
    inner: SledStore,
    /// Reads so far.
    pub reads: AtomicUsize,
    /// While set, `scan_range` answers a backend failure.
    pub failing_scans: AtomicBool,
    /// Visitor sessions its range scans have returned so far.
    pub scanned_sessions: AtomicUsize,
    /// Bytes of the values its range scans have returned so far.
    pub scanned_value_bytes: AtomicUsize,
}

impl ProbedStore {
    /// Wraps `inner`, counting from 0, scans answering.
    pub fn new(inner: SledStore) -> ProbedStore {
        ProbedStore {
            inner,
            reads: AtomicUsize::new(0),
            failing_scans: AtomicBool::new(false),
            scanned_sessions: AtomicUsize::new(0),
            scanned_value_bytes: AtomicUsize::new(0),
        }
    }

    /// A range scan of `tree` by `read`: a failure while `failing_scans` is set, else its
    /// answer, counting the sessions it returns.
    fn scan<T>(&self, tree: Tree, read: impl FnOnce() -> Result<Vec<T>, StoreError>) -> Result<Vec<T>, StoreError> {
        if self.failing_scans.load(Ordering::Relaxed) {
            return Err(StoreError::Backend("the disk is gone".into()));
        }
        let found = read()?;
        if tree == Tree::VisitorSessions {
            self.scanned_sessions.fetch_add(found.len(), Ordering::Relaxed);
        }
        Ok(found)
    }
}

impl Store for ProbedStore {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.inner.get(tree, key)
    }
    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()> {
        self.inner.put(tree, key, value)
    }
    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()> {
        self.inner.delete(tree, key)
    }
    fn put_atomic<'a>(&'a self, writes: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        self.inner.put_atomic(writes)
    }
    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Entries, StoreError> {
        self.inner.scan_prefix(tree, prefix, limit)
    }
    fn scan_range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        let entries = self.scan(tree, || self.inner.scan_range(tree, start, end, limit))?;
        let value_bytes = entries.iter().map(|(_, value)| value.len()).sum();
        self.scanned_value_bytes.fetch_add(value_bytes, Ordering::Relaxed);
        Ok(entries)
    }
    fn scan_sizes(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<KeySizes, StoreError> {
        self.scan(tree, || self.inner.scan_sizes(tree, start, end, limit))
    }
    fn delete_all<'a>(&'a self, tree: Tree, keys: &'a [Vec<u8>]) -> StoreFuture<'a, ()> {
        self.inner.delete_all(tree, keys)
    }
    fn flush(&self) -> StoreFuture<'_, ()> {
        self.inner.flush()
    }
    fn stored_bytes(&self, tree: Tree) -> Option<u64> {
        self.inner.stored_bytes(tree)
    }
}
