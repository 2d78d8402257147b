//! The [`ErrorQueue`] actor: admits error records under the per-page-load cap, groups
//! them, and every [`ERROR_FLUSH_INTERVAL`] publishes what changed and hands records and
//! changed groups to the [`TelemetryWriter`] in one batch. The actor never waits for the
//! store, so a request waiting for its admission never waits behind a batch write.
//!
//! Publishing is coalesced per interval, so an error storm cannot flood the live stream
//! (and its stored history) with one event per record: each interval publishes every new
//! error up to [`PUBLISHED_ERRORS_PER_INTERVAL`], then one `ErrorGrouped` per group that
//! changed, carrying its latest count. Errors past the cap are not lost to the dashboard:
//! they are counted in their group's update. Records are all written, cap or not.
//!
//! The latest [`RECENT_ERRORS`] records are also kept in memory, newest first, for the
//! owners' error list.
//!
//! When the writer's queue is full (the store cannot keep up), the batch stays with the
//! actor as its backlog and is offered again, before newer records, at the next interval.
//! Records accepted and not yet handed over (pending plus backlog) are bounded by
//! [`MAX_UNWRITTEN`]: past it new records are refused with [`Admission::Busy`] (503), so an
//! overloaded store never makes the queue grow without bound.
//!
//! Keys in the errors tree: `r/<record key>` for records, `g/<fingerprint>` for groups
//! (restored at start).

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message, ResponseFuture};
use serde::Serialize;
use tokio::sync::{broadcast, oneshot};

use super::cap::{Admission, PageLoadCaps, PageLoadKey};
use super::fingerprint::fingerprint;
use super::groups::{ErrorGroup, ErrorGroups, MAX_GROUPS};
use super::report::ErrorReport;
use crate::store::{Store, Tree};
use crate::telemetry::events::TelemetryEvent;
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics::{self, Queue};
use crate::telemetry::records::{now_ms, record_key};
use crate::telemetry::writer::{TelemetryWriter, Write};

/// How often accepted records are handed to the writer. The loader debounces its sends
/// by 1,000 ms (spec 000 §9); the server batches on a shorter interval so that a batch
/// plus the store's flush stays within [`crate::telemetry::records::TELEMETRY_LOSS_WINDOW`].
pub const ERROR_FLUSH_INTERVAL: Duration = Duration::from_millis(250);
/// Most `ErrorRecorded` events published per interval (100 a second); the errors past it
/// show in their groups' counts.
pub const PUBLISHED_ERRORS_PER_INTERVAL: usize = 25;
/// How many of the latest records are kept in memory for the error list.
pub const RECENT_ERRORS: usize = 50;
/// Most writes (records and groups) accepted and not yet handed to the writer; past
/// this, new records are refused as busy.
pub const MAX_UNWRITTEN: usize = 10_000;
/// Key prefix of error records.
const RECORD_PREFIX: &[u8] = b"r/";
/// Key prefix of error groups.
const GROUP_PREFIX: &[u8] = b"g/";

/// Owns the error records waiting to be written, the groups and the page-load caps.
pub struct ErrorQueue {
    /// Where records and groups are written.
    writer: TelemetryWriter,
    /// Records accepted per page load.
    caps: PageLoadCaps,
    /// Every group by fingerprint.
    groups: ErrorGroups,
    /// Records accepted since the last write, with their arrival time.
    pending: Vec<(u64, Arc<ErrorReport>)>,
    /// Groups changed since the last write.
    changed: BTreeSet<String>,
    /// New errors to publish at the next interval, at most [`PUBLISHED_ERRORS_PER_INTERVAL`].
    unpublished: Vec<TelemetryEvent>,
    /// Groups changed since the last publish.
    regrouped: BTreeSet<String>,
    /// Writes the writer refused (its queue was full), offered again first.
    backlog: Vec<Write>,
    /// The latest records, newest first: arrival time, fingerprint, record.
    recent: VecDeque<(u64, String, Arc<ErrorReport>)>,
    /// The live error stream.
    events: broadcast::Sender<TelemetryEvent>,
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
}

