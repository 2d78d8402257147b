//! [`VisitorShards`]: the visitor sessions as N [`VisitorSessions`] actors, each on its
//! own arbiter (thread) with its share of `[telemetry] visitor_sessions` and
//! `visitor_sessions_per_address`. A visit goes to the inbox of the shard its visitor id
//! hashes to (for a new visitor, the id just minted), so one visitor's session lives in
//! one shard; questions about all visitors ask every shard and add the answers up.

use std::sync::Arc;

use actix::{Actor, Addr, MailboxError};

use super::{
    CountActiveVisitors, FlushVisitorSessions, GetVisitorSession, InboxFull, RecordVisit, VisitInbox, VisitState,
    VisitorSessions,
};
use crate::store::Store;
use crate::telemetry::cookie::VisitorId;
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::shards::{shard_count, shard_of, start_on_arbiters, Arbiters};
use crate::telemetry::writer::TelemetryWriter;

/// One shard: its actor and the inbox requests hand its visits to.
struct Shard {
    /// The shard's actor.
    sessions: Addr<VisitorSessions>,
    /// Its inbox.
    inbox: VisitInbox,
}

/// The visitor-session shards; clones share them.
#[derive(Clone)]
pub struct VisitorShards {
    /// The shards, by number.
    shards: Arc<[Shard]>,
    /// The threads the shards run on (kept for as long as the shards are).
    _arbiters: Arc<Arbiters>,
}

impl VisitorShards {
    /// Starts `[telemetry] shards` shards (see [`shard_count`]), each on a new arbiter;
    /// call inside the actix system.
    pub fn start(store: Arc<dyn Store>, writer: TelemetryWriter, limits: &TelemetryLimits) -> VisitorShards {
        let count = shard_count(limits.shards).max(1);
        let share = limits.shard(count);
        let (shards, arbiters) = start_on_arbiters(count, |arbiter| {
            let actor = VisitorSessions::new(store.clone(), writer.clone(), &share);
            let inbox = actor.inbox();
            Shard { sessions: VisitorSessions::start_in_arbiter(arbiter, move |_| actor), inbox }
        });
        VisitorShards { shards, _arbiters: arbiters }
    }

    /// How many shards there are.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// Whether there is none (never: at least one is started).
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }

    /// The shard of the visitor `id`.
    pub fn shard_of(&self, id: &VisitorId) -> usize {
        shard_of(id.as_str().as_bytes(), self.shards.len())
    }

    /// Hands `visit` to its visitor's shard; refused (handed back) when that shard's
    /// inbox is full.
    pub fn offer(&self, visit: RecordVisit) -> Result<(), InboxFull> {
        self.shards[self.shard_of(&visit.outcome.cookie.id)].inbox.offer(visit)
    }

    /// The session of the visitor `id`, if the server knows it.
    pub async fn get(&self, id: VisitorId) -> Result<Option<VisitState>, MailboxError> {
        self.shards[self.shard_of(&id)].sessions.send(GetVisitorSession(id)).await
    }

    /// How many visitors were seen in the last `window_ms`, over every shard.
    pub async fn count_active(&self, window_ms: u64) -> Result<usize, MailboxError> {
        // Every shard is asked before any answer is awaited: they count at once.
        let asked: Vec<_> =
            self.shards.iter().map(|shard| shard.sessions.send(CountActiveVisitors { window_ms })).collect();
        let mut total = 0;
        for answer in asked {
            total += answer.await?;
        }
        Ok(total)
    }

    /// Writes every shard's changed sessions and waits until they are in the store
    /// (shutdown); how many there were.
    pub async fn flush(&self) -> usize {
        let asked: Vec<_> = self.shards.iter().map(|shard| shard.sessions.send(FlushVisitorSessions)).collect();
        let mut total = 0;
        for answer in asked {
            total += answer.await.unwrap_or(0);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;
    use crate::store::SledStore;
    use crate::telemetry::cookie::next_visit;

    fn sharded(limits: TelemetryLimits) -> (tempfile::TempDir, Arc<dyn Store>, VisitorShards) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let shards = VisitorShards::start(store.clone(), writer, &limits);
        (dir, store, shards)
    }

    fn visitor(n: u32) -> VisitorId {
        VisitorId::parse(&format!("visitor-{n}")).expect("valid")
    }

    #[actix::test]
    async fn a_visitor_always_lands_on_one_shard_and_counts_every_page() {
        let (_dir, store, shards) = sharded(TelemetryLimits { shards: 4, ..TelemetryLimits::default() });
        assert_eq!(shards.len(), 4);
        let address = IpAddr::from([10, 0, 0, 1]);
        let mut homes = std::collections::HashSet::new();
        for n in 0..40 {
            let first = next_visit(None, None, 1_000, || visitor(n));
            homes.insert(shards.shard_of(&first.cookie.id));
            let cvr = first.cookie.to_string();
            shards.offer(RecordVisit { outcome: first, address, at: 1_000 }).expect("room");
            for at in [2_000, 3_000] {
                let again = next_visit(Some(&cvr), Some("1000"), at, || visitor(n));
                shards.offer(RecordVisit { outcome: again, address, at }).expect("room");
            }
        }
        assert_eq!(homes.len(), 4, "forty visitors spread over the four shards");
        for n in 0..40 {
            let state = shards.get(visitor(n)).await.expect("answers").expect("a session");
            assert_eq!(state.pages_this_visit, 3, "all three pages of visitor {n} met in its shard");
        }
        let all = shards.count_active(u64::MAX).await.expect("answers");
        assert_eq!(all, 40, "every shard's visitors are counted once");
        shards.flush().await;
        let stored = store.scan_prefix(crate::store::Tree::VisitorSessions, b"", 100).expect("scans");
        assert_eq!(stored.len(), 40, "every shard's sessions are written");
    }

    #[actix::test]
    async fn the_shards_together_hold_no_more_sessions_than_the_bounds() {
        let limits =
            TelemetryLimits { shards: 4, visitor_sessions: 40, visitor_sessions_per_address: 8, ..Default::default() };
        let (_dir, _, shards) = sharded(limits);
        let flooder = IpAddr::from([203, 0, 113, 7]);
        for n in 0..200 {
            let outcome = next_visit(None, None, 1_000, || visitor(n));
            shards.offer(RecordVisit { outcome, address: flooder, at: 1_000 }).expect("room");
        }
        let flooded = shards.count_active(u64::MAX).await.expect("answers");
        assert_eq!(flooded, 8, "one address keeps its bound over all shards, a share in each");
        for n in 0..200u32 {
            let address = IpAddr::from([10, 1, (n / 250) as u8, (n % 250) as u8]);
            let outcome = next_visit(None, None, 2_000, || visitor(1_000 + n));
            shards.offer(RecordVisit { outcome, address, at: 2_000 }).expect("room");
        }
        let crowd = shards.count_active(u64::MAX).await.expect("answers");
        assert_eq!(crowd, 40, "the table's total bound over all shards");
    }
}
