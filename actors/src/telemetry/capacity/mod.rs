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
//! - performance records (`<pageLoadId>/<record key>`): the tree is walked once per drop
//!   pass, keeping the oldest records that hold the bytes to free;
//! - visitor sessions (their `lastSeen`): those whose key starts with the millisecond their
//!   visitor first came ([`session_key`](crate::telemetry::stored::session_key): the server's
//!   and the loader's ids) are read in key order, keeping the oldest, until that millisecond
//!   passes the newest kept: no session is last seen before its visitor first came, so none
//!   further on is older. The others (ids that tell no time, or claim a time more than
//!   [`CLOCK_AHEAD_MS`] past the server's clock) are walked, as performance records are.
//!   A session whose id claims a later time than its last hit (a client whose clock was
//!   ahead when it made the id) counts as seen at that time.
//!
//! A pass merges those candidates by time and drops from the oldest on, no further than
//! the newest time every tree has shown all of its records up to (a tree that offered
//! only part of its records may hold older ones than another tree's later candidates),
//! until enough bytes are freed: usually in one pass (see [`drop_oldest`]). It reads the
//! keys and value lengths of the trees it may drop from ([`Store::scan_sizes`]), and
//! the values of sessions only, for their `lastSeen`. Error groups, the errors stream's
//! history and the trace journal are not dropped: each is bounded on its own, and they
//! count in the total.

use std::time::{Duration, Instant};

use crate::store::{Store, StoreError, Tree};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics;

mod pass;

use pass::{Carried, DropPass};

/// Records read, and removed, in one batch of a drop made at once.
pub const DROP_BATCH: usize = 500;
/// Records read, or removed, in one step of a [`Dropper`]: a step takes a few hundred
/// microseconds, after which the writer offers its core to the request threads.
pub const STEP_BATCH: usize = 128;
/// Most records one pass considers per tree (bounds the memory of a pass: about 120 bytes
/// a candidate with a visitor id's key, so some 48 MB for a walked tree at the bound, and
/// never more than about twice the bytes the pass frees). A walk reads a whole tree and
/// yields at most this many: a flood of new visitors at a 1 GiB limit drops tens of
/// thousands of sessions a second, and with a bound of 100,000 each pass walked the few
/// million sessions more than once (`benches/reports/telemetry.md`).
pub const MAX_CANDIDATES: usize = 400_000;

/// How many times a round's time a [`Dropper`] works after it once the total reaches
/// [`Capacity::ceiling`]: once at the limit, and in between in proportion to how far past the
/// limit the total is (see [`Dropper::pace`]), but never more than [`PACE_MOST_EXTRA`] past
/// the round's own time. Dropping a record costs the writer about as much as storing it and
/// choosing which to drop costs more, so a dropper held to the round's time fell behind a
/// steady flood of new visitors and the total climbed to the ceiling, where the rest of the
/// drop is made at once, holding the writer, and every request queueing a record, up for a
/// tenth of the limit's drops (`benches/reports/telemetry.md`, "At the size limit").
pub const PACE_AT_CEILING: u32 = 8;
/// The most a [`Dropper`] works after a round beyond the round's own time. A multiple alone
/// delays the next round by that multiple, whose jobs then take longer still: at the 1 GiB
/// limit the rounds grew until the writer's queue filled. With this bound, a long round is
/// followed by at most its own time and this much more of drops.
pub const PACE_MOST_EXTRA: Duration = Duration::from_millis(8);

/// How far past the server's clock the time a session key starts with may be, for the
/// session to be read in key order: a client whose clock is ahead by more, or an id made up
/// to claim a time to come, would otherwise keep its session from ever being reached.
pub const CLOCK_AHEAD_MS: u64 = 60_000;

/// Bytes in a megabyte (MiB) of the setting.
const MB: u64 = 1024 * 1024;

/// Every telemetry tree, whose bytes make the total.
pub const COUNTED_TREES: [Tree; 7] =
    [Tree::Census, Tree::Traces, Tree::Events, Tree::Errors, Tree::Perf, Tree::VisitorSessions, Tree::TraceJournal];

/// The trees records are dropped from, as the drop counter labels them.
pub const DROPPED_TREES: [&str; 6] = ["census", "traces", "events", "errors", "perf", "visitor_sessions"];

/// The total telemetry may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Past this many bytes, records are dropped.
    pub limit: u64,
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

    /// Past this total (the limit and a tenth) a drop is made at once, whatever it holds
    /// the writer up for: the bound on the disk, when drops a step at a time ([`Dropper`])
    /// fall behind the writes.
    pub fn ceiling(&self) -> u64 {
        self.limit.saturating_add(self.limit / 10)
    }

    /// Drops the oldest records while the total is over the limit, until it is under the
    /// target, in one go; returns the records dropped. Nothing is read when under the limit.
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

