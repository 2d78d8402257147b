//! The [`ErrorQueue`] actor: every [`ERROR_FLUSH_INTERVAL`] it takes what the
//! [`ErrorBook`] gathered (request threads admit reports into the book themselves, through
//! an [`ErrorIntake`], under the per-page-load cap), publishes what changed and hands
//! records and changed groups to the [`TelemetryWriter`] in one batch. The actor never
//! waits for the store, and no request waits for the actor.
//!
//! Publishing is coalesced per interval, so an error storm cannot flood the live stream
//! (and its stored history) with one event per record: each interval publishes every new
//! error up to [`PUBLISHED_ERRORS_PER_INTERVAL`](super::book::PUBLISHED_ERRORS_PER_INTERVAL),
//! then one `ErrorGrouped` per group that changed, carrying its latest count. Errors past
//! the cap are not lost to the dashboard: they are counted in their group's update.
//! Records are all written, cap or not.
//!
//! When the writer's queue is full (the store cannot keep up), the batch stays with the
//! actor as its backlog and is offered again, before newer records, at the next interval.
//! Records accepted and not yet handed over (pending plus backlog) are bounded by
//! [`MAX_UNWRITTEN`](super::book::MAX_UNWRITTEN): past it new records are refused with
//! [`Admission::Busy`] (503), so an overloaded store never makes the queue grow without
//! bound.
//!
//! Keys in the errors tree: `r/<record key>` for records — an entry of up to
//! [`RECORDS_PER_ENTRY`](super::RECORDS_PER_ENTRY) records of one interval, each with its arrival time and
//! fingerprint, stored as [`super::stored`] says and keyed by the first one's arrival —
//! and `g/<fingerprint>` for groups (restored at start).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, ActorFutureExt, AsyncContext, Context, Handler, Message, ResponseFuture};
use tokio::sync::broadcast;

use super::book::{ErrorBook, ErrorIntake};
use super::cap::{Admission, PageLoadCaps, PageLoadKey};
use super::groups::{ErrorGroup, ErrorGroups, MAX_GROUPS};
use super::report::ErrorReport;
use super::stored::RecentError;
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
/// Key prefix of error records.
const RECORD_PREFIX: &[u8] = b"r/";
/// Key prefix of error groups.
const GROUP_PREFIX: &[u8] = b"g/";

/// Publishes and writes what the [`ErrorBook`] gathered, every interval.
pub struct ErrorQueue {
    /// The book the request threads record into.
    intake: ErrorIntake,
    /// Where records and groups are written.
    writer: TelemetryWriter,
    /// Writes the writer refused (its queue was full), offered again first.
    backlog: Vec<Write>,
    /// How many records the backlog holds (a write holds up to [`RECORDS_PER_ENTRY`](super::RECORDS_PER_ENTRY)).
    backlog_records: usize,
    /// The live error stream.
    events: broadcast::Sender<TelemetryEvent>,
    /// Mailbox size (the owners' queries and the shutdown flush).
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
        let caps = PageLoadCaps::bounded(
            limits.errors_per_page_load,
            limits.error_page_loads,
            limits.error_page_loads_per_address,
        );
        let intake = ErrorIntake::new(ErrorBook::new(groups, caps));
        ErrorQueue {
            intake,
            writer,
            backlog: Vec::new(),
            backlog_records: 0,
            events,
            mailbox_capacity: limits.mailbox_capacity,
        }
    }

    /// Where request threads admit reports.
    pub fn intake(&self) -> ErrorIntake {
        self.intake.clone()
    }

    /// Admits `reports` for the page load `key` from `address` at `now` (as a request
    /// thread does through the intake).
    pub fn record(&mut self, key: PageLoadKey, address: IpAddr, reports: Vec<ErrorReport>, now: u64) -> Admission {
        self.intake.record_at(key, address, reports, now)
    }

    /// Writes accepted and not yet handed to the writer: pending records and the backlog.
    pub fn unwritten(&self) -> usize {
        self.intake.lock().unwritten()
    }

    /// Publishes what is due, then hands the backlog and the writes due to the writer;
    /// what it refuses (its queue is full) becomes the backlog, offered again next time.
    pub fn hand_over(&mut self, now: u64) {
        let mut batch = std::mem::take(&mut self.backlog);
        let (writes, records) = self.take_writes(now);
        batch.extend(writes);
        self.backlog_records += records;
        match self.writer.write_all(batch) {
            Ok(()) => self.backlog_records = 0,
            Err(busy) => self.backlog = busy.0,
        }
        let mut book = self.intake.lock();
        book.set_backlog(self.backlog_records);
        metrics::queue_depth(Queue::Errors, book.unwritten());
    }

    /// Publishes the new errors kept for this interval, then every group changed since
    /// the last publish, with its latest count.
    pub fn publish(&mut self) {
        let events = self.intake.lock().take_events();
        self.send(events);
    }

    fn send(&self, events: Vec<TelemetryEvent>) {
        for event in events {
            let _ = self.events.send(event);
        }
    }

    /// Publishes what is due and takes the writes due: every pending record and every
    /// changed group.
    pub fn take_batch(&mut self, now: u64) -> Vec<Write> {
        self.take_writes(now).0
    }

    /// [`take_batch`](Self::take_batch), with how many records the writes hold. The
    /// records come encoded (the request threads encoded them as they were admitted, see
    /// [`ErrorIntake`]); only the changed groups are serialised here.
    fn take_writes(&mut self, now: u64) -> (Vec<Write>, usize) {
        let due = self.intake.take_due(now);
        self.send(due.events);
        let mut batch = Vec::with_capacity(due.entries.len() + due.changed.len());
        for entry in due.entries {
            let key = [RECORD_PREFIX, &record_key(entry.first_at)].concat();
            batch.push(Write { tree: Tree::Errors, key, value: entry.bytes });
        }
        for group in &due.changed {
            if let Ok(value) = serde_json::to_vec(group) {
                let key = [GROUP_PREFIX, group.fingerprint.as_bytes()].concat();
                batch.push(Write { tree: Tree::Errors, key, value });
            }
        }
        (batch, due.records)
    }

    /// The groups, most recently seen first.
    pub fn groups(&self) -> Vec<ErrorGroup> {
        self.intake.groups()
    }

    /// The latest records, newest first.
    pub fn recent(&self) -> Vec<RecentError> {
        self.intake.recent()
    }
}

