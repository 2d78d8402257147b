//! Tests of the visitor sessions actor.

use super::*;
use crate::store::SledStore;
use crate::telemetry::cookie::next_visit;

const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

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
    assert_eq!(sessions.visit(&first, LOCAL, 1000).pages_this_visit, 1);
    let cvr = first.cookie.to_string();
    let again = next_visit(Some(&cvr), Some("1000"), 2000, id);
    assert_eq!(sessions.visit(&again, LOCAL, 2000).pages_this_visit, 2);
    let later = 2000 + VISIT_LENGTH_MS;
    let next = next_visit(Some(&cvr), Some("2000"), later, id);
    let state = sessions.visit(&next, LOCAL, later);
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
        sessions.visit(&next_visit(Some("v1|1000|1000|1000|1"), Some(cvt), at, id), LOCAL, at);
    }
    // Its ss_cvt expired, the loader started visit 2 and sent a fresh ss_cvt with it.
    let later = 2000 + VISIT_LENGTH_MS;
    let cvr = format!("v1|1000|1000|{later}|2");
    let started = sessions.visit(&next_visit(Some(&cvr), Some(&later.to_string()), later, id), LOCAL, later);
    assert_eq!((started.visits, started.pages_this_visit, started.current), (2, 1, later));
    let next = sessions.visit(&next_visit(Some(&cvr), Some(&later.to_string()), later + 1, id), LOCAL, later + 1);
    assert_eq!((next.visits, next.pages_this_visit), (2, 2), "the same visit goes on, counted once");
}

#[tokio::test]
async fn changed_sessions_are_written_once_per_interval_and_swept_only_once_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let writer = TelemetryWriter::start(store.clone());
    let mut sessions = VisitorSessions::new(store.clone(), writer.clone(), &TelemetryLimits::default());
    let first = next_visit(None, None, 1000, id);
    sessions.visit(&first, LOCAL, 1000);
    let cvr = first.cookie.to_string();
    for at in [2000, 3000, 4000] {
        sessions.visit(&next_visit(Some(&cvr), Some("1000"), at, id), LOCAL, at);
    }
    let far = 4000 + 2 * VISIT_LENGTH_MS;
    sessions.sweep(far);
    assert_eq!(sessions.live(), 1, "a session not yet written stays in memory");
    let writes = sessions.take_changed();
    assert_eq!(writes.len(), 1, "four hits of one visitor, one write");
    let written = VisitState::from_bytes(&writes[0].value).expect("a session");
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
    inbox.offer(RecordVisit { outcome: first, address: LOCAL, at: 1000 }).expect("room");
    for n in 1..INBOX_VISITS_PER_SLOT {
        let at = 1000 + n as u64;
        inbox
            .offer(RecordVisit { outcome: next_visit(Some(&cvr), Some("1000"), at, id), address: LOCAL, at })
            .expect("room");
    }
    let late = next_visit(Some(&cvr), Some("1000"), 5000, id);
    assert!(inbox.offer(RecordVisit { outcome: late, address: LOCAL, at: 5000 }).is_err(), "full: 503");
    assert_eq!(sessions.live(), 0, "nothing applied before the actor takes the inbox");
    sessions.apply_inbox();
    let state = sessions.get(&id()).expect("a session");
    assert_eq!((state.pages_this_visit, state.last_seen), (INBOX_VISITS_PER_SLOT as u32, 1007));
    let again = next_visit(Some(&cvr), Some("1007"), 6000, id);
    assert!(inbox.offer(RecordVisit { outcome: again, address: LOCAL, at: 6000 }).is_ok(), "room again once taken");
}

#[test]
fn live_visitors_are_those_seen_within_the_window() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let writer = TelemetryWriter::start(store.clone());
    let mut sessions = VisitorSessions::new(store, writer, &TelemetryLimits::default());
    let other = || VisitorId::parse("v2").expect("valid");
    sessions.visit(&next_visit(None, None, 1_000, id), LOCAL, 1_000);
    sessions.visit(&next_visit(None, None, 400_000, other), LOCAL, 400_000);
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
    assert_eq!(sessions.visit(&same_visit, LOCAL, 20).pages_this_visit, 5);
}