impl ErrorQueue {
    /// A queue whose groups are restored from the store.
    pub fn new(
        store: Arc<dyn Store>,
        writer: TelemetryWriter,
        limits: &TelemetryLimits,
        events: broadcast::Sender<TelemetryEvent>,
    ) -> ErrorQueue {
        let stored = store.scan_prefix(Tree::Errors, GROUP_PREFIX, MAX_GROUPS).unwrap_or_else(|error| {
            tracing::warn!(%error, "cannot restore error groups");
            Vec::new()
        });
        let groups = ErrorGroups::from_groups(stored.into_iter().filter_map(|(_, v)| serde_json::from_slice(&v).ok()));
        ErrorQueue {
            writer,
            caps: PageLoadCaps::new(limits.errors_per_page_load),
            groups,
            pending: Vec::new(),
            changed: BTreeSet::new(),
            unpublished: Vec::new(),
            regrouped: BTreeSet::new(),
            backlog: Vec::new(),
            recent: VecDeque::with_capacity(RECENT_ERRORS),
            events,
            mailbox_capacity: limits.mailbox_capacity,
        }
    }

    /// Admits `reports` for the page load `key` at `now` and groups them; they are
    /// published at the next interval.
    pub fn record(&mut self, key: PageLoadKey, reports: Vec<ErrorReport>, now: u64) -> Admission {
        if self.unwritten() >= MAX_UNWRITTEN {
            return Admission::Busy;
        }
        let admission = self.caps.admit(key, reports.len(), now);
        let Admission::Accepted { accepted, .. } = admission else { return admission };
        for report in reports.into_iter().take(accepted) {
            let print = fingerprint(&report.message, &report.file, report.line, report.column);
            if self.unpublished.len() < PUBLISHED_ERRORS_PER_INTERVAL {
                self.unpublished.push(TelemetryEvent::ErrorRecorded {
                    fingerprint: print.clone(),
                    message: report.message.clone(),
                    url: report.url.clone(),
                    at: now,
                });
            }
            if self.groups.record_as(print.clone(), &report, now).is_some() {
                mark(&mut self.changed, &print);
                mark(&mut self.regrouped, &print);
            }
            let report = Arc::new(report);
            if self.recent.len() >= RECENT_ERRORS {
                self.recent.pop_back();
            }
            self.recent.push_front((now, print, report.clone()));
            self.pending.push((now, report));
        }
        metrics::queue_depth(Queue::Errors, self.unwritten());
        metrics::error_groups(self.groups.len());
        admission
    }

    /// Writes accepted and not yet handed to the writer: pending records and the backlog.
    pub fn unwritten(&self) -> usize {
        self.pending.len() + self.backlog.len()
    }

    /// Hands the backlog and the writes due to the writer; what it refuses (its queue is
    /// full) becomes the backlog, offered again next time.
    pub fn hand_over(&mut self, now: u64) {
        self.publish();
        let mut batch = std::mem::take(&mut self.backlog);
        batch.extend(self.take_batch(now));
        if let Err(busy) = self.writer.write_all(batch) {
            self.backlog = busy.0;
        }
        metrics::queue_depth(Queue::Errors, self.unwritten());
    }

    /// Publishes the new errors kept for this interval, then every group changed since
    /// the last publish, with its latest count.
    pub fn publish(&mut self) {
        for event in self.unpublished.drain(..) {
            let _ = self.events.send(event);
        }
        for print in std::mem::take(&mut self.regrouped) {
            if let Some(group) = self.groups.get(&print) {
                let _ = self.events.send(TelemetryEvent::ErrorGrouped(group.clone()));
            }
        }
    }

    /// Takes the writes due: every pending record and every changed group.
    pub fn take_batch(&mut self, now: u64) -> Vec<Write> {
        self.caps.prune(now);
        let mut batch = Vec::with_capacity(self.pending.len() + self.changed.len());
        for (at, report) in self.pending.drain(..) {
            let key = [RECORD_PREFIX, &record_key(at)].concat();
            if let Ok(value) = serde_json::to_vec(&*report) {
                batch.push(Write { tree: Tree::Errors, key, value });
            }
        }
        for print in std::mem::take(&mut self.changed) {
            if let Some(group) = self.groups.get(&print) {
                if let Ok(value) = serde_json::to_vec(group) {
                    batch.push(Write { tree: Tree::Errors, key: [GROUP_PREFIX, print.as_bytes()].concat(), value });
                }
            }
        }
        metrics::queue_depth(Queue::Errors, 0);
        batch
    }

    /// The groups, most recently seen first.
    pub fn groups(&self) -> Vec<ErrorGroup> {
        self.groups.list()
    }

    /// The latest records, newest first.
    pub fn recent(&self) -> Vec<RecentError> {
        self.recent
            .iter()
            .map(|(at, print, report)| RecentError { at: *at, fingerprint: print.clone(), report: (**report).clone() })
            .collect()
    }
}

/// Adds `print` to `set` unless it is there (no copy made then).
fn mark(set: &mut BTreeSet<String>, print: &str) {
    if !set.contains(print) {
        set.insert(print.to_owned());
    }
}

