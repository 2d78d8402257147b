//! One drop pass of the size limit: which records of each tree are the oldest (read in key
//! order, walked, or carried from the last pass), merged by time and dropped a batch a step.

use std::collections::BinaryHeap;

use super::{CLOCK_AHEAD_MS, DROP_BATCH, MAX_CANDIDATES};
use crate::store::{prefix_end, Store, StoreError, Tree};
use crate::telemetry::census::records_in;
use crate::telemetry::metrics;
use crate::telemetry::records::now_ms;
use crate::telemetry::retention::perf_time;
use crate::telemetry::stored::{session_made_at, VisitState};

/// The trees a pass reads, in order: those whose record keys start with the time (with the
/// prefix of their records; their first records are the oldest), then the others; the
/// visitor sessions in two parts.
pub(super) const PASS_TREES: [(Tree, Order); 7] = [
    (Tree::Census, Order::KeyTime(b"")),
    (Tree::Traces, Order::KeyTime(b"")),
    (Tree::Events, Order::KeyTime(b"")),
    (Tree::Errors, Order::KeyTime(b"r/")),
    (Tree::Perf, Order::Walk),
    (Tree::VisitorSessions, Order::FirstCame),
    (Tree::VisitorSessions, Order::Untimed),
];

/// How a tree's records are ordered by time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// Keys start (after the prefix) with the time: the first records are the oldest.
    KeyTime(&'static [u8]),
    /// Keys say nothing of the time: every record is read to find the oldest.
    Walk,
    /// Sessions whose keys start with the time their visitor first came, up to the pass's
    /// split ([`DropPass::split`]): no session is last seen before that time, so a reading
    /// in key order can stop once it passes the newest session kept.
    FirstCame,
    /// The other sessions, from the split on: walked as [`Order::Walk`].
    Untimed,
}

impl Order {
    /// Whether a tree read this way offers its oldest records only once it is read whole
    /// (or as far as their time allows), keeping them newest on top to let go.
    fn keeps_oldest(self) -> bool {
        !matches!(self, Order::KeyTime(_))
    }

    /// Whether the offers left of a tree read this way are carried to the next pass: the
    /// trees that are read whole.
    fn carried(self) -> bool {
        matches!(self, Order::Walk | Order::Untimed)
    }
}

/// One record a pass may drop. Ordered by time, then by when the pass read it (so two
/// records of the same millisecond never compare their keys).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Candidate {
    /// Its time (unix ms); 0 when unreadable, so it goes first.
    pub(super) at: u64,
    /// Its place in the pass's reading.
    seq: u64,
    /// Its tree's place in [`PASS_TREES`].
    tree: usize,
    /// Its key.
    key: Vec<u8>,
    /// Its bytes in the count.
    bytes: u64,
    /// A session's `lastSeen` as read (0 when unreadable), by which a pass tells whether it
    /// was written again since; 0 for other records.
    seen: u64,
}

/// A walked tree's oldest records, oldest first, as a pass read them and did not drop, by
/// [`PASS_TREES`] slot.
pub(super) type Carried = Vec<Option<Vec<Candidate>>>;

/// One drop pass: first reads each tree a batch a step, keeping its oldest records up to
/// the bytes wanted, then drops them a batch a step, oldest first across the trees.
///
/// Each tree offers its oldest records up to `wanted` bytes (at most [`MAX_CANDIDATES`]);
/// a tree that holds more than it offered bounds the pass at its newest offered time (its
/// later records may be older than another tree's offers). Since such a tree offered
/// `wanted` bytes up to that bound, one pass frees `wanted` unless a tree hit
/// [`MAX_CANDIDATES`].
///
/// Records written between two steps are newer than every candidate except a visitor
/// session written again (the visitor came back): a session is dropped only if it still
/// holds the time it was chosen by.
///
/// Walking a tree is the dear part of a pass (every record is read to find the oldest), and
/// a pass drops only part of what it offers (the census takes most of the bytes), so the
/// offers a walked tree (or the walked sessions) has left are carried to the next pass,
/// which does not walk it again until they are used up. They are still its oldest records:
/// every record not among them was newer when they were read, or written since. The next
/// pass drops no record newer than the newest of them (its horizon), since the tree may
/// hold records written since that are older than another tree's offers.
#[derive(Debug)]
pub(super) struct DropPass {
    wanted: u64,
    /// Records read, or dropped, in one step.
    batch: usize,
    /// Offers of walked trees carried from the last pass, by [`PASS_TREES`] slot.
    carried: Carried,
    /// The tree being read ([`PASS_TREES`]); past the last, the pass drops.
    pub(super) reading: usize,
    /// Where its reading resumes.
    cursor: Vec<u8>,
    /// Its oldest records so far (a walked tree's: the newest on top, to be let go) and their bytes.
    oldest: BinaryHeap<Candidate>,
    bytes: u64,
    /// Whether it holds more than it offers.
    more: bool,
    /// Each tree's offers, oldest first, and how many of them were taken.
    offers: Vec<(Vec<Candidate>, usize)>,
    /// The newest time the pass may drop up to.
    horizon: u64,
    /// Where the sessions read in key order end and the walked ones begin: the key time
    /// [`CLOCK_AHEAD_MS`] past the server's clock when the pass began.
    split: [u8; 8],
    /// Records read so far.
    seq: u64,
    /// Bytes dropped so far.
    freed: u64,
    /// Records dropped so far (a census record counts its hits).
    pub(super) records: u64,
}

