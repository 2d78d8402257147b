//! Retention: telemetry records older than `retention_days` leave the store, so the
//! telemetry trees do not grow without bound.
//!
//! The [`Sweeper`] works in steps, each touching at most [`SWEEP_BATCH`] keys per tree, so
//! it runs between ingest writes on the [`TelemetryWriter`](super::TelemetryWriter)'s
//! thread without stalling them. How old a record is comes from its key
//! ([`record_key`](super::records::record_key) starts with the time):
//!
//! - census, traces, events: keys are record keys; old ones are one key range.
//! - errors: records are `r/<record key>`, one key range; groups (`g/<fingerprint>`) are
//!   kept while their `lastSeen` is inside the window.
//! - performance: keys are `<pageLoadId>/<record key>`, so the time is not a prefix; the
//!   tree is walked with a cursor, a batch per step.
//!
//! - visitor sessions: keys are visitor ids; a session whose `lastSeen` is older than the
//!   window goes (walked with a cursor). A visitor coming back later starts a new session
//!   from their cookies, as after any other loss of the server's record.

use std::time::Duration;

use crate::store::{Store, StoreError, Tree};
use crate::telemetry::census::records_in;
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics;
use crate::telemetry::stored::ErrorGroup;
use crate::telemetry::stored::VisitState;

/// Most keys one step reads and removes per tree.
pub const SWEEP_BATCH: usize = 500;

/// Pause between two steps of one sweep, so queued ingest writes go first.
pub const STEP_PAUSE: Duration = Duration::from_millis(20);

/// Milliseconds in a day.
const DAY_MS: u64 = 86_400_000;

/// The errors tree's record prefix.
const ERROR_RECORD_PREFIX: &[u8] = b"r/";
/// The errors tree's group prefix.
const ERROR_GROUP_PREFIX: &[u8] = b"g/";
/// The first key after every group key (`'0'` follows `'/'`).
const ERROR_GROUP_END: &[u8] = b"g0";

/// Trees whose record keys start with the time, each with the prefix of its records.
const TIME_ORDERED: [(Tree, &[u8]); 4] =
    [(Tree::Census, b""), (Tree::Traces, b""), (Tree::Events, b""), (Tree::Errors, ERROR_RECORD_PREFIX)];

/// The trees the sweep removes records from.
pub const SWEPT_TREES: [&str; 6] = ["census", "traces", "events", "errors", "perf", "visitor_sessions"];

/// How long telemetry is kept and how often the sweep runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Records older than this many milliseconds are removed.
    pub window_ms: u64,
    /// Time between the starts of two sweeps.
    pub every: Duration,
}

impl Retention {
    /// The retention the limits ask for; `None` when `retention_days` is 0 (keep forever).
    pub fn from_limits(limits: &TelemetryLimits) -> Option<Retention> {
        (limits.retention_days > 0).then(|| Retention {
            window_ms: u64::from(limits.retention_days) * DAY_MS,
            every: Duration::from_secs(limits.retention_sweep_secs.max(1)),
        })
    }

    /// The oldest time (unix ms) still kept at `now`.
    pub fn cutoff(&self, now: u64) -> u64 {
        now.saturating_sub(self.window_ms)
    }
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Records removed in this step (a census record counts its hits).
    pub removed: u64,
    /// Whether the sweep is complete (nothing old is left that this sweep could see).
    pub done: bool,
}

/// Removes old telemetry, a bounded step at a time.
#[derive(Debug)]
pub struct Sweeper {
    /// The window.
    retention: Retention,
    /// Where the walk of the error groups resumes (empty: from the start).
    group_cursor: Vec<u8>,
    /// Where the walk of the performance tree resumes (empty: from the start).
    perf_cursor: Vec<u8>,
    /// Where the walk of the visitor sessions resumes (empty: from the start).
    session_cursor: Vec<u8>,
}

