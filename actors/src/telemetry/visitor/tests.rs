//! Tests of the visitor sessions actor.

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