impl DropPass {
    pub(super) fn new(wanted: u64) -> DropPass {
        DropPass::carrying(wanted, Vec::new(), DROP_BATCH)
    }

    /// A pass that takes the walked trees' `carried` offers instead of walking them, and
    /// reads or drops `batch` records a step.
    pub(super) fn carrying(wanted: u64, carried: Carried, batch: usize) -> DropPass {
        DropPass {
            wanted,
            batch,
            carried,
            reading: 0,
            cursor: Vec::new(),
            oldest: BinaryHeap::new(),
            bytes: 0,
            more: false,
            offers: Vec::with_capacity(PASS_TREES.len()),
            horizon: u64::MAX,
            split: now_ms().saturating_add(CLOCK_AHEAD_MS).to_be_bytes(),
            seq: 0,
            freed: 0,
            records: 0,
        }
    }

    /// One step (a batch read or a batch dropped); true once the pass is done.
    pub(super) async fn step(&mut self, store: &dyn Store) -> Result<bool, StoreError> {
        if self.reading < PASS_TREES.len() {
            self.read(store)?;
            return Ok(false);
        }
        self.drop_batch(store).await
    }

    /// The offers of the walked trees this pass did not drop.
    pub(super) fn left_over(&mut self) -> Carried {
        let mut left = Vec::with_capacity(PASS_TREES.len());
        for (slot, (offers, used)) in self.offers.iter_mut().enumerate() {
            let carried = PASS_TREES[slot].1.carried();
            let rest = if carried && *used < offers.len() { Some(offers.split_off(*used)) } else { None };
            left.push(rest);
        }
        left
    }

    /// Reads the next batch of the tree being read; moves to the next tree when it is read
    /// as far as needed. A walked tree with offers carried from the last pass is not read.
    fn read(&mut self, store: &dyn Store) -> Result<(), StoreError> {
        let (tree, order) = PASS_TREES[self.reading];
        if let Some(offers) = self.carried.get_mut(self.reading).and_then(Option::take) {
            self.horizon = self.horizon.min(offers.last().map_or(u64::MAX, |c| c.at));
            self.offers.push((offers, 0));
            self.reading += 1;
            return Ok(());
        }
        let (start, end) = self.range(order);
        if self.cursor.is_empty() {
            self.cursor = start;
        }
        // Each record's key, its value's length and, for a session, when it was last seen:
        // only a session's value is read, the others' (a census record holds a writer
        // round's hits) are not copied out of the store.
        let batch: Vec<(Vec<u8>, usize, u64)> = if tree == Tree::VisitorSessions {
            let entries = store.scan_range(tree, &self.cursor, end.as_deref(), self.batch)?;
            let seen = |value: &[u8]| VisitState::from_bytes(value).map_or(0, |s| s.last_seen);
            entries.into_iter().map(|(key, value)| (key, value.len(), seen(&value))).collect()
        } else {
            let sizes = store.scan_sizes(tree, &self.cursor, end.as_deref(), self.batch)?;
            sizes.into_iter().map(|(key, len)| (key, len, 0)).collect()
        };
        let mut done = batch.len() < self.batch;
        if let Some((last, _, _)) = batch.last() {
            self.cursor = [last.as_slice(), &[0]].concat();
        }
        for (key, len, seen) in batch {
            let at = match order {
                Order::KeyTime(prefix) => key_time(&key[prefix.len()..]),
                Order::Walk => perf_time(&key).unwrap_or(0),
                Order::FirstCame => seen.max(session_made_at(&key).unwrap_or(0)),
                Order::Untimed => seen,
            };
            let bytes = (key.len() + len) as u64;
            self.seq += 1;
            if order.keeps_oldest() {
                let full = self.oldest.len() >= MAX_CANDIDATES || self.bytes >= self.wanted;
                let newest = self.oldest.peek().map(|newest| (newest.at, newest.seq));
                if full
                    && order == Order::FirstCame
                    && newest.is_some_and(|(time, _)| session_made_at(&key) >= Some(time))
                {
                    // Every session from here on was last seen no earlier than its key's time,
                    // so after every one kept: the reading ends.
                    self.more = true;
                    done = true;
                    break;
                }
                // Newer than every record kept, when the kept ones are enough: it would be
                // let go at once, so it is not kept at all.
                if full && newest.is_some_and(|newest| (at, self.seq) > newest) {
                    self.more = true;
                    continue;
                }
            }
            self.bytes += bytes;
            self.oldest.push(Candidate { at, seq: self.seq, tree: self.reading, bytes, key, seen });
            if order.keeps_oldest() {
                // Keep only the oldest that still hold `wanted` bytes without the newest of them.
                while self.oldest.peek().is_some_and(|newest| {
                    self.oldest.len() > MAX_CANDIDATES || self.bytes.saturating_sub(newest.bytes) >= self.wanted
                }) {
                    if let Some(newest) = self.oldest.pop() {
                        self.bytes -= newest.bytes;
                        self.more = true;
                    }
                }
            }
        }
        let enough =
            !order.keeps_oldest() && !done && (self.bytes >= self.wanted || self.oldest.len() >= MAX_CANDIDATES);
        if done || enough {
            self.more |= enough;
            let offers = std::mem::take(&mut self.oldest).into_sorted_vec();
            if self.more {
                self.horizon = self.horizon.min(offers.last().map_or(u64::MAX, |c| c.at));
            }
            self.offers.push((offers, 0));
            self.reading += 1;
            self.cursor.clear();
            self.bytes = 0;
            self.more = false;
        }
        Ok(())
    }

