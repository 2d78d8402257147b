//! `visitor_rss [N]`: the memory of idle visitor sessions. Starts the `VisitorSessions`
//! actor in-process, records one visit for each of N (default 100,000) new visitors
//! through the actor's messages, and prints the resident-set growth per session.
//!
//! The store is one that keeps nothing (every write resolves at once), so the figure is
//! the sessions' own memory, not the database cache. Linux only (`/proc/self/statm`).
//!
//!   cargo run --release -p veranda-benches --bin visitor_rss

use std::sync::Arc;

use actix::Actor;
use veranda_actors::store::{Store, StoreError, StoreFuture, Tree};
use veranda_actors::telemetry::cookie::{next_visit, VisitorId};
use veranda_actors::telemetry::visitor::{FlushVisitorSessions, GetVisitorSession, InboxFull, RecordVisit};
use veranda_actors::telemetry::{TelemetryLimits, TelemetryWriter, VisitorSessions};

/// A store that keeps nothing.
struct NullStore;

impl Store for NullStore {
    fn get(&self, _: Tree, _: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(None)
    }
    fn put<'a>(&'a self, _: Tree, _: &'a [u8], _: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }
    fn delete<'a>(&'a self, _: Tree, _: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }
    fn put_atomic<'a>(&'a self, _: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }
    fn scan_prefix(&self, _: Tree, _: &[u8], _: usize) -> Result<veranda_actors::store::Entries, StoreError> {
        Ok(Vec::new())
    }
    fn scan_range(
        &self,
        _: Tree,
        _: &[u8],
        _: Option<&[u8]>,
        _: usize,
    ) -> Result<veranda_actors::store::Entries, StoreError> {
        Ok(Vec::new())
    }
    fn delete_all<'a>(&'a self, _: Tree, _: &'a [Vec<u8>]) -> StoreFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }
    fn flush(&self) -> StoreFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
}

/// Resident set size in bytes.
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

#[actix::main]
async fn main() -> std::process::ExitCode {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let store: Arc<dyn Store> = Arc::new(NullStore);
    let writer = TelemetryWriter::start(store.clone());
    let limits = TelemetryLimits { mailbox_capacity: 4096, ..TelemetryLimits::default() };
    let sessions = VisitorSessions::new(store, writer.clone(), &limits);
    let inbox = sessions.inbox();
    let sessions = sessions.start();
    // Warm up the actor, the writer and the allocator before the first reading.
    let now = 1_700_000_000_000u64;
    let warm = next_visit(None, None, now, || VisitorId::time_ordered(now));
    let _ = inbox.offer(RecordVisit { outcome: warm, address: std::net::Ipv4Addr::LOCALHOST.into(), at: now });
    let _ = sessions.send(FlushVisitorSessions).await;
    let before = rss_bytes();
    let mut last = None;
    for i in 0..n {
        let outcome = next_visit(None, None, now + i as u64, || VisitorId::time_ordered(now + i as u64));
        last = Some(outcome.cookie.id.clone());
        // Each from its own address, so the per-address bound does not end them.
        let address = std::net::IpAddr::from((i as u32).to_be_bytes());
        let mut visit = RecordVisit { outcome, address, at: now + i as u64 };
        // A full inbox waits for the actor to take it, as a request would retry after 503.
        while let Err(InboxFull(back)) = inbox.offer(visit) {
            visit = back;
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }
    // Applies what is left and writes every changed session, as the intervals would.
    if sessions.send(FlushVisitorSessions).await.is_err() {
        eprintln!("visitor_rss: the actor stopped");
        return std::process::ExitCode::FAILURE;
    }
    let after = rss_bytes();
    let known = match last {
        Some(id) => sessions.send(GetVisitorSession(id)).await.ok().flatten().is_some(),
        None => false,
    };
    let delta = after.saturating_sub(before);
    println!("sessions: {n} (last one held in memory: {known})");
    println!("rss before: {} KiB, after: {} KiB, delta: {} KiB", before / 1024, after / 1024, delta / 1024);
    println!("per idle session: {} bytes", delta / n.max(1) as u64);
    std::process::ExitCode::SUCCESS
}