impl Sweeper {
    /// A sweeper for `retention`, at the start of a sweep.
    pub fn new(retention: Retention) -> Sweeper {
        Sweeper { retention, group_cursor: Vec::new(), perf_cursor: Vec::new(), session_cursor: Vec::new() }
    }

    /// The retention it applies.
    pub fn retention(&self) -> Retention {
        self.retention
    }

    /// Runs one step of the sweep at `now` (unix ms): removes at most [`SWEEP_BATCH`] old
    /// keys per tree. Repeat until [`Step::done`].
    pub async fn step(&mut self, store: &dyn Store, now: u64) -> Result<Step, StoreError> {
        let cutoff = self.retention.cutoff(now);
        let mut removed = 0;
        let mut done = true;
        for (tree, prefix) in TIME_ORDERED {
            let end = [prefix, &cutoff.to_be_bytes()[..]].concat();
            let old = store.scan_range(tree, prefix, Some(&end), SWEEP_BATCH)?;
            done &= old.len() < SWEEP_BATCH;
            removed += remove(store, tree, old.into_iter().map(|(key, _)| key).collect()).await?;
        }
        let start = if self.group_cursor.is_empty() { ERROR_GROUP_PREFIX.to_vec() } else { self.group_cursor.clone() };
        let groups = store.scan_range(Tree::Errors, &start, Some(ERROR_GROUP_END), SWEEP_BATCH)?;
        done &= advance(&mut self.group_cursor, &groups);
        let stale = groups
            .into_iter()
            .filter(|(_, value)| serde_json::from_slice::<ErrorGroup>(value).is_ok_and(|g| g.last_seen < cutoff))
            .map(|(key, _)| key)
            .collect();
        removed += remove(store, Tree::Errors, stale).await?;
        let perf = store.scan_range(Tree::Perf, &self.perf_cursor, None, SWEEP_BATCH)?;
        done &= advance(&mut self.perf_cursor, &perf);
        let old =
            perf.into_iter().map(|(key, _)| key).filter(|key| perf_time(key).is_some_and(|t| t < cutoff)).collect();
        removed += remove(store, Tree::Perf, old).await?;
        let sessions = store.scan_range(Tree::VisitorSessions, &self.session_cursor, None, SWEEP_BATCH)?;
        done &= advance(&mut self.session_cursor, &sessions);
        let idle = sessions
            .into_iter()
            .filter(|(_, value)| VisitState::from_bytes(value).is_some_and(|s| s.last_seen < cutoff))
            .map(|(key, _)| key)
            .collect();
        removed += remove(store, Tree::VisitorSessions, idle).await?;
        Ok(Step { removed, done })
    }

    /// Runs a whole sweep at `now`, step after step with no pause; returns the records
    /// removed (a census record counts its hits).
    pub async fn sweep(&mut self, store: &dyn Store, now: u64) -> Result<u64, StoreError> {
        let mut removed = 0;
        loop {
            let step = self.step(store, now).await?;
            removed += step.removed;
            if step.done {
                metrics::retention_swept(now, &SWEPT_TREES);
                return Ok(removed);
            }
        }
    }
}

/// Moves a walk's cursor past `batch`; true when the walk reached the end (and restarts).
fn advance(cursor: &mut Vec<u8>, batch: &[(Vec<u8>, Vec<u8>)]) -> bool {
    match batch.last() {
        Some((last, _)) if batch.len() >= SWEEP_BATCH => {
            *cursor = [last.as_slice(), &[0]].concat();
            false
        }
        _ => {
            cursor.clear();
            true
        }
    }
}

/// The time of a performance record key (`<pageLoadId>/<record key>`), if it is one.
pub(super) fn perf_time(key: &[u8]) -> Option<u64> {
    let at = key.len().checked_sub(17)?;
    (key[at] == b'/').then(|| u64::from_be_bytes(key[at + 1..at + 9].try_into().unwrap_or([0xff; 8])))
}

