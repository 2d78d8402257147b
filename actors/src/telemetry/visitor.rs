//! The [`VisitorSessions`] actor: the live visitor sessions, one small entry per visitor
//! id (about 150 bytes with its key), and the census hits they make.
//!
//! A hit's cookies are worked out by [`crate::telemetry::cookie::next_visit`] before the
//! message is sent; this actor keeps what the server knows of the visit (visit count,
//! first/previous/current visit, pages in this visit) and writes it to the visitor-sessions
//! tree. The hit itself goes to the census tree straight from the request ([`record_hit`]).
//! A hit starts a new visit (pages this visit back to 1) when the cookie rule says so, or
//! when its `ss_cvr` names a later visit than the session holds: the loader starts the
//! visit itself when `ss_cvt` has expired ([`VisitState::holds_visit_of`]).
//! Entries idle past the 30-minute visit boundary are dropped from memory and rehydrated
//! from the store on the next hit.
//!
//! Requests hand their visits to a [`VisitInbox`], which the actor empties every
//! [`VISIT_DRAIN_INTERVAL`] (and before answering any question), so a page view costs a
//! push under a short lock, not a message that wakes the actor's thread. Sessions changed
//! by hits are written every [`SESSION_WRITE_INTERVAL`], one batch for all of them, so a
//! visitor clicking through pages costs one write per interval, not one per hit; a crash
//! loses at most that interval (the telemetry class's window).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message};
use serde::{Deserialize, Serialize};

use crate::store::{Store, Tree};
use crate::telemetry::cookie::{VisitOutcome, VisitorCookie, VisitorId, VISIT_LENGTH_MS};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics;
use crate::telemetry::records::{now_ms, record_key};
use crate::telemetry::writer::{TelemetryWriter, Write, WriterBusy};

/// How often idle sessions are dropped from memory.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(60);
/// How often changed sessions are handed to the writer.
pub const SESSION_WRITE_INTERVAL: Duration = Duration::from_millis(250);
/// How often the actor takes the visits waiting in its inbox.
pub const VISIT_DRAIN_INTERVAL: Duration = Duration::from_millis(20);
/// Room the set of changed sessions keeps between intervals.
const DIRTY_KEPT: usize = 4096;
/// Visits an inbox holds per mailbox slot of the telemetry limits (a full inbox → 503).
const INBOX_VISITS_PER_SLOT: usize = 8;

/// What the server keeps of one visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VisitState {
    /// Visits so far.
    pub visits: u64,
    /// Start of the first visit (unix ms).
    pub first: u64,
    /// Start of the previous visit (unix ms).
    pub previous: u64,
    /// Start of the current visit (unix ms).
    pub current: u64,
    /// Hits in the current visit.
    pub pages_this_visit: u32,
    /// Time of the last hit (unix ms).
    pub last_seen: u64,
}

impl VisitState {
    /// Whether `cookie` names the visit this session holds. A cookie whose visit count or
    /// current-visit start is past the session's names a later visit: one the loader
    /// started itself (it rewrites an expired `ss_cvt` before sending the hit, so the
    /// server never sees the expired one). The count comes from the cookie either way,
    /// so a visit is counted once whichever side started it.
    pub fn holds_visit_of(&self, cookie: &VisitorCookie) -> bool {
        cookie.count <= self.visits && cookie.current <= self.current
    }
}

/// One census record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CensusHit {
    /// pageView, search, buttonClick, buttonRender, formRender, overlay, quickView or track.
    pub kind: String,
    /// When it was recorded (unix ms).
    pub at: u64,
    /// The visitor, unless identifiers may not be stored (no consent).
    pub visitor_id: Option<String>,
    /// The `SS_SESSION_ID` of the page view, under the same condition.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The `SS_ANALYTICS_ID` of the page view, under the same condition.
    #[serde(default)]
    pub analytics_id: Option<String>,
    /// The page path it concerns, when known.
    pub path: String,
    /// The call's fields (the `data` JSON, or the form fields).
    pub data: serde_json::Value,
}

/// Owns the visitor sessions held in memory.
pub struct VisitorSessions {
    /// Where sessions are read back from.
    store: Arc<dyn Store>,
    /// Where sessions are written.
    writer: TelemetryWriter,
    /// Live sessions by visitor id.
    sessions: HashMap<VisitorId, VisitState>,
    /// Sessions changed since they were last handed to the writer.
    dirty: HashSet<VisitorId>,
    /// Visits handed over by requests, not yet applied.
    inbox: VisitInbox,
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
}

