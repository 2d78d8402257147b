//! The `Store` trait: records by kind ([`Tree`]), each kind in its durability class.
//!
//! - **Durable** trees (accounts, sessions, submissions, carts, orders, inventory,
//!   settings, edits): `put` and `delete` resolve only after the write is flushed to disk.
//!   Concurrent writers share one flush (group commit).
//! - **Telemetry** trees (census, errors, traces and the trace journal, performance,
//!   events, visitor sessions): `put` resolves at once; a background flush runs at least
//!   every second, so a crash loses at most the last flush window.
//!
//! Routes never touch sled or Redis: they go through this trait.
//!
//! ## Layout
//!
//! - `sled_store`: [`SledStore`], the embedded implementation.
//! - [`redis_store`]: [`RedisStore`], every tree in Redis (several instances, one store).
//! - `flusher`: group commit, the one thread that flushes for every waiting writer.
//! - [`stalled`]: [`StalledStore`], a test-only wrapper whose writes wait (overload tests).
//! - [`metrics`]: the store's metrics, documented once.
//! - [`sizes`]: the running byte count of each telemetry tree.

mod flusher;
mod intents;
pub mod metrics;
#[cfg(test)]
pub mod probed;
pub mod redis_pool;
pub mod redis_store;
pub mod sizes;
mod sled_store;
pub mod stalled;

use std::future::Future;
use std::pin::Pin;

pub use redis_store::RedisStore;
pub use sled_store::{SledStore, DEFAULT_CACHE_MB, TELEMETRY_FLUSH_INTERVAL};
pub use stalled::StalledStore;

/// A boxed future returned by store operations.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// The kinds of record, one tree each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tree {
    /// Owner, contributor and member accounts.
    Accounts,
    /// Signed-in sessions by session id.
    Sessions,
    /// Form submissions.
    Submissions,
    /// Mailing-list memberships.
    MailingLists,
    /// Shopping carts.
    Carts,
    /// Orders.
    Orders,
    /// Stock per variant.
    Inventory,
    /// Settings changed at run time (header/footer, languages).
    Settings,
    /// Edit events (the edit stream's history).
    Edits,
    /// Visitor sessions (telemetry).
    VisitorSessions,
    /// Census hits (telemetry).
    Census,
    /// JavaScript error records and groups (telemetry).
    Errors,
    /// Trace log entries (telemetry).
    Traces,
    /// Trace log entries acknowledged and not yet in a [`Tree::Traces`] batch (telemetry;
    /// see [`crate::telemetry::traces`]).
    TraceJournal,
    /// Performance records (telemetry).
    Perf,
    /// Analytics events (telemetry).
    Events,
}

/// How a tree's writes are acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Acknowledged only after the write is on disk.
    Durable,
    /// Acknowledged at once; on disk within the flush window (≤ 1 s).
    Telemetry,
}

impl Tree {
    /// Every tree.
    pub const ALL: [Tree; 16] = [
        Tree::Accounts,
        Tree::Sessions,
        Tree::Submissions,
        Tree::MailingLists,
        Tree::Carts,
        Tree::Orders,
        Tree::Inventory,
        Tree::Settings,
        Tree::Edits,
        Tree::VisitorSessions,
        Tree::Census,
        Tree::Errors,
        Tree::Traces,
        Tree::TraceJournal,
        Tree::Perf,
        Tree::Events,
    ];

    /// The tree's name on disk and in metrics.
    pub fn name(self) -> &'static str {
        match self {
            Tree::Accounts => "accounts",
            Tree::Sessions => "sessions",
            Tree::Submissions => "submissions",
            Tree::MailingLists => "mailing_lists",
            Tree::Carts => "carts",
            Tree::Orders => "orders",
            Tree::Inventory => "inventory",
            Tree::Settings => "settings",
            Tree::Edits => "edits",
            Tree::VisitorSessions => "visitor_sessions",
            Tree::Census => "census",
            Tree::Errors => "errors",
            Tree::Traces => "traces",
            Tree::TraceJournal => "trace_journal",
            Tree::Perf => "perf",
            Tree::Events => "events",
        }
    }

    /// The tree's durability class.
    pub fn durability(self) -> Durability {
        match self {
            Tree::VisitorSessions
            | Tree::Census
            | Tree::Errors
            | Tree::Traces
            | Tree::TraceJournal
            | Tree::Perf
            | Tree::Events => Durability::Telemetry,
            _ => Durability::Durable,
        }
    }
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed to read, write or flush.
    #[error("storage failure: {0}")]
    Backend(String),
    /// The store is shutting down and takes no more writes.
    #[error("the store is closed")]
    Closed,
    /// A shared store (Redis) did not answer; the call may be retried.
    #[error("shared store unavailable: {0}")]
    Unavailable(String),
}