/// Removes `keys` from `tree` in one batch and counts the records they held (a census
/// record's hits).
async fn remove(store: &dyn Store, tree: Tree, keys: Vec<Vec<u8>>) -> Result<u64, StoreError> {
    if keys.is_empty() {
        return Ok(0);
    }
    store.delete_all(tree, &keys).await?;
    let count = keys.iter().map(|key| records_in(tree, key)).sum();
    metrics::retention_removed(tree.name(), count);
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;
    use crate::telemetry::records::record_key;

    const NOW: u64 = 1_800_000_000_000;

    fn retention(days: u32) -> Retention {
        Retention::from_limits(&TelemetryLimits { retention_days: days, ..TelemetryLimits::default() }).expect("on")
    }

    fn group(print: &str, last_seen: u64) -> Vec<u8> {
        serde_json::to_vec(&ErrorGroup {
            fingerprint: print.into(),
            message: "boom".into(),
            file: "a.js".into(),
            line: None,
            column: None,
            last_url: "/".into(),
            first_seen: 0,
            last_seen,
            count: 1,
        })
        .expect("serialises")
    }

    fn keys(store: &dyn Store, tree: Tree) -> usize {
        store.scan_range(tree, b"", None, usize::MAX).expect("scans").len()
    }

    #[test]
    fn zero_days_keeps_everything_and_the_cutoff_is_the_window_before_now() {
        assert_eq!(Retention::from_limits(&TelemetryLimits { retention_days: 0, ..TelemetryLimits::default() }), None);
        let r = retention(2);
        assert_eq!(r.cutoff(NOW), NOW - 2 * DAY_MS);
        assert_eq!(r.cutoff(5), 0, "no underflow");
    }

    #[test]
    fn the_swept_trees_are_named_as_the_store_names_them() {
        let trees = [Tree::Census, Tree::Traces, Tree::Events, Tree::Errors, Tree::Perf, Tree::VisitorSessions];
        assert_eq!(SWEPT_TREES, trees.map(Tree::name));
    }

    #[test]
    fn perf_keys_give_their_time() {
        let key = [b"load-1/".as_slice(), &record_key(42)].concat();
        assert_eq!(perf_time(&key), Some(42));
        assert_eq!(perf_time(b"short"), None);
        assert_eq!(perf_time(&[b'x'; 20]), None, "no slash before the record key");
    }

    #[tokio::test]
    async fn old_records_go_recent_ones_and_live_groups_stay() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let old = NOW - 31 * DAY_MS;
        let recent = NOW - 29 * DAY_MS;
        for tree in [Tree::Census, Tree::Traces, Tree::Events] {
            store.put(tree, &record_key(old), b"old").await.expect("puts");
            store.put(tree, &record_key(recent), b"new").await.expect("puts");
        }
        store.put(Tree::Errors, &[b"r/".as_slice(), &record_key(old)].concat(), b"{}").await.expect("puts");
        store.put(Tree::Errors, &[b"r/".as_slice(), &record_key(recent)].concat(), b"{}").await.expect("puts");
        store.put(Tree::Errors, b"g/stale", &group("stale", old)).await.expect("puts");
        store.put(Tree::Errors, b"g/live", &group("live", recent)).await.expect("puts");
        store.put(Tree::Perf, &[b"a/".as_slice(), &record_key(old)].concat(), b"[]").await.expect("puts");
        store.put(Tree::Perf, &[b"b/".as_slice(), &record_key(recent)].concat(), b"[]").await.expect("puts");
        let session = |last_seen| {
            let state = VisitState { visits: 1, first: 0, previous: 0, current: 0, pages_this_visit: 1, last_seen };
            serde_json::to_vec(&state).expect("serialises")
        };
        store.put(Tree::VisitorSessions, b"gone", &session(old)).await.expect("puts");
        store.put(Tree::VisitorSessions, b"back", &session(recent)).await.expect("puts");
        store.put(Tree::VisitorSessions, b"unreadable", b"{}").await.expect("puts");

        let removed = Sweeper::new(retention(30)).sweep(&store, NOW).await.expect("sweeps");

        assert_eq!(removed, 7, "three records, an error record, a group, a perf record, a session");
        for tree in [Tree::Census, Tree::Traces, Tree::Events] {
            let left = store.scan_range(tree, b"", None, 10).expect("scans");
            assert_eq!(left.len(), 1, "{tree:?}");
            assert_eq!(left[0].1, b"new", "{tree:?}");
        }
        let errors: Vec<Vec<u8>> =
            store.scan_range(Tree::Errors, b"", None, 10).expect("scans").into_iter().map(|(k, _)| k).collect();
        assert_eq!(errors.len(), 2, "the live group and the recent record");
        assert_eq!(errors[0], b"g/live");
        assert_eq!(errors[1][..2], *b"r/");
        assert_eq!(errors[1][2..10], recent.to_be_bytes());
        let perf = store.scan_range(Tree::Perf, b"", None, 10).expect("scans");
        assert_eq!(perf.len(), 1);
        assert!(perf[0].0.starts_with(b"b/"));
        let sessions: Vec<Vec<u8>> = store
            .scan_range(Tree::VisitorSessions, b"", None, 10)
            .expect("scans")
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(sessions, [b"back".to_vec(), b"unreadable".to_vec()], "recent and unreadable sessions stay");

        let again = Sweeper::new(retention(30)).sweep(&store, NOW).await.expect("sweeps");
        assert_eq!(again, 0, "nothing left to remove");
    }

    #[tokio::test]
    async fn a_step_removes_at_most_one_batch_per_tree() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let old = NOW - 10 * DAY_MS;
        let total = SWEEP_BATCH + 20;
        for _ in 0..total {
            store.put(Tree::Census, &record_key(old), b"x").await.expect("puts");
            store.put(Tree::Perf, &[b"p/".as_slice(), &record_key(old)].concat(), b"x").await.expect("puts");
        }
        let mut sweeper = Sweeper::new(retention(1));
        let first = sweeper.step(&store, NOW).await.expect("steps");
        assert_eq!(first, Step { removed: 2 * SWEEP_BATCH as u64, done: false });
        assert_eq!(keys(&store, Tree::Census), 20);
        assert_eq!(keys(&store, Tree::Perf), 20);
        let second = sweeper.step(&store, NOW).await.expect("steps");
        assert_eq!(second, Step { removed: 40, done: true });
        assert_eq!(keys(&store, Tree::Census) + keys(&store, Tree::Perf), 0);
    }

    #[tokio::test]
    async fn a_census_record_goes_with_its_newest_hit_and_counts_its_hits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let r = retention(1);
        let cutoff = r.cutoff(NOW);
        let census = |newest: u64, hits: u32| [&record_key(newest)[..], &hits.to_be_bytes()].concat();
        store.put(Tree::Census, &census(cutoff - 10, 3), b"[1,2,3]").await.expect("puts");
        store.put(Tree::Census, &census(cutoff + 10, 4), b"[1,2,3,4]").await.expect("puts");
        assert_eq!(Sweeper::new(r).sweep(&store, NOW).await.expect("sweeps"), 3, "three hits removed");
        let left = store.scan_range(Tree::Census, b"", None, 10).expect("scans");
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].1, b"[1,2,3,4]", "a record whose newest hit is inside the window stays");
    }

    #[tokio::test]
    async fn records_exactly_at_the_cutoff_stay() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let r = retention(1);
        store.put(Tree::Census, &record_key(r.cutoff(NOW)), b"edge").await.expect("puts");
        store.put(Tree::Census, &record_key(r.cutoff(NOW) - 1), b"old").await.expect("puts");
        assert_eq!(Sweeper::new(r).sweep(&store, NOW).await.expect("sweeps"), 1);
        assert_eq!(store.scan_range(Tree::Census, b"", None, 10).expect("scans")[0].1, b"edge");
    }
}