impl VisitorSessions {
    /// No live sessions yet.
    pub fn new(store: Arc<dyn Store>, writer: TelemetryWriter, limits: &TelemetryLimits) -> VisitorSessions {
        VisitorSessions {
            store,
            writer,
            sessions: HashMap::new(),
            dirty: HashSet::new(),
            inbox: VisitInbox::new(limits.mailbox_capacity.max(1).saturating_mul(INBOX_VISITS_PER_SLOT)),
            mailbox_capacity: limits.mailbox_capacity,
        }
    }

    /// The inbox requests hand their visits to (share it before starting the actor).
    pub fn inbox(&self) -> VisitInbox {
        self.inbox.clone()
    }

    /// Applies every visit waiting in the inbox, in the order they came.
    pub fn apply_inbox(&mut self) {
        for visit in self.inbox.take() {
            self.visit(&visit.outcome, visit.at);
        }
    }

    /// Applies a hit's visit to the visitor's session (rehydrated if needed).
    pub fn visit(&mut self, outcome: &VisitOutcome, now: u64) -> VisitState {
        let id = &outcome.cookie.id;
        let known = match self.sessions.get(id) {
            Some(state) => Some(*state),
            None => self.load(id),
        };
        let pages = match known {
            Some(state) if !outcome.new_visit && state.holds_visit_of(&outcome.cookie) => {
                state.pages_this_visit.saturating_add(1)
            }
            _ => 1,
        };
        let cookie = &outcome.cookie;
        let state = VisitState {
            visits: cookie.count,
            first: cookie.first,
            previous: cookie.previous,
            current: cookie.current,
            pages_this_visit: pages,
            last_seen: now,
        };
        if !self.dirty.contains(id) {
            self.dirty.insert(id.clone());
        }
        self.sessions.insert(id.clone(), state);
        metrics::live_sessions(self.sessions.len());
        state
    }

    /// The writes of every session changed since the last call; the sessions count as
    /// written from now on.
    pub fn take_changed(&mut self) -> Vec<Write> {
        let mut writes = Vec::with_capacity(self.dirty.len());
        for id in self.dirty.drain() {
            let Some(state) = self.sessions.get(&id) else { continue };
            if let Ok(value) = serde_json::to_vec(state) {
                writes.push(Write { tree: Tree::VisitorSessions, key: id.as_str().as_bytes().to_vec(), value });
            }
        }
        // A burst's set is not kept allocated for the quiet intervals after it.
        self.dirty.shrink_to(DIRTY_KEPT);
        writes
    }

    /// Hands the changed sessions to the writer; when its queue is full they stay
    /// changed and go with the next interval.
    pub fn write_changed(&mut self) {
        let writes = self.take_changed();
        if let Err(WriterBusy(back)) = self.writer.write_all(writes) {
            self.dirty.extend(
                back.iter().filter_map(|w| std::str::from_utf8(&w.key).ok()).filter_map(|k| VisitorId::parse(k).ok()),
            );
        }
    }

    /// The session of `id`, from memory or the store.
    pub fn get(&self, id: &VisitorId) -> Option<VisitState> {
        self.sessions.get(id).copied().or_else(|| self.load(id))
    }

    /// Drops sessions idle past the visit boundary; they stay in the store (changed ones
    /// stay in memory until written).
    pub fn sweep(&mut self, now: u64) {
        let dirty = &self.dirty;
        self.sessions.retain(|id, s| now.saturating_sub(s.last_seen) < VISIT_LENGTH_MS || dirty.contains(id));
        self.sessions.shrink_to_fit();
        metrics::live_sessions(self.sessions.len());
    }

    /// How many sessions are in memory.
    pub fn live(&self) -> usize {
        self.sessions.len()
    }

    /// How many visitors were seen in the `window_ms` up to `now`.
    pub fn active_since(&self, now: u64, window_ms: u64) -> usize {
        let oldest = now.saturating_sub(window_ms);
        self.sessions.values().filter(|s| s.last_seen >= oldest).count()
    }

    fn load(&self, id: &VisitorId) -> Option<VisitState> {
        let bytes = self.store.get(Tree::VisitorSessions, id.as_str().as_bytes()).ok().flatten()?;
        serde_json::from_slice(&bytes).ok()
    }
}

impl Actor for VisitorSessions {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.mailbox_capacity);
        ctx.run_interval(SWEEP_INTERVAL, |sessions, _| sessions.sweep(now_ms()));
        ctx.run_interval(VISIT_DRAIN_INTERVAL, |sessions, _| sessions.apply_inbox());
        ctx.run_interval(SESSION_WRITE_INTERVAL, |sessions, _| {
            sessions.apply_inbox();
            sessions.write_changed();
        });
    }
}

/// Writes a census hit (from the request's thread; no actor is involved).
pub fn record_hit(writer: &TelemetryWriter, hit: &CensusHit) -> Result<(), WriterBusy> {
    match serde_json::to_vec(hit) {
        Ok(value) => writer.write(Tree::Census, record_key(hit.at).to_vec(), value),
        Err(error) => {
            tracing::warn!(%error, "census hit not serialisable");
            Ok(())
        }
    }
}