/// One whole pass: drops the oldest records, from every tree, up to `wanted` bytes;
/// returns the records dropped (see [`DropPass`]).
async fn drop_oldest(store: &dyn Store, wanted: u64) -> Result<u64, StoreError> {
    let mut pass = DropPass::new(wanted);
    while !pass.step(store).await? {}
    Ok(pass.records)
}

/// The size limit kept a step at a time between the writer's rounds of writes.
///
/// A pass over a full store reads and drops tens of thousands of
/// records: done in one go it held the writer, and so every request queueing a record,
/// for seconds (`benches/reports/telemetry.md`). Here a pass starts once the total passes
/// the limit and goes one [`STEP_BATCH`] at a time, the writer writing what came in
/// between two steps, for longer the further past the limit the total is
/// ([`Dropper::pace`]); past [`Capacity::ceiling`] the rest is dropped at once.
#[derive(Debug)]
pub struct Dropper {
    capacity: Capacity,
    pass: Option<DropPass>,
    /// The total when a pass last found nothing to drop (only what is never dropped, see
    /// the module's description): no pass starts again until more is written.
    stuck_at: Option<u64>,
    /// The offers of the walked trees a pass left (see [`DropPass::carried`]).
    carried: Carried,
}

impl Dropper {
    /// A dropper keeping `capacity`, no pass under way.
    pub fn new(capacity: Capacity) -> Dropper {
        Dropper { capacity, pass: None, stuck_at: None, carried: Vec::new() }
    }

    /// Whether a pass is under way.
    pub fn busy(&self) -> bool {
        self.pass.is_some()
    }

    /// Steps for about `budget`, more the further past the limit the total is
    /// ([`pace`](Self::pace)), and at least one step when a pass is due or under way,
    /// offering the core to other threads after each; returns whether a pass is still
    /// under way.
    pub async fn work(&mut self, store: &dyn Store, budget: Duration) -> Result<bool, StoreError> {
        let until = Instant::now() + self.pace(stored(store), budget);
        while self.step(store).await? {
            // The kernel lets a running thread finish its time slice: a request thread woken
            // up on this core would wait that out (as for the writer's rounds, `round.rs`).
            std::thread::yield_now();
            if Instant::now() >= until {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The time a dropper works for after a round of writes that took `round`, with the
    /// total at `total`: `round` up to the limit, then a multiple of it rising in proportion to
    /// how far past the limit the total is, to [`PACE_AT_CEILING`] times at the ceiling and
    /// past it, and never more than `round` and [`PACE_MOST_EXTRA`].
    pub fn pace(&self, total: u64, round: Duration) -> Duration {
        let over = total.saturating_sub(self.capacity.limit);
        let band = self.capacity.ceiling().saturating_sub(self.capacity.limit).max(1);
        let share = over.min(band) as f64 / band as f64;
        round.mul_f64(1.0 + f64::from(PACE_AT_CEILING - 1) * share).min(round + PACE_MOST_EXTRA)
    }

    /// One step: of the pass under way, or of one started now that the total is over the
    /// limit; past the ceiling, the whole drop at once. Returns whether a pass is still
    /// under way.
    pub async fn step(&mut self, store: &dyn Store) -> Result<bool, StoreError> {
        let total = stored(store);
        if total > self.capacity.ceiling() {
            self.pass = None;
            metrics::drop_made_at_once();
            self.capacity.enforce(store).await?;
            return Ok(false);
        }
        let due = total > self.capacity.limit && self.stuck_at.is_none_or(|stuck| total > stuck);
        let pass = match &mut self.pass {
            Some(pass) => pass,
            None if due => {
                let carried = std::mem::take(&mut self.carried);
                self.pass.insert(DropPass::carrying(total - self.capacity.target(), carried, STEP_BATCH))
            }
            None => return Ok(false),
        };
        let finished = match pass.step(store).await {
            Ok(finished) => finished,
            Err(error) => {
                // A pass starts over once more is written, rather than this one failing again
                // at once, step after step, while the writer has nothing else to do.
                self.pass = None;
                self.stuck_at = Some(total);
                return Err(error);
            }
        };
        if finished {
            // The next pass starts when the total passes the limit again: what was written
            // during this one comes out of the tenth it freed.
            let records = pass.records;
            self.carried = pass.left_over();
            self.pass = None;
            let total = stored(store);
            self.stuck_at = (records == 0).then_some(total);
            metrics::stored_bytes(total);
        }
        Ok(self.pass.is_some())
    }

    /// Drops the rest at once (the writer drains): ends the pass under way and keeps the
    /// limit as [`Capacity::enforce`] does.
    pub async fn finish(&mut self, store: &dyn Store) -> Result<u64, StoreError> {
        self.pass = None;
        self.stuck_at = None;
        self.carried.clear();
        self.capacity.enforce(store).await
    }
}

#[cfg(test)]
mod tests;
