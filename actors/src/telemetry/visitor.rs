//! The [`VisitorSessions`] actor: the live visitor sessions, one small entry per visitor
//! id (about 150 bytes with its key), and the census hits they make.
//!
//! A hit's cookies are worked out by [`crate::telemetry::cookie::next_visit`] before the
//! message is sent; this actor keeps what the server knows of the visit (visit count,
//! first/previous/current visit, pages in this visit) and writes it to the visitor-sessions
//! tree. The hit itself goes to the census tree straight from the request ([`record_hit`]). Entries idle past the 30-minute visit
//! boundary are dropped from memory and rehydrated from the store on the next hit.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message};
use serde::{Deserialize, Serialize};

use crate::store::{Store, Tree};
use crate::telemetry::cookie::{VisitOutcome, VisitorId, VISIT_LENGTH_MS};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics;
use crate::telemetry::records::{now_ms, record_key};
use crate::telemetry::writer::{TelemetryWriter, WriterBusy};

/// How often idle sessions are dropped from memory.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(60);

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
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
}

impl VisitorSessions {
    /// No live sessions yet.
    pub fn new(store: Arc<dyn Store>, writer: TelemetryWriter, limits: &TelemetryLimits) -> VisitorSessions {
        VisitorSessions { store, writer, sessions: HashMap::new(), mailbox_capacity: limits.mailbox_capacity }
    }

    /// Applies a hit's visit to the visitor's session (rehydrated if needed).
    pub fn visit(&mut self, outcome: &VisitOutcome, now: u64) -> VisitState {
        let id = &outcome.cookie.id;
        let known = match self.sessions.get(id) {
            Some(state) => Some(*state),
            None => self.load(id),
        };
        let pages = match known {
            Some(state) if !outcome.new_visit => state.pages_this_visit.saturating_add(1),
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
        self.sessions.insert(id.clone(), state);
        metrics::live_sessions(self.sessions.len());
        state
    }

    /// The session of `id`, from memory or the store.
    pub fn get(&self, id: &VisitorId) -> Option<VisitState> {
        self.sessions.get(id).copied().or_else(|| self.load(id))
    }

    /// Drops sessions idle past the visit boundary; they stay in the store.
    pub fn sweep(&mut self, now: u64) {
        self.sessions.retain(|_, s| now.saturating_sub(s.last_seen) < VISIT_LENGTH_MS);
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

/// Applies a page view's visit to the visitor's session and writes the session.
#[derive(Message)]
#[rtype(result = "()")]
pub struct RecordVisit {
    /// The visit, as the cookies say.
    pub outcome: VisitOutcome,
    /// When the page view came (unix ms).
    pub at: u64,
}

impl Handler<RecordVisit> for VisitorSessions {
    type Result = ();

    fn handle(&mut self, msg: RecordVisit, _: &mut Self::Context) {
        let state = self.visit(&msg.outcome, msg.at);
        if let Ok(value) = serde_json::to_vec(&state) {
            let key = msg.outcome.cookie.id.as_str().as_bytes().to_vec();
            if self.writer.write(Tree::VisitorSessions, key, value).is_err() {
                metrics::rejected("record_hit", "writer_busy");
            }
        }
    }
}

/// Returns a visitor's session, if the server knows it.
#[derive(Message)]
#[rtype(result = "Option<VisitState>")]
pub struct GetVisitorSession(pub VisitorId);

impl Handler<GetVisitorSession> for VisitorSessions {
    type Result = Option<VisitState>;

    fn handle(&mut self, msg: GetVisitorSession, _: &mut Self::Context) -> Option<VisitState> {
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
        sessions.sweep(later + VISIT_LENGTH_MS);
        assert_eq!(sessions.live(), 0);
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