/// A page view's visit, to apply to the visitor's session.
#[derive(Debug)]
pub struct RecordVisit {
    /// The visit, as the cookies say.
    pub outcome: VisitOutcome,
    /// When the page view came (unix ms).
    pub at: u64,
}

/// The inbox is full (the actor is not keeping up); the visit is handed back.
#[derive(Debug, thiserror::Error)]
#[error("the visitor sessions are busy")]
pub struct InboxFull(pub RecordVisit);

/// Visits handed over by requests for the [`VisitorSessions`] actor; clones share it.
#[derive(Clone)]
pub struct VisitInbox {
    visits: Arc<Mutex<Vec<RecordVisit>>>,
    capacity: usize,
}

impl VisitInbox {
    /// An inbox holding at most `capacity` visits.
    pub fn new(capacity: usize) -> VisitInbox {
        VisitInbox { visits: Arc::new(Mutex::new(Vec::new())), capacity }
    }

    /// Hands `visit` over; refused (and handed back) when the inbox is full.
    pub fn offer(&self, visit: RecordVisit) -> Result<(), InboxFull> {
        let mut visits = self.visits.lock().unwrap_or_else(PoisonError::into_inner);
        if visits.len() >= self.capacity {
            return Err(InboxFull(visit));
        }
        visits.push(visit);
        Ok(())
    }

    /// Takes every visit waiting.
    fn take(&self) -> Vec<RecordVisit> {
        std::mem::take(&mut *self.visits.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Hands every changed session to the writer now and waits until they are written
/// (shutdown); resolves with how many there were.
#[derive(Message)]
#[rtype(result = "usize")]
pub struct FlushVisitorSessions;

impl Handler<FlushVisitorSessions> for VisitorSessions {
    type Result = actix::ResponseFuture<usize>;

    fn handle(&mut self, _: FlushVisitorSessions, _: &mut Self::Context) -> Self::Result {
        self.apply_inbox();
        let writes = self.take_changed();
        let writer = self.writer.clone();
        Box::pin(async move {
            let written = writes.len();
            writer.write_all_waiting(writes).await;
            writer.drained().await;
            written
        })
    }
}

/// Returns a visitor's session, if the server knows it.
#[derive(Message)]
#[rtype(result = "Option<VisitState>")]
pub struct GetVisitorSession(pub VisitorId);

impl Handler<GetVisitorSession> for VisitorSessions {
    type Result = Option<VisitState>;

    fn handle(&mut self, msg: GetVisitorSession, _: &mut Self::Context) -> Option<VisitState> {
        self.apply_inbox();
        self.get(&msg.0)
    }
}

/// Returns how many visitors were seen in the last `window_ms` (live visitors).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountActiveVisitors {
    /// How far back a visitor counts as live.
    pub window_ms: u64,
}

impl Handler<CountActiveVisitors> for VisitorSessions {
    type Result = usize;

    fn handle(&mut self, msg: CountActiveVisitors, _: &mut Self::Context) -> usize {
        self.apply_inbox();
        self.active_since(now_ms(), msg.window_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;
    use crate::telemetry::cookie::next_visit;

    fn id() -> VisitorId {
        VisitorId::parse("v1").expect("valid")
    }

    #[test]
    fn pages_count_within_a_visit_and_reset_on_the_next() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let mut sessions = VisitorSessions::new(store.clone(), writer, &TelemetryLimits::default());
        let first = next_visit(None, None, 1000, id);
        assert_eq!(sessions.visit(&first, 1000).pages_this_visit, 1);
        let cvr = first.cookie.to_string();
        let again = next_visit(Some(&cvr), Some("1000"), 2000, id);
        assert_eq!(sessions.visit(&again, 2000).pages_this_visit, 2);
        let later = 2000 + VISIT_LENGTH_MS;
        let next = next_visit(Some(&cvr), Some("2000"), later, id);
        let state = sessions.visit(&next, later);
        assert_eq!((state.visits, state.pages_this_visit), (2, 1));
        sessions.take_changed();
        sessions.sweep(later + VISIT_LENGTH_MS);
        assert_eq!(sessions.live(), 0);
    }

    #[test]
    fn a_visit_the_loader_started_resets_the_pages_and_is_counted_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let mut sessions = VisitorSessions::new(store, writer, &TelemetryLimits::default());
        for (at, cvt) in [(1000, "1000"), (2000, "1000")] {
            sessions.visit(&next_visit(Some("v1|1000|1000|1000|1"), Some(cvt), at, id), at);
        }
        // Its ss_cvt expired, the loader started visit 2 and sent a fresh ss_cvt with it.
        let later = 2000 + VISIT_LENGTH_MS;
        let cvr = format!("v1|1000|1000|{later}|2");
        let started = sessions.visit(&next_visit(Some(&cvr), Some(&later.to_string()), later, id), later);
        assert_eq!((started.visits, started.pages_this_visit, started.current), (2, 1, later));
        let next = sessions.visit(&next_visit(Some(&cvr), Some(&later.to_string()), later + 1, id), later + 1);
        assert_eq!((next.visits, next.pages_this_visit), (2, 2), "the same visit goes on, counted once");
    }

    #[tokio::test]
    async fn changed_sessions_are_written_once_per_interval_and_swept_only_once_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let mut sessions = VisitorSessions::new(store.clone(), writer.clone(), &TelemetryLimits::default());
        let first = next_visit(None, None, 1000, id);
        sessions.visit(&first, 1000);
        let cvr = first.cookie.to_string();
        for at in [2000, 3000, 4000] {
            sessions.visit(&next_visit(Some(&cvr), Some("1000"), at, id), at);
        }
        let far = 4000 + 2 * VISIT_LENGTH_MS;
        sessions.sweep(far);
        assert_eq!(sessions.live(), 1, "a session not yet written stays in memory");
        let writes = sessions.take_changed();
        assert_eq!(writes.len(), 1, "four hits of one visitor, one write");
        let written: VisitState = serde_json::from_slice(&writes[0].value).expect("a session");
        assert_eq!(written.pages_this_visit, 4);
        assert!(sessions.take_changed().is_empty());
        writer.write_all(writes).expect("queued");
        writer.drained().await;
        sessions.sweep(far);
        assert_eq!(sessions.live(), 0);
        assert_eq!(sessions.get(&id()).map(|s| s.pages_this_visit), Some(4), "rehydrated from the store");
    }

    #[test]
    fn the_inbox_is_bounded_and_applied_in_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let limits = TelemetryLimits { mailbox_capacity: 1, ..TelemetryLimits::default() };
        let mut sessions = VisitorSessions::new(store, writer, &limits);
        let inbox = sessions.inbox();
        let first = next_visit(None, None, 1000, id);
        let cvr = first.cookie.to_string();
        inbox.offer(RecordVisit { outcome: first, at: 1000 }).expect("room");
        for n in 1..INBOX_VISITS_PER_SLOT {
            let at = 1000 + n as u64;
            inbox.offer(RecordVisit { outcome: next_visit(Some(&cvr), Some("1000"), at, id), at }).expect("room");
        }
        let late = next_visit(Some(&cvr), Some("1000"), 5000, id);
        assert!(inbox.offer(RecordVisit { outcome: late, at: 5000 }).is_err(), "full: 503");
        assert_eq!(sessions.live(), 0, "nothing applied before the actor takes the inbox");
        sessions.apply_inbox();
        let state = sessions.get(&id()).expect("a session");
        assert_eq!((state.pages_this_visit, state.last_seen), (INBOX_VISITS_PER_SLOT as u32, 1007));
        let again = next_visit(Some(&cvr), Some("1007"), 6000, id);
        assert!(inbox.offer(RecordVisit { outcome: again, at: 6000 }).is_ok(), "room again once taken");
    }

