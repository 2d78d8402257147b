//! The [`ErrorBook`]: what the error path knows between two intervals — the page-load
//! caps, the groups, the records accepted and not yet handed to the writer, the events
//! not yet published and the latest records. It sits behind one short lock shared by the
//! request threads, which admit reports through an [`ErrorIntake`] and get their answer
//! at once, and by the [`ErrorQueue`](super::ErrorQueue) actor, which takes what is due
//! every interval. An admission is thus a few map updates under the lock, not a message
//! to another thread and a reply back.

use std::collections::{BTreeSet, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

use super::cap::{Admission, PageLoadCaps, PageLoadKey};
use super::fingerprint::fingerprint;
use super::groups::{ErrorGroup, ErrorGroups};
use super::hourly::{ErrorHours, ErrorHoursReport};
use super::report::ErrorReport;
use super::stored::{EntryBuilder, RecentError, SealedEntry};
use crate::telemetry::events::TelemetryEvent;
use crate::telemetry::metrics;
use crate::telemetry::records::now_ms;

/// Most `ErrorRecorded` events published per interval (100 a second); the errors past it
/// show in their groups' counts.
pub const PUBLISHED_ERRORS_PER_INTERVAL: usize = 25;
/// How many of the latest records are kept in memory for the error list.
pub const RECENT_ERRORS: usize = 50;
/// Most records accepted and not yet written (waiting in the book, or handed over and
/// refused by the writer); past this, new records are refused as busy.
pub const MAX_UNWRITTEN: usize = 10_000;
/// Records waiting in the book that make the actor hand over before its interval ends,
/// so that a storm is written in steady chunks instead of filling the book to
/// [`MAX_UNWRITTEN`] within one interval.
pub const HAND_OVER_RECORDS: usize = 2_048;

/// How often a hand-over forgets the page loads past their memory. Pruning walks the
/// whole cap table under the book's lock, which every error report waits for; the memory
/// is an hour, so once a minute is plenty, where every hand-over (each 250 ms, and each
/// [`HAND_OVER_RECORDS`] in a storm) held the requests back for the walk.
pub const CAP_PRUNE_INTERVAL_MS: u64 = 60_000;

/// The error path's state between two intervals.
#[derive(Debug)]
pub struct ErrorBook {
    /// Sends accepted per page load.
    caps: PageLoadCaps,
    /// Every group by fingerprint.
    groups: ErrorGroups,
    /// Records accepted and not yet taken by the intake to be encoded (see [`ErrorIntake`]),
    /// which takes them right after each admission.
    fresh: Vec<Arc<RecentError>>,
    /// Records accepted and not yet handed over.
    pending: usize,
    /// Groups changed since the last hand-over.
    changed: BTreeSet<String>,
    /// New errors to publish at the next interval, at most [`PUBLISHED_ERRORS_PER_INTERVAL`].
    unpublished: Vec<TelemetryEvent>,
    /// Groups changed since the last publish.
    regrouped: BTreeSet<String>,
    /// Records the writer refused and the actor keeps for the next interval (counted
    /// against [`MAX_UNWRITTEN`]).
    backlog: usize,
    /// Whether the actor was asked to hand over early since it last took the book's work.
    nudged: bool,
    /// When the page-load caps were last pruned (unix ms), see [`CAP_PRUNE_INTERVAL_MS`].
    pruned_at: u64,
    /// The latest records, newest first.
    recent: VecDeque<Arc<RecentError>>,
    /// Errors per hour, in all and per group.
    hours: ErrorHours,
}

/// What one interval takes from the book.
#[derive(Debug, Default)]
pub struct DueWork {
    /// The records accepted since the last hand-over, oldest first, encoded in entries.
    pub entries: Vec<SealedEntry>,
    /// How many records the entries hold.
    pub records: usize,
    /// The groups changed since the last hand-over, as they are now.
    pub changed: Vec<ErrorGroup>,
    /// The events to publish: new errors, then one update per changed group.
    pub events: Vec<TelemetryEvent>,
}

impl ErrorBook {
    /// An empty book with `groups` (restored) and the page-load `caps`.
    pub fn new(groups: ErrorGroups, caps: PageLoadCaps) -> ErrorBook {
        ErrorBook {
            caps,
            groups,
            fresh: Vec::new(),
            pending: 0,
            changed: BTreeSet::new(),
            unpublished: Vec::new(),
            regrouped: BTreeSet::new(),
            backlog: 0,
            nudged: false,
            pruned_at: 0,
            recent: VecDeque::with_capacity(RECENT_ERRORS),
            hours: ErrorHours::default(),
        }
    }

    /// Admits one send of `reports` (each with its fingerprint) for the page load `key`
    /// from `address` at `now` and groups them, all or none: the send counts against the page load's cap.
    /// They are published and handed over at the next interval.
    pub fn record(
        &mut self,
        key: PageLoadKey,
        address: IpAddr,
        reports: Vec<(String, ErrorReport)>,
        now: u64,
    ) -> Admission {
        if self.unwritten() >= MAX_UNWRITTEN {
            return Admission::Busy;
        }
        if !self.caps.admit(key, address, now) {
            return Admission::Refused;
        }
        let admission = Admission::Accepted { accepted: reports.len() };
        for (print, report) in reports {
            if self.unpublished.len() < PUBLISHED_ERRORS_PER_INTERVAL {
                self.unpublished.push(TelemetryEvent::ErrorRecorded {
                    fingerprint: print.clone(),
                    message: report.message.clone(),
                    url: report.url.clone(),
                    at: now,
                });
            }
            self.hours.record(&print, now, u64::from(report.count.max(1)));
            if self.groups.record_as(&print, &report, now).is_some() {
                mark(&mut self.changed, &print);
                mark(&mut self.regrouped, &print);
            }
            let record = Arc::new(RecentError { at: now, fingerprint: print, report });
            if self.recent.len() >= RECENT_ERRORS {
                self.recent.pop_back();
            }
            self.recent.push_front(record.clone());
            self.fresh.push(record);
            self.pending += 1;
        }
        admission
    }

    /// Records accepted and not yet written: pending ones and the actor's backlog.
    pub fn unwritten(&self) -> usize {
        self.pending + self.backlog
    }

    /// Whether the actor should hand over before its interval ends, asked once per
    /// hand-over: true the first time [`HAND_OVER_RECORDS`] records wait.
    fn wants_hand_over(&mut self) -> bool {
        let due = !self.nudged && self.pending >= HAND_OVER_RECORDS;
        self.nudged |= due;
        due
    }

    /// Says how many records the actor keeps as its backlog.
    pub fn set_backlog(&mut self, writes: usize) {
        self.backlog = writes;
    }

    /// The events due now (new errors, then every group changed since the last publish
    /// with its latest count), leaving the records to write in the book.
    pub fn take_events(&mut self) -> Vec<TelemetryEvent> {
        let mut events = std::mem::take(&mut self.unpublished);
        for print in std::mem::take(&mut self.regrouped) {
            if let Some(group) = self.groups.get(&print) {
                events.push(TelemetryEvent::ErrorGrouped(group.clone()));
            }
        }
        events
    }

    /// The records accepted since this was last called, for the intake to encode.
    fn take_fresh(&mut self) -> Vec<Arc<RecentError>> {
        std::mem::take(&mut self.fresh)
    }

    /// Says that `records` accepted records were handed over.
    fn handed_over(&mut self, records: usize) {
        self.pending = self.pending.saturating_sub(records);
    }

    /// What is due at an interval ending at `now` besides the records (which the intake
    /// holds encoded, see [`ErrorIntake::take_due`]): events and changed groups.
    pub fn take_due(&mut self, now: u64) -> DueWork {
        if now.saturating_sub(self.pruned_at) >= CAP_PRUNE_INTERVAL_MS {
            self.caps.prune(now);
            self.pruned_at = now;
        }
        metrics::error_groups(self.groups.len());
        self.nudged = false;
        let events = self.take_events();
        let changed = std::mem::take(&mut self.changed).iter().filter_map(|p| self.groups.get(p).cloned()).collect();
        DueWork { entries: Vec::new(), records: 0, changed, events }
    }

    /// The groups, most recently seen first.
    pub fn groups(&self) -> Vec<ErrorGroup> {
        self.groups.list()
    }

    /// Errors per hour over the 24 hours up to `now`, in all and per group.
    pub fn hourly(&self, now: u64) -> ErrorHoursReport {
        self.hours.report(now)
    }

    /// The latest records, newest first.
    pub fn recent(&self) -> Vec<RecentError> {
        self.recent.iter().map(|record| (**record).clone()).collect()
    }
}

/// Adds `print` to `set` unless it is there (no copy made then).
fn mark(set: &mut BTreeSet<String>, print: &str) {
    if !set.contains(print) {
        set.insert(print.to_owned());
    }
}

/// Where request threads admit error reports: the book, shared with the actor, and the
/// entries the accepted records are encoded into.
///
/// A request thread admits a send under the book's lock, then encodes its accepted records
/// as the store keeps them (see [`super::stored`]) into the entry being filled, under a
/// lock of its own: the encoding is paid a record at a time by the request that brought it,
/// rather than thousands at once by the hand-over, whose thread may share the request
/// threads' core. The entries' lock is taken before the book's is let go, so records go
/// into the entries in the order they were admitted, and an entry's records are the ones
/// that came one after another: dropping the oldest entries for the size limit drops the
/// oldest records.
#[derive(Debug, Clone)]
pub struct ErrorIntake {
    /// The shared book.
    book: Arc<Mutex<ErrorBook>>,
    /// The records admitted and not yet handed over, encoded: the entries filled and the
    /// one filling.
    entries: Arc<Mutex<Entries>>,
    /// Wakes the actor to hand over early (see [`HAND_OVER_RECORDS`]).
    nudge: Arc<Notify>,
}

/// Encoded records: the entries filled and the one filling.
#[derive(Debug, Default)]
struct Entries {
    sealed: Vec<SealedEntry>,
    filling: EntryBuilder,
}

impl Entries {
    /// Adds `record`; false if it could not be encoded (and so will not be handed over).
    fn push(&mut self, record: &Arc<RecentError>) -> bool {
        let encoded = self.filling.push(record);
        if encoded && self.filling.is_full() {
            self.sealed.extend(self.filling.seal());
        }
        encoded
    }

    fn take(&mut self) -> Vec<SealedEntry> {
        let mut entries = std::mem::take(&mut self.sealed);
        entries.extend(self.filling.seal());
        entries
    }
}

impl ErrorIntake {
    /// An intake onto `book`.
    pub fn new(book: ErrorBook) -> ErrorIntake {
        ErrorIntake {
            book: Arc::new(Mutex::new(book)),
            entries: Arc::new(Mutex::new(Entries::default())),
            nudge: Arc::new(Notify::new()),
        }
    }

    /// Everything due at an interval ending at `now`: events, changed groups and the
    /// records accepted since the last hand-over, encoded in entries.
    pub fn take_due(&self, now: u64) -> DueWork {
        let mut due = self.lock().take_due(now);
        due.entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner).take();
        due.records = due.entries.iter().map(|entry| entry.records).sum();
        self.lock().handed_over(due.records);
        due
    }

    /// What wakes the actor when [`HAND_OVER_RECORDS`] records wait.
    pub fn nudge(&self) -> Arc<Notify> {
        self.nudge.clone()
    }

    /// Admits one send of `reports` of the page load `key` from `address` now.
    pub fn record(&self, key: PageLoadKey, address: IpAddr, reports: Vec<ErrorReport>) -> Admission {
        self.record_at(key, address, reports, now_ms())
    }

    /// Admits one send of `reports` of the page load `key` from `address` at `now`; the
    /// fingerprints are worked out before the lock is taken.
    pub fn record_at(&self, key: PageLoadKey, address: IpAddr, reports: Vec<ErrorReport>, now: u64) -> Admission {
        let printed: Vec<(String, ErrorReport)> =
            reports.into_iter().map(|r| (fingerprint(&r.message, &r.file, r.line, r.column), r)).collect();
        let mut book = self.lock();
        let admission = book.record(key, address, printed, now);
        let fresh = book.take_fresh();
        let hand_over = book.wants_hand_over();
        if fresh.is_empty() {
            drop(book);
        } else {
            let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            drop(book);
            let lost = fresh.iter().filter(|record| !entries.push(record)).count();
            drop(entries);
            if lost > 0 {
                // Never handed over, so no longer waiting either.
                self.lock().handed_over(lost);
            }
        }
        if hand_over {
            self.nudge.notify_one();
        }
        admission
    }

    /// The groups, most recently seen first.
    pub fn groups(&self) -> Vec<ErrorGroup> {
        self.lock().groups()
    }

    /// The latest records, newest first.
    pub fn recent(&self) -> Vec<RecentError> {
        self.lock().recent()
    }

    /// Errors per hour over the last 24 hours, in all and per group.
    pub fn hourly(&self) -> ErrorHoursReport {
        self.lock().hourly(now_ms())
    }

    /// The book, locked. A panic while it was held leaves at worst one request's reports
    /// partly recorded, so later requests go on with it.
    pub fn lock(&self) -> MutexGuard<'_, ErrorBook> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::errors::report::sample_report as report;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn request_threads_admitting_at_once_keep_the_page_load_cap_and_every_count() {
        let intake = ErrorIntake::new(ErrorBook::new(ErrorGroups::default(), PageLoadCaps::new(20)));
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let intake = intake.clone();
                std::thread::spawn(move || {
                    (0..10)
                        .map(|n| {
                            let reports = vec![report(&format!("boom {t}")), report(&format!("bang {n}"))];
                            match intake.record(PageLoadKey::Id("one load".into()), LOCAL, reports) {
                                Admission::Accepted { accepted } => (1, accepted),
                                Admission::Refused | Admission::Busy => (0, 0),
                            }
                        })
                        .fold((0, 0), |(sends, records), (s, r)| (sends + s, records + r))
                })
            })
            .collect();
        let (sends, records) = threads
            .into_iter()
            .map(|t| t.join().expect("no panic"))
            .fold((0, 0), |(sends, records), (s, r)| (sends + s, records + r));
        assert_eq!(sends, 20, "one page load gets its 20 sends, however the requests interleave");
        assert_eq!(records, 40, "each accepted send keeps all its records");
        assert_eq!(intake.lock().unwritten(), 40);
        let counted: u64 = intake.groups().iter().map(|g| g.count).sum();
        assert_eq!(counted, 40, "every accepted record is counted in its group");
        let due = intake.take_due(now_ms());
        assert_eq!((due.records, intake.lock().unwritten()), (40, 0), "handed over once");
        let stored: usize =
            due.entries.iter().map(|e| super::super::stored::decode_entry(&e.bytes).expect("decodes").len()).sum();
        assert_eq!(stored, 40, "every record in the entries");
        assert!(due.events.len() <= PUBLISHED_ERRORS_PER_INTERVAL + due.changed.len());
    }

    #[test]
    fn records_admitted_by_different_threads_are_stored_in_the_order_they_were_admitted() {
        let intake = ErrorIntake::new(ErrorBook::new(ErrorGroups::default(), PageLoadCaps::new(1)));
        // Each send from a thread of its own, one after another, each a moment later.
        for n in 0..150u64 {
            let intake = intake.clone();
            std::thread::spawn(move || {
                intake.record_at(PageLoadKey::Id(format!("load {n}")), LOCAL, vec![report("boom")], n)
            })
            .join()
            .expect("no panic");
        }
        let due = intake.take_due(now_ms());
        assert_eq!(due.records, 150);
        let firsts: Vec<u64> = due.entries.iter().map(|e| e.first_at).collect();
        assert_eq!(firsts, [0, 64, 128], "entries of 64, keyed by their first record");
        let stored: Vec<u64> = due
            .entries
            .iter()
            .flat_map(|e| super::super::stored::decode_entry(&e.bytes).expect("decodes"))
            .map(|r| r.at)
            .collect();
        assert_eq!(stored, (0..150).collect::<Vec<_>>(), "oldest first, entry after entry");
    }

    #[tokio::test]
    async fn a_full_books_worth_of_records_wakes_the_actor_once_per_hand_over() {
        let intake = ErrorIntake::new(ErrorBook::new(ErrorGroups::default(), PageLoadCaps::new(1)));
        let nudge = intake.nudge();
        let loads = std::sync::atomic::AtomicUsize::new(0);
        let admit = |n: usize| {
            for _ in 0..n {
                let load = loads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                intake.record(PageLoadKey::Id(format!("load {load}")), LOCAL, vec![report("boom")]);
            }
        };
        admit(HAND_OVER_RECORDS - 1);
        let early = tokio::time::timeout(std::time::Duration::from_millis(20), nudge.notified()).await;
        assert!(early.is_err(), "no nudge below the threshold");
        admit(1);
        assert!(tokio::time::timeout(std::time::Duration::from_secs(1), nudge.notified()).await.is_ok());
        admit(100);
        let again = tokio::time::timeout(std::time::Duration::from_millis(20), nudge.notified()).await;
        assert!(again.is_err(), "one nudge until the actor takes the work");
        assert_eq!(intake.take_due(now_ms()).records, HAND_OVER_RECORDS + 100);
        admit(HAND_OVER_RECORDS);
        assert!(tokio::time::timeout(std::time::Duration::from_secs(1), nudge.notified()).await.is_ok());
    }

    #[test]
    fn hand_overs_forget_old_page_loads_at_most_once_a_minute() {
        use super::super::cap::PAGE_LOAD_MEMORY_MS;
        let mut book = ErrorBook::new(ErrorGroups::default(), PageLoadCaps::new(1));
        let one = || vec![(fingerprint("boom", "/a.js", Some(1), Some(2)), report("boom"))];
        let key = || PageLoadKey::Id("load".into());
        assert_eq!(book.record(key(), LOCAL, one(), 0), Admission::Accepted { accepted: 1 });
        let pruned = PAGE_LOAD_MEMORY_MS - 1;
        book.take_due(pruned);
        book.take_due(PAGE_LOAD_MEMORY_MS + 10);
        assert_eq!(book.record(key(), LOCAL, one(), PAGE_LOAD_MEMORY_MS + 20), Admission::Refused, "not yet pruned");
        book.take_due(pruned + 60_000);
        let later = pruned + 60_001;
        assert_eq!(book.record(key(), LOCAL, one(), later), Admission::Accepted { accepted: 1 }, "forgotten");
    }

    #[test]
    fn a_book_holding_its_maximum_refuses_as_busy_until_the_backlog_is_written() {
        let mut book = ErrorBook::new(ErrorGroups::default(), PageLoadCaps::new(20));
        book.set_backlog(MAX_UNWRITTEN);
        let key = || PageLoadKey::Id("load".into());
        let one = || vec![(fingerprint("boom", "/a.js", Some(1), Some(2)), report("boom"))];
        assert_eq!(book.record(key(), LOCAL, one(), 1), Admission::Busy);
        book.set_backlog(0);
        assert_eq!(book.record(key(), LOCAL, one(), 2), Admission::Accepted { accepted: 1 });
    }
}
