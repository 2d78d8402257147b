//! The telemetry size limit: everything the telemetry trees hold stays under
//! `max_stored_mb`; past it the oldest records are dropped first, never new ones refused.
//!
//! The total is the store's running byte count of the telemetry trees
//! ([`Store::stored_bytes`]), so checking it after every round of writes costs a few
//! atomic loads. Only when the total passes the limit does [`Capacity::enforce`] drop
//! records, on the [`TelemetryWriter`](super::TelemetryWriter)'s thread, until the total
//! is back under [`Capacity::target`] (the limit less a tenth, so a steady flood is
//! answered by a drop every tenth of the limit, not one after every write).
//!
//! Which records are oldest, per tree, as retention reads their time:
//!
//! - census, traces, events, error records (`r/…`): their keys start with the time, so the
//!   oldest are the first keys, read until they hold the bytes to free (a census record,
//!   the hits of one writer round, goes whole and counts as its hits: [`census`](super::census));
//! - performance records (`<pageLoadId>/<record key>`) and visitor sessions (their
//!   `lastSeen`): the tree is walked once per drop pass, keeping the oldest records that
//!   hold the bytes to free.
//!
//! A pass merges those candidates by time and drops from the oldest on, no further than
//! the newest time every tree has shown all of its records up to (a tree that offered
//! only part of its records may hold older ones than another tree's later candidates),
//! until enough bytes are freed: usually in one pass (see [`drop_oldest`]). Error groups, the errors stream's history and the trace journal are not
//! dropped: each is bounded on its own, and they count in the total.

use std::collections::BinaryHeap;

use crate::store::{prefix_end, Store, StoreError, Tree};
use crate::telemetry::census::records_in;
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics;
use crate::telemetry::retention::perf_time;
use crate::telemetry::stored::VisitState;

/// Records read, and removed, in one batch.
pub const DROP_BATCH: usize = 500;
/// Most records one pass considers per tree (bounds the memory of a pass).
pub const MAX_CANDIDATES: usize = 100_000;

/// Bytes in a megabyte (MiB) of the setting.
const MB: u64 = 1024 * 1024;

/// Every telemetry tree, whose bytes make the total.
pub const COUNTED_TREES: [Tree; 7] =
    [Tree::Census, Tree::Traces, Tree::Events, Tree::Errors, Tree::Perf, Tree::VisitorSessions, Tree::TraceJournal];

/// The trees records are dropped from, as the drop counter labels them.
pub const DROPPED_TREES: [&str; 6] = ["census", "traces", "events", "errors", "perf", "visitor_sessions"];

/// Trees whose record keys start with the time, each with the prefix of its records.
const TIME_ORDERED: [(Tree, &[u8]); 4] =
    [(Tree::Census, b""), (Tree::Traces, b""), (Tree::Events, b""), (Tree::Errors, b"r/")];

/// The total telemetry may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Past this many bytes, records are dropped.
    pub limit: u64,
}

/// One record a pass may drop.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    /// Its time (unix ms); 0 when unreadable, so it goes first.
    at: u64,
    /// Its tree's place in [`COUNTED_TREES`].
    tree: usize,
    /// Its key.
    key: Vec<u8>,
    /// Its bytes in the count.
    bytes: u64,
}

impl Capacity {
    /// The limit the settings ask for; `None` when `max_stored_mb` is 0 (no limit).
    pub fn from_limits(limits: &TelemetryLimits) -> Option<Capacity> {
        (limits.max_stored_mb > 0).then(|| Capacity { limit: limits.max_stored_mb.saturating_mul(MB) })
    }

    /// Where a drop stops: a tenth under the limit.
    pub fn target(&self) -> u64 {
        self.limit - self.limit / 10
    }

    /// Drops the oldest records while the total is over the limit, until it is under the
    /// target; returns the records dropped. Nothing is read when under the limit.
    pub async fn enforce(&self, store: &dyn Store) -> Result<u64, StoreError> {
        let mut total = stored(store);
        if total <= self.limit {
            return Ok(0);
        }
        let mut dropped = 0;
        while total > self.target() {
            let records = drop_oldest(store, total - self.target()).await?;
            if records == 0 {
                break;
            }
            dropped += records;
            total = stored(store);
        }
        metrics::stored_bytes(total);
        Ok(dropped)
    }
}

/// The bytes every telemetry tree holds (0 for a store that keeps no count).
pub fn stored(store: &dyn Store) -> u64 {
    COUNTED_TREES.iter().filter_map(|tree| store.stored_bytes(*tree)).sum()
}