    #[test]
    fn live_visitors_are_those_seen_within_the_window() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let mut sessions = VisitorSessions::new(store, writer, &TelemetryLimits::default());
        let other = || VisitorId::parse("v2").expect("valid");
        sessions.visit(&next_visit(None, None, 1_000, id), 1_000);
        sessions.visit(&next_visit(None, None, 400_000, other), 400_000);
        assert_eq!(sessions.active_since(400_000, 300_000), 1);
        assert_eq!(sessions.active_since(400_000, 500_000), 2);
    }

    #[test]
    fn swept_sessions_are_rehydrated_from_the_store() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let stored = VisitState { visits: 3, first: 1, previous: 2, current: 3, pages_this_visit: 4, last_seen: 5 };
        let bytes = serde_json::to_vec(&stored).expect("serialises");
        futures_lite_block_on(store.put(Tree::VisitorSessions, b"v1", &bytes));
        let writer = TelemetryWriter::start(store.clone());
        let mut sessions = VisitorSessions::new(store, writer, &TelemetryLimits::default());
        assert_eq!(sessions.get(&id()), Some(stored));
        let cvr = "v1|1|2|3|3";
        let same_visit = next_visit(Some(cvr), Some("10"), 20, id);
        assert_eq!(sessions.visit(&same_visit, 20).pages_this_visit, 5);
    }

    /// Runs a store future to completion on a throwaway runtime.
    fn futures_lite_block_on<T>(fut: crate::store::StoreFuture<'_, T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(fut)
            .expect("store op")
    }
}