/// One accepted record, as the error list shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecentError {
    /// When it arrived (unix ms).
    pub at: u64,
    /// The fingerprint of its group.
    pub fingerprint: String,
    /// The record.
    #[serde(flatten)]
    pub report: ErrorReport,
}

impl Actor for ErrorQueue {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.mailbox_capacity);
        ctx.run_interval(ERROR_FLUSH_INTERVAL, |queue, _| queue.hand_over(now_ms()));
    }
}

/// Admits error records of one page load; the admission is sent on `reply`.
#[derive(Message)]
#[rtype(result = "()")]
pub struct RecordErrors {
    /// The page load they came from.
    pub key: PageLoadKey,
    /// The parsed records.
    pub reports: Vec<ErrorReport>,
    /// Where the admission goes.
    pub reply: oneshot::Sender<Admission>,
}

impl Handler<RecordErrors> for ErrorQueue {
    type Result = ();

    fn handle(&mut self, msg: RecordErrors, _: &mut Self::Context) {
        let _ = msg.reply.send(self.record(msg.key, msg.reports, now_ms()));
    }
}

/// Returns every error group, most recently seen first.
#[derive(Message)]
#[rtype(result = "Vec<ErrorGroup>")]
pub struct GetErrorGroups;

impl Handler<GetErrorGroups> for ErrorQueue {
    type Result = Vec<ErrorGroup>;

    fn handle(&mut self, _: GetErrorGroups, _: &mut Self::Context) -> Vec<ErrorGroup> {
        self.groups()
    }
}

/// Returns the latest records, newest first.
#[derive(Message)]
#[rtype(result = "Vec<RecentError>")]
pub struct GetRecentErrors;

impl Handler<GetRecentErrors> for ErrorQueue {
    type Result = Vec<RecentError>;

    fn handle(&mut self, _: GetRecentErrors, _: &mut Self::Context) -> Vec<RecentError> {
        self.recent()
    }
}

/// Writes everything pending now and waits until it is in the store (shutdown); returns
/// how many entries were written.
#[derive(Message)]
#[rtype(result = "usize")]
pub struct FlushErrors;

impl Handler<FlushErrors> for ErrorQueue {
    type Result = ResponseFuture<usize>;

    fn handle(&mut self, _: FlushErrors, _: &mut Self::Context) -> Self::Result {
        let mut batch = std::mem::take(&mut self.backlog);
        batch.extend(self.take_batch(now_ms()));
        let writer = self.writer.clone();
        Box::pin(async move {
            let written = batch.len();
            writer.write_all_waiting(batch).await;
            writer.drained().await;
            written
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;

    fn report(message: &str) -> ErrorReport {
        serde_json::from_value(serde_json::json!({
            "event": "error", "websiteId": "", "templateId": "", "url": "/p", "userAgent": "", "app": "",
            "message": message, "stack": "", "file": "/a.js", "line": 1, "column": 2,
            "timestamp": null, "pageLoadId": null
        }))
        .expect("a report")
    }

    #[actix::test]
    async fn records_are_grouped_published_and_written_as_one_batch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let (events, mut rx) = broadcast::channel(16);
        let writer = TelemetryWriter::start(store.clone());
        let mut queue = ErrorQueue::new(store.clone(), writer.clone(), &TelemetryLimits::default(), events.clone());
        let key = PageLoadKey::Id("load".into());
        let admission = queue.record(key, vec![report("boom 1"), report("boom 2")], 100);
        assert_eq!(admission, Admission::Accepted { accepted: 2, dropped: 0 });
        assert!(rx.try_recv().is_err(), "published at the interval, not per record");
        queue.publish();
        assert!(matches!(rx.try_recv(), Ok(TelemetryEvent::ErrorRecorded { message, .. }) if message == "boom 1"));
        assert!(matches!(rx.try_recv(), Ok(TelemetryEvent::ErrorRecorded { message, .. }) if message == "boom 2"));
        assert!(
            matches!(rx.try_recv(), Ok(TelemetryEvent::ErrorGrouped(g)) if g.count == 2),
            "one update, latest count"
        );
        assert!(rx.try_recv().is_err());
        assert_eq!(queue.groups()[0].count, 2);
        let recent: Vec<String> = queue.recent().into_iter().map(|r| r.report.message).collect();
        assert_eq!(recent, vec!["boom 2", "boom 1"], "the latest records, newest first");
        let batch = queue.take_batch(200);
        assert_eq!(batch.len(), 3, "two records and one group");
        writer.write_all(batch).expect("queued");
        writer.drained().await;
        assert!(queue.take_batch(300).is_empty());
        let restored = ErrorQueue::new(store, writer, &TelemetryLimits::default(), events);
        assert_eq!(restored.groups()[0].count, 2);
    }

    #[actix::test]
    async fn an_error_storm_publishes_a_bounded_sample_and_exact_group_counts() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let (events, mut rx) = broadcast::channel(4096);
        let writer = TelemetryWriter::start(store.clone());
        let mut queue = ErrorQueue::new(store, writer, &TelemetryLimits::default(), events);
        for n in 0..1_000 {
            let key = PageLoadKey::Id(format!("load-{n}"));
            queue.record(key, vec![report(&format!("boom {}", n % 3)), report("same")], 100);
        }
        queue.publish();
        let mut recorded = 0;
        let mut groups = std::collections::HashMap::new();
        while let Ok(event) = rx.try_recv() {
            match event {
                TelemetryEvent::ErrorRecorded { .. } => recorded += 1,
                TelemetryEvent::ErrorGrouped(g) => assert!(groups.insert(g.message.clone(), g.count).is_none()),
            }
        }
        assert_eq!(recorded, PUBLISHED_ERRORS_PER_INTERVAL);
        // "boom 0", "boom 1" and "boom 2" normalise to one group; "same" is the other.
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups.values().sum::<u64>(), 2_000, "every record is counted");
        assert_eq!(queue.take_batch(200).len(), 2_000 + 2, "every record is written, and both groups");
    }