/// One pass: drops the oldest records, from every tree, up to `wanted` bytes; returns
/// the records dropped.
///
/// Each tree offers its oldest records up to `wanted` bytes (at most
/// [`MAX_CANDIDATES`]); a tree that holds more than it offered bounds the pass at its
/// newest offered time (its later records may be older than another tree's offers).
/// Since such a tree offered `wanted` bytes up to that bound, one pass frees `wanted`
/// unless a tree hit [`MAX_CANDIDATES`].
async fn drop_oldest(store: &dyn Store, wanted: u64) -> Result<u64, StoreError> {
    let mut candidates = Vec::new();
    let mut horizon = u64::MAX;
    for (tree, prefix) in TIME_ORDERED {
        let (oldest, more) = first_records(store, tree, prefix, wanted)?;
        if more {
            horizon = horizon.min(oldest.last().map_or(u64::MAX, |c| c.at));
        }
        candidates.extend(oldest);
    }
    let perf = |key: &[u8], _: &[u8]| perf_time(key).unwrap_or(0);
    let session = |_: &[u8], value: &[u8]| VisitState::from_bytes(value).map_or(0, |s| s.last_seen);
    for (tree, time) in [(Tree::Perf, &perf as &dyn Fn(&[u8], &[u8]) -> u64), (Tree::VisitorSessions, &session)] {
        let (oldest, more) = walk_oldest(store, tree, time, wanted)?;
        if more {
            horizon = horizon.min(oldest.iter().map(|c| c.at).max().unwrap_or(u64::MAX));
        }
        candidates.extend(oldest);
    }
    candidates.sort();
    let mut chosen: Vec<Vec<Vec<u8>>> = vec![Vec::new(); COUNTED_TREES.len()];
    let mut freed = 0;
    for candidate in candidates {
        if freed >= wanted || candidate.at > horizon {
            break;
        }
        freed += candidate.bytes;
        chosen[candidate.tree].push(candidate.key);
    }
    let mut records = 0;
    for (tree, keys) in COUNTED_TREES.iter().zip(chosen) {
        for chunk in keys.chunks(DROP_BATCH) {
            store.delete_all(*tree, chunk).await?;
            let count = chunk.iter().map(|key| records_in(*tree, key)).sum();
            metrics::dropped_records(tree.name(), count);
            records += count;
        }
    }
    Ok(records)
}

/// The first records under `prefix` of a tree whose keys start with the time, read a
/// batch at a time until they hold `wanted` bytes (or [`MAX_CANDIDATES`] records); and
/// whether the tree holds more.
fn first_records(
    store: &dyn Store,
    tree: Tree,
    prefix: &[u8],
    wanted: u64,
) -> Result<(Vec<Candidate>, bool), StoreError> {
    let slot = slot(tree);
    let end = prefix_end(prefix);
    let mut oldest = Vec::new();
    let mut bytes = 0;
    let mut cursor = prefix.to_vec();
    loop {
        let batch = store.scan_range(tree, &cursor, end.as_deref(), DROP_BATCH)?;
        let done = batch.len() < DROP_BATCH;
        if let Some((last, _)) = batch.last() {
            cursor = [last.as_slice(), &[0]].concat();
        }
        for (key, value) in batch {
            let at = key_time(&key[prefix.len()..]);
            bytes += (key.len() + value.len()) as u64;
            oldest.push(Candidate { at, tree: slot, bytes: (key.len() + value.len()) as u64, key });
        }
        if done {
            return Ok((oldest, false));
        }
        if bytes >= wanted || oldest.len() >= MAX_CANDIDATES {
            return Ok((oldest, true));
        }
    }
}

/// The oldest records of `tree` by `time`, as many as hold `wanted` bytes (at most
/// [`MAX_CANDIDATES`]), walking it all a batch at a time; and whether the tree holds
/// more than those.
fn walk_oldest(
    store: &dyn Store,
    tree: Tree,
    time: &dyn Fn(&[u8], &[u8]) -> u64,
    wanted: u64,
) -> Result<(Vec<Candidate>, bool), StoreError> {
    let slot = slot(tree);
    let mut oldest: BinaryHeap<Candidate> = BinaryHeap::new();
    let mut bytes = 0;
    let mut more = false;
    let mut cursor = Vec::new();
    loop {
        let batch = store.scan_range(tree, &cursor, None, DROP_BATCH)?;
        let done = batch.len() < DROP_BATCH;
        if let Some((last, _)) = batch.last() {
            cursor = [last.as_slice(), &[0]].concat();
        }
        for (key, value) in batch {
            let at = time(&key, &value);
            bytes += (key.len() + value.len()) as u64;
            oldest.push(Candidate { at, tree: slot, bytes: (key.len() + value.len()) as u64, key });
            // Keep only the oldest that still hold `wanted` bytes without the newest of them.
            while oldest
                .peek()
                .is_some_and(|newest| oldest.len() > MAX_CANDIDATES || bytes.saturating_sub(newest.bytes) >= wanted)
            {
                if let Some(newest) = oldest.pop() {
                    bytes -= newest.bytes;
                    more = true;
                }
            }
        }
        if done {
            return Ok((oldest.into_vec(), more));
        }
    }
}

/// A tree's place in [`COUNTED_TREES`].
fn slot(tree: Tree) -> usize {
    COUNTED_TREES.iter().position(|t| *t == tree).unwrap_or(0)
}

/// The time at the start of a record key; 0 when the key is too short.
fn key_time(key: &[u8]) -> u64 {
    key.get(..8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_be_bytes)
}

#[cfg(test)]
mod tests;
