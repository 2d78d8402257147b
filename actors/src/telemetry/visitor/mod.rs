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
//! The sessions in memory are a [`BoundedTable`]: at most `[telemetry] visitor_sessions`,
//! at most `visitor_sessions_per_address` of them started by one client address. Past a
//! bound the least recently used session (the address's own, or anyone's when the table
//! is full) is ended: a changed one is written with the next batch like any other, then
//! rehydrated from the store if its visitor comes back. A flood of cookieless hits from
//! one address thus costs memory for that address's bound only, and nothing is lost.
//!
//! Requests hand their visits to a [`VisitInbox`], which the actor empties every
//! [`VISIT_DRAIN_INTERVAL`] (and before answering any question), so a page view costs a
//! push under a short lock, not a message that wakes the actor's thread. Sessions changed
//! by hits are written every [`SESSION_WRITE_INTERVAL`], one batch for all of them, so a
//! visitor clicking through pages costs one write per interval, not one per hit; a change
//! reaches the writer within that interval, inside the telemetry class's loss window.
//!
//! The server runs the sessions as [`VisitorShards`]: N of these actors, each on its own
//! thread with its share of the bounds, a visitor's hits always going to the shard its id
//! hashes to ([`crate::telemetry::shards`]).

use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::store::{Store, Tree};
use crate::tables::{BoundedTable, FastMap, FastSet, Table};
use crate::telemetry::cookie::{VisitOutcome, VisitorId, VISIT_LENGTH_MS};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics;
use crate::telemetry::records::{now_ms, record_key};
use crate::telemetry::writer::{TelemetryWriter, Write, WriterBusy};

pub use crate::telemetry::stored::VisitState;
use crate::telemetry::stored::{session_id, session_key, session_key_before};
pub use shards::VisitorShards;

mod shards;

/// How often idle sessions are dropped from memory.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(60);
/// How often changed sessions are handed to the writer: often enough that each round is a
/// short run of inserts, which the request threads sharing the writer's core wait behind.
/// A real visitor's page views are seconds apart, so a longer interval would not save
/// writes; it would only gather them into longer bursts.
pub const SESSION_WRITE_INTERVAL: Duration = Duration::from_millis(50);
/// How often the actor takes the visits waiting in its inbox.
pub const VISIT_DRAIN_INTERVAL: Duration = Duration::from_millis(20);
/// Room the set of changed sessions keeps between intervals.
const DIRTY_KEPT: usize = 4096;
/// Visits an inbox holds per mailbox slot of the telemetry limits (a full inbox → 503).
const INBOX_VISITS_PER_SLOT: usize = 8;

/// One census record; its `data` is JSON text, or anything that writes itself as JSON (a
/// page view's, written straight into the record instead of into a text of its own first).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CensusHit<D = Box<RawValue>> {
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
    /// The call's fields (the `data` JSON, or the form fields), as JSON: a page view's
    /// `data` is stored as the loader sent it, not parsed and written out again.
    pub data: D,
}

impl CensusHit {
    /// `value` as the JSON text of a hit's [`data`](CensusHit::data).
    pub fn data_of(value: &serde_json::Value) -> Box<RawValue> {
        // A `Value` always serialises (its map keys are strings).
        serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
    }
}

/// Owns the visitor sessions held in memory.
pub struct VisitorSessions {
    /// Where sessions are read back from.
    store: Arc<dyn Store>,
    /// Where sessions are written.
    writer: TelemetryWriter,
    /// Live sessions by visitor id, bounded per client address and in total.
    sessions: BoundedTable<VisitorId, VisitState>,
    /// Sessions changed since they were last handed to the writer.
    dirty: FastSet<VisitorId>,
    /// Changed sessions evicted from memory, written with the next batch.
    ended: FastMap<VisitorId, VisitState>,
    /// Most evicted sessions kept while the writer is busy (the table's total bound).
    ended_kept: usize,
    /// Visits handed over by requests, not yet applied.
    inbox: VisitInbox,
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
    /// The live sessions this actor last added to the live-sessions gauge (the shards
    /// add up to one gauge).
    live_reported: usize,
}

impl VisitorSessions {
    /// No live sessions yet.
    pub fn new(store: Arc<dyn Store>, writer: TelemetryWriter, limits: &TelemetryLimits) -> VisitorSessions {
        VisitorSessions {
            store,
            writer,
            sessions: BoundedTable::new(
                Table::VisitorSessions,
                limits.visitor_sessions,
                limits.visitor_sessions_per_address,
            ),
            dirty: FastSet::default(),
            ended: FastMap::default(),
            ended_kept: limits.visitor_sessions.max(1),
            inbox: VisitInbox::new(limits.mailbox_capacity.max(1).saturating_mul(INBOX_VISITS_PER_SLOT)),
            mailbox_capacity: limits.mailbox_capacity,
            live_reported: 0,
        }
    }