    /// The keys a tree read in `order` is read from, and where they end.
    fn range(&self, order: Order) -> (Vec<u8>, Option<Vec<u8>>) {
        match order {
            Order::KeyTime(prefix) => (prefix.to_vec(), prefix_end(prefix)),
            Order::Walk => (Vec::new(), None),
            Order::FirstCame => (Vec::new(), Some(self.split.to_vec())),
            Order::Untimed => (self.split.to_vec(), None),
        }
    }

    /// Drops the next batch of the oldest offers; true once the pass is done.
    async fn drop_batch(&mut self, store: &dyn Store) -> Result<bool, StoreError> {
        let mut chosen: Vec<Vec<Candidate>> = vec![Vec::new(); PASS_TREES.len()];
        let mut taken = 0;
        let mut done = false;
        while taken < self.batch {
            let next = self
                .offers
                .iter()
                .enumerate()
                .filter_map(|(tree, (offers, used))| offers.get(*used).map(|c| (c.at, c.seq, tree)))
                .min();
            let Some((at, _, tree)) = next else {
                done = true;
                break;
            };
            if self.freed >= self.wanted || at > self.horizon {
                done = true;
                break;
            }
            let (offers, used) = &mut self.offers[tree];
            let candidate = std::mem::take(&mut offers[*used]);
            *used += 1;
            self.freed += candidate.bytes;
            chosen[tree].push(candidate);
            taken += 1;
        }
        for (slot, candidates) in chosen.into_iter().enumerate() {
            if candidates.is_empty() {
                continue;
            }
            let tree = PASS_TREES[slot].0;
            let keys: Vec<Vec<u8>> = if tree == Tree::VisitorSessions {
                let (keys, changed) = still_as_chosen(store, candidates)?;
                // Not dropped, so not freed: the pass goes on for those bytes.
                self.freed = self.freed.saturating_sub(changed);
                keys
            } else {
                candidates.into_iter().map(|c| c.key).collect()
            };
            store.delete_all(tree, &keys).await?;
            let count = keys.iter().map(|key| records_in(tree, key)).sum();
            metrics::dropped_records(tree.name(), count);
            self.records += count;
        }
        Ok(done)
    }
}

/// The keys of the sessions among `candidates` that still hold the time they were chosen
/// by (one written again since, by a visitor coming back, is no longer among the oldest),
/// and the bytes of the others.
fn still_as_chosen(store: &dyn Store, candidates: Vec<Candidate>) -> Result<(Vec<Vec<u8>>, u64), StoreError> {
    let mut keys = Vec::with_capacity(candidates.len());
    let mut changed = 0;
    for candidate in candidates {
        let now = store.get(Tree::VisitorSessions, &candidate.key)?;
        let seen = now.as_deref().map(|value| VisitState::from_bytes(value).map_or(0, |s| s.last_seen));
        if seen == Some(candidate.seen) {
            keys.push(candidate.key);
        } else {
            changed += candidate.bytes;
        }
    }
    Ok((keys, changed))
}

/// The time at the start of a record key; 0 when the key is too short.
pub(super) fn key_time(key: &[u8]) -> u64 {
    key.get(..8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_be_bytes)
}