#[test]
fn a_timed_id_is_stored_under_its_time_and_found_where_servers_before_kept_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let writer = TelemetryWriter::start(store.clone());
    let mut sessions = VisitorSessions::new(store.clone(), writer, &TelemetryLimits::default());
    let made = VisitorId::time_ordered(1_700_000_000_000);
    sessions.visit(&next_visit(None, None, 1_700_000_000_000, || made.clone()), LOCAL, 1_700_000_000_005);
    let writes = sessions.take_changed();
    assert_eq!(writes.len(), 1);
    assert_eq!(&writes[0].key[..8], &1_700_000_000_000u64.to_be_bytes(), "the millisecond first");
    assert_eq!(&writes[0].key[8..], made.as_str().as_bytes(), "then the id");

    // A session a server before wrote under the id alone is still found.
    let before = VisitorId::parse("118bcfe568000123456789abcdef0123").expect("a loader's id");
    let stored = VisitState { visits: 2, first: 1, previous: 2, current: 3, pages_this_visit: 4, last_seen: 5 };
    futures_lite_block_on(store.put(Tree::VisitorSessions, before.as_str().as_bytes(), &stored.to_bytes()));
    assert_eq!(sessions.get(&before), Some(stored));
    let cvr = format!("{}|1|2|3|2", before.as_str());
    let same_visit = next_visit(Some(&cvr), Some("10"), 20, VisitorId::random);
    assert_eq!(sessions.visit(&same_visit, LOCAL, 20).pages_this_visit, 5);
    let writes = sessions.take_changed();
    assert_eq!(writes[0].key, [&1_700_000_000_000u64.to_be_bytes()[..], before.as_str().as_bytes()].concat());
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

#[tokio::test]
async fn sessions_past_an_address_bound_are_ended_and_written_not_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let writer = TelemetryWriter::start(store.clone());
    let limits = TelemetryLimits { visitor_sessions: 4, visitor_sessions_per_address: 2, ..TelemetryLimits::default() };
    let mut sessions = VisitorSessions::new(store.clone(), writer.clone(), &limits);
    let visitor = |n: u32| VisitorId::parse(&format!("v{n}")).expect("valid");
    let other = IpAddr::from([10, 0, 0, 2]);
    sessions.visit(&next_visit(None, None, 1, || visitor(0)), other, 1);
    for n in 1..=10 {
        sessions.visit(&next_visit(None, None, u64::from(n), || visitor(n)), LOCAL, u64::from(n));
    }
    assert_eq!(sessions.live(), 3, "two of the flooding address, one of the other");
    assert!(sessions.get(&visitor(0)).is_some(), "the other address's session is live");
    assert_eq!(sessions.get(&visitor(1)).map(|s| s.last_seen), Some(1), "an ended session is still known");
    let writes = sessions.take_changed();
    assert_eq!(writes.len(), 11, "every session, ended or live, is written once");
    writer.write_all(writes).expect("queued");
    writer.drained().await;
    let again = sessions.visit(&next_visit(Some("v1|1|1|1|1"), Some("1"), 2, || visitor(1)), LOCAL, 2);
    assert_eq!(again.pages_this_visit, 2, "an ended session is rehydrated from the store");
    for n in 20..30u8 {
        let id = u32::from(n);
        sessions.visit(&next_visit(None, None, 50, || visitor(id)), IpAddr::from([10, 1, 0, n]), 50);
    }
    assert_eq!(sessions.live(), 4, "the table's total bound");
}

#[test]
fn a_new_visitor_costs_no_store_read_and_a_returning_one_is_looked_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let counting = Arc::new(crate::store::probed::ProbedStore::new(SledStore::open(dir.path()).expect("opens")));
    let store: Arc<dyn Store> = counting.clone();
    let writer = TelemetryWriter::start(store.clone());
    let mut sessions = VisitorSessions::new(store, writer, &TelemetryLimits::default());
    let reads = || counting.reads.load(std::sync::atomic::Ordering::Relaxed);
    let fresh = next_visit(None, None, 1_000, id);
    assert!(fresh.recreated);
    assert_eq!(sessions.visit(&fresh, LOCAL, 1_000).pages_this_visit, 1);
    assert_eq!(reads(), 0, "a minted id is in no store");
    let other = || VisitorId::parse("v2").expect("valid");
    let returning = next_visit(Some("v2|1|1|1|1"), Some("1"), 2_000, other);
    sessions.visit(&returning, LOCAL, 2_000);
    assert_eq!(reads(), 1, "a visitor back with its cookie is looked up");
}