    /// Adds the change in live sessions since the last report to the gauge.
    fn report_live(&mut self) {
        let live = self.sessions.len();
        if live != self.live_reported {
            metrics::live_sessions_changed(live as f64 - self.live_reported as f64);
            self.live_reported = live;
        }
    }

    /// The inbox requests hand their visits to (share it before starting the actor).
    pub fn inbox(&self) -> VisitInbox {
        self.inbox.clone()
    }

    /// Applies every visit waiting in the inbox, in the order they came.
    pub fn apply_inbox(&mut self) {
        for visit in self.inbox.take() {
            self.visit(&visit.outcome, visit.address, visit.at);
        }
    }

    /// Applies a hit's visit from `address` to the visitor's session (rehydrated if
    /// needed); a new session past a bound ends the least recently used one.
    pub fn visit(&mut self, outcome: &VisitOutcome, address: IpAddr, now: u64) -> VisitState {
        let id = &outcome.cookie.id;
        let known = match self.sessions.get_mut(id) {
            Some(state) => Some(*state),
            // An id just minted for a hit without a valid cookie pair is in no store:
            // a new visitor costs no read.
            None if outcome.recreated => self.ended.remove(id),
            None => self.ended.remove(id).or_else(|| self.load(id)),
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
        for (old, ended) in self.sessions.insert(id.clone(), address, state) {
            if self.dirty.remove(&old) {
                self.ended.insert(old, ended);
            }
        }
        self.report_live();
        state
    }

    /// The writes of every session changed since the last call; the sessions count as
    /// written from now on.
    pub fn take_changed(&mut self) -> Vec<Write> {
        let mut writes = Vec::with_capacity(self.dirty.len() + self.ended.len());
        let ended = std::mem::take(&mut self.ended);
        let changed = self.dirty.drain().filter_map(|id| self.sessions.peek(&id).map(|state| (id, *state)));
        for (id, state) in changed.chain(ended) {
            writes.push(Write { tree: Tree::VisitorSessions, key: session_key(&id), value: state.to_bytes() });
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
            for write in back {
                let id = std::str::from_utf8(session_id(&write.key)).ok().and_then(|k| VisitorId::parse(k).ok());
                let Some(id) = id else {
                    continue;
                };
                if self.sessions.contains(&id) {
                    self.dirty.insert(id);
                } else if self.ended.len() >= self.ended_kept {
                    metrics::dropped(metrics::VISITOR_SESSIONS, metrics::WRITER_BUSY, 1);
                } else if let Some(state) = VisitState::from_bytes(&write.value) {
                    self.ended.insert(id, state);
                }
            }
        }
    }

    /// The session of `id`, from memory or the store.
    pub fn get(&self, id: &VisitorId) -> Option<VisitState> {
        self.sessions.peek(id).or_else(|| self.ended.get(id)).copied().or_else(|| self.load(id))
    }

    /// Drops sessions idle past the visit boundary; they stay in the store (changed ones
    /// stay in memory until written).
    pub fn sweep(&mut self, now: u64) {
        let dirty = &self.dirty;
        self.sessions.retain(|id, s| now.saturating_sub(s.last_seen) < VISIT_LENGTH_MS || dirty.contains(id));
        self.ended.shrink_to_fit();
        self.report_live();
    }

    /// How many sessions are in memory.
    pub fn live(&self) -> usize {
        self.sessions.len()
    }

    /// How many visitors were seen in the `window_ms` up to `now`.
    pub fn active_since(&self, now: u64, window_ms: u64) -> usize {
        let oldest = now.saturating_sub(window_ms);
        self.sessions.iter().filter(|(_, s)| s.last_seen >= oldest).count()
    }

    /// The stored session of `id`: under its key, or where a server before kept it.
    fn load(&self, id: &VisitorId) -> Option<VisitState> {
        let get = |key: &[u8]| self.store.get(Tree::VisitorSessions, key).ok().flatten();
        let bytes = get(&session_key(id)).or_else(|| session_key_before(id).and_then(get))?;
        VisitState::from_bytes(&bytes)
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

/// How long a census hit waits for room in the writer's full queue before it is refused
/// (503): a few of the writer's rounds, well inside the loader's 2,500 ms timeout.
pub const HIT_PATIENCE: Duration = Duration::from_millis(250);

/// Writes a census hit (from the request's thread; no actor is involved), waiting up to
/// [`HIT_PATIENCE`] for room in the writer's queue.
pub async fn record_hit<D: Serialize>(writer: &TelemetryWriter, hit: &CensusHit<D>) -> Result<(), WriterBusy> {
    match serde_json::to_vec(hit) {
        Ok(value) => {
            let write = Write { tree: Tree::Census, key: record_key(hit.at).to_vec(), value };
            writer.write_all_within(vec![write], HIT_PATIENCE).await
        }
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
    /// The client address the hit came from.
    pub address: IpAddr,
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
mod tests;