/// A sled error as a store failure (the sled store and its intent log).
fn sled_failure(e: sled::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// The first key after every key starting with `prefix`, if any (`None`: the prefix is
/// empty or all `0xff`, so nothing bounds it above): the end of a prefix scan as a range.
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// What [`Store::compare_and_swap`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swap {
    /// The key held the expected value: the new one is written.
    Swapped,
    /// The key held another value (`None`: none at all); nothing was written.
    Conflict(Option<Vec<u8>>),
}

/// Key and value pairs, as scans return them and batches take them.
pub type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// Keys with the length of their values, as [`Store::scan_sizes`] returns them.
pub type KeySizes = Vec<(Vec<u8>, usize)>;

/// Key-value storage by tree.
pub trait Store: Send + Sync + 'static {
    /// The value under `key`, if any.
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;

    /// Writes `value` under `key`; resolves per the tree's durability class.
    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()>;

    /// Removes `key`; resolves per the tree's durability class.
    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()>;

    /// Every entry whose key starts with `prefix`, in key order, at most `limit` of them.
    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Entries, StoreError>;

    /// Every entry with `start <= key < end` (no upper bound when `end` is `None`), in key
    /// order, at most `limit` of them. Reads only the range, never the whole tree.
    fn scan_range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError>;

    /// The keys [`Store::scan_range`] would return, each with its value's length in bytes
    /// instead of the value: for a reader that needs only the keys and their sizes (the
    /// size limit, choosing what to drop), a store that can tell a length without copying
    /// the value overrides it. This default copies the values and keeps their lengths.
    fn scan_sizes(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<KeySizes, StoreError> {
        let entries = self.scan_range(tree, start, end, limit)?;
        Ok(entries.into_iter().map(|(key, value)| (key, value.len())).collect())
    }

    /// Writes every `(key, value)` of `entries` in order (not atomically); resolves per
    /// the tree's durability class once all are written.
    fn put_all<'a>(&'a self, tree: Tree, entries: &'a [(Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            for (key, value) in entries {
                self.put(tree, key, value).await?;
            }
            Ok(())
        })
    }

    /// Writes `value` under `key` unless the key holds a value already (resolving per
    /// the tree's durability class); resolves with the value stored now: `value`, or the
    /// one an earlier writer stored. Instances sharing a store use it for the keys they
    /// must all agree on (the first to start stores it, later ones adopt it).
    fn put_if_absent<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, Vec<u8>> {
        Box::pin(async move {
            if let Some(stored) = self.get(tree, key)? {
                return Ok(stored);
            }
            self.put(tree, key, value).await?;
            Ok(value.to_vec())
        })
    }

    /// Writes `new` under `key` only if the key holds `expected` now (`None`: no value),
    /// in one step no other writer comes between, not even one on another instance
    /// sharing the store; resolves per the tree's durability class. A read-modify-write
    /// of a shared value reads it, changes it and swaps it in, starting over on
    /// [`Swap::Conflict`], so concurrent changes are never lost. This default (read,
    /// compare, write) is atomic only when nobody else writes the key meanwhile; the
    /// stores override it.
    fn compare_and_swap<'a>(
        &'a self,
        tree: Tree,
        key: &'a [u8],
        expected: Option<&'a [u8]>,
        new: &'a [u8],
    ) -> StoreFuture<'a, Swap> {
        Box::pin(async move {
            let current = self.get(tree, key)?;
            if current.as_deref() != expected {
                return Ok(Swap::Conflict(current));
            }
            self.put(tree, key, new).await?;
            Ok(Swap::Swapped)
        })
    }

    /// Writes every `(tree, key, value)` of `writes` in one step a crash cannot split:
    /// after a restart all of them are there or none. Resolves per the strictest
    /// durability class among their trees.
    fn put_atomic<'a>(&'a self, writes: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()>;

    /// Removes every key of `keys`; resolves per the tree's durability class. Not atomic: a
    /// crash may leave some of them, so callers remove what has gone stale and can run again.
    fn delete_all<'a>(&'a self, tree: Tree, keys: &'a [Vec<u8>]) -> StoreFuture<'a, ()>;

    /// Flushes everything written so far.
    fn flush(&self) -> StoreFuture<'_, ()>;

    /// The bytes (keys and values) `tree` holds, where the store keeps count: the
    /// telemetry trees of a [`SledStore`] or a [`RedisStore`]; `None` otherwise.
    fn stored_bytes(&self, tree: Tree) -> Option<u64> {
        let _ = tree;
        None
    }
}