impl Actor for ErrorQueue {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.mailbox_capacity);
        ctx.run_interval(ERROR_FLUSH_INTERVAL, |queue, _| queue.hand_over(now_ms()));
        self.hand_over_when_nudged(ctx);
    }
}

impl ErrorQueue {
    /// Hands over as soon as the intake says enough records wait, then waits again.
    fn hand_over_when_nudged(&self, ctx: &mut Context<Self>) {
        let nudge = self.intake.nudge();
        let nudged = actix::fut::wrap_future::<_, Self>(async move { nudge.notified().await });
        ctx.spawn(nudged.map(|(), queue, ctx| {
            queue.hand_over(now_ms());
            queue.hand_over_when_nudged(ctx);
        }));
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
        self.backlog_records = 0;
        self.intake.lock().set_backlog(0);
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
    use crate::telemetry::errors::book::{MAX_UNWRITTEN, PUBLISHED_ERRORS_PER_INTERVAL};
    use crate::telemetry::errors::report::sample_report as report;
    use crate::telemetry::errors::stored::RECORDS_PER_ENTRY;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[actix::test]
    async fn records_are_grouped_published_and_written_as_one_batch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let (events, mut rx) = broadcast::channel(16);
        let writer = TelemetryWriter::start(store.clone());
        let mut queue = ErrorQueue::new(store.clone(), writer.clone(), &TelemetryLimits::default(), events.clone());
        let key = PageLoadKey::Id("load".into());
        let admission = queue.record(key, LOCAL, vec![report("boom 1"), report("boom 2")], 100);
        assert_eq!(admission, Admission::Accepted { accepted: 2 });
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
        assert_eq!(batch.len(), 2, "both records in one entry, and their group");
        let stored: Vec<serde_json::Value> = serde_json::from_slice(&batch[0].value).expect("an array of records");
        assert_eq!(stored.iter().map(|r| r["message"].as_str()).collect::<Vec<_>>(), [Some("boom 1"), Some("boom 2")]);
        assert_eq!(stored[0]["at"], 100, "with its arrival time");
        assert!(stored[0]["fingerprint"].as_str().is_some_and(|f| !f.is_empty()), "and its fingerprint");
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
            queue.record(key, LOCAL, vec![report(&format!("boom {}", n % 3)), report("same")], 100);
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
        let batch = queue.take_batch(200);
        let (records, groups): (Vec<&Write>, Vec<&Write>) = batch.iter().partition(|w| w.key.starts_with(b"r/"));
        assert_eq!(groups.len(), 2, "both groups are written");
        assert_eq!(records.len(), 2_000usize.div_ceil(RECORDS_PER_ENTRY), "records go in chunks");
        let written: Vec<RecentError> =
            records.iter().flat_map(|w| super::super::decode_entry(&w.value).expect("an entry")).collect();
        assert_eq!(written.len(), 2_000, "every record is written");
        assert_eq!(written.iter().filter(|r| r.report.message == "same").count(), 1_000);
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
        fn put_atomic<'a>(&'a self, _: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> crate::store::StoreFuture<'a, ()> {
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
            match queue.record(key, LOCAL, vec![report(&format!("boom {}", n % 10))], 100) {
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
        assert_eq!(queue.record(PageLoadKey::Id("late".into()), LOCAL, vec![report("late")], 200), Admission::Busy);
    }
}