    /// A store that never finishes a write: the writer thread blocks on its first job.
    struct StuckStore(SledStore);

    impl Store for StuckStore {
        fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, crate::store::StoreError> {
            self.0.get(tree, key)
        }
        fn put<'a>(&'a self, _: Tree, _: &'a [u8], _: &'a [u8]) -> crate::store::StoreFuture<'a, ()> {
            Box::pin(std::future::pending())
        }
        fn delete<'a>(&'a self, _: Tree, _: &'a [u8]) -> crate::store::StoreFuture<'a, ()> {
            Box::pin(std::future::pending())
        }
        fn scan_prefix(
            &self,
            tree: Tree,
            prefix: &[u8],
            limit: usize,
        ) -> Result<Vec<(Vec<u8>, Vec<u8>)>, crate::store::StoreError> {
            self.0.scan_prefix(tree, prefix, limit)
        }
        fn scan_range(
            &self,
            tree: Tree,
            start: &[u8],
            end: Option<&[u8]>,
            limit: usize,
        ) -> Result<Vec<(Vec<u8>, Vec<u8>)>, crate::store::StoreError> {
            self.0.scan_range(tree, start, end, limit)
        }
        fn delete_all<'a>(&'a self, _: Tree, _: &'a [Vec<u8>]) -> crate::store::StoreFuture<'a, ()> {
            Box::pin(std::future::pending())
        }
        fn flush(&self) -> crate::store::StoreFuture<'_, ()> {
            self.0.flush()
        }
    }

    #[actix::test]
    async fn a_store_that_cannot_keep_up_bounds_the_queue_and_refuses_as_busy() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(StuckStore(SledStore::open(dir.path()).expect("opens")));
        let (events, _rx) = broadcast::channel(16);
        let writer = TelemetryWriter::start(store.clone());
        let mut queue = ErrorQueue::new(store, writer, &TelemetryLimits::default(), events);
        let mut busy_at = None;
        for n in 0..(MAX_UNWRITTEN * 2) {
            let key = PageLoadKey::Id(format!("load-{n}"));
            match queue.record(key, vec![report(&format!("boom {}", n % 10))], 100) {
                Admission::Accepted { .. } => {}
                Admission::Busy => {
                    busy_at = Some(n);
                    break;
                }
                Admission::Refused => panic!("each page load is new"),
            }
            // Hands over after every record: the writer's queue fills, then the backlog.
            queue.hand_over(100 + n as u64);
        }
        let busy_at = busy_at.expect("the queue refuses once it holds its maximum");
        assert!(queue.unwritten() >= MAX_UNWRITTEN && queue.unwritten() <= MAX_UNWRITTEN + 16, "{}", queue.unwritten());
        assert!(busy_at >= crate::telemetry::writer::WRITER_QUEUE_JOBS, "the writer's queue filled first: {busy_at}");
        assert!(!queue.backlog.is_empty(), "refused batches are kept, not dropped");
        assert_eq!(queue.record(PageLoadKey::Id("late".into()), vec![report("late")], 200), Admission::Busy);
    }
}
