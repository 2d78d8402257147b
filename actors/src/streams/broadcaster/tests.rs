//! The broadcaster's tests: slow subscribers, relays and rebases, shared streams, resuming.

use super::*;
use crate::store::redis_store::DEFAULT_KEY_PREFIX;
use crate::store::{SledStore, Store};
use serde_json::json;

async fn broadcaster(client_queue: usize) -> (Broadcaster, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let limits = StreamLimits { client_queue, history_events: 100, ..StreamLimits::default() };
    let journal = Journal::new(store, StreamName::Edits);
    (Broadcaster::load(journal, StreamName::Edits, &limits).await.expect("loads"), dir)
}

fn offset_of(frame: &ByteString) -> u64 {
    let value: serde_json::Value = serde_json::from_str(frame).expect("json");
    value["offset"].as_u64().expect("an offset")
}

#[actix::test]
async fn a_stalled_subscriber_is_dropped_while_the_others_get_every_event_in_order() {
    let (mut hub, _dir) = broadcaster(4).await;
    let mut reader = hub.subscribe(None, 0);
    let stalled = hub.subscribe(None, 0);
    let mut seen = Vec::new();
    for i in 0..50 {
        hub.publish(json!(i), 1);
        while let Ok(frame) = reader.outbox.try_recv() {
            seen.push(offset_of(&frame));
        }
    }
    assert_eq!(seen, (1..=50).collect::<Vec<u64>>());
    let stats = hub.stats();
    assert_eq!((stats.clients, stats.slow_consumers), (1, 1));
    assert!(stats.queue_high_water <= 4);
    assert!(!hub.subscribers.contains_key(&stalled.id));
}

#[actix::test]
async fn relayed_events_follow_the_head_and_a_rebase_resets_every_subscriber() {
    let (mut hub, _dir) = broadcaster(16).await;
    let epoch = hub.stats().epoch;
    let stored = |offset| super::super::StoredEvent { epoch: epoch.clone(), offset, at: 1, data: json!(offset) };
    let mut sub = hub.subscribe(None, 0);
    hub.relay(stored(1), 1).expect("follows");
    assert!(hub.relay(stored(3), 1).is_err(), "a gap is refused");
    assert_eq!(offset_of(&sub.outbox.try_recv().expect("a frame")), 1);
    assert!(sub.outbox.try_recv().is_err());
    hub.rebase(History::starting_at("new".into(), 9, 100, u64::MAX), ResetReason::EpochChanged);
    let reset = sub.outbox.try_recv().expect("a reset");
    assert!(reset.contains(r#""type":"reset""#) && reset.contains(r#""epoch":"new""#), "{reset}");
    assert_eq!(offset_of(&reset), 9);
}

#[actix::test]
async fn on_a_shared_stream_a_client_ahead_of_this_instance_waits_without_duplicates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let limits = StreamLimits { client_queue: 16, history_events: 100, ..StreamLimits::default() };
    let log =
        SharedLog::open("redis://127.0.0.1:1/", DEFAULT_KEY_PREFIX, StreamName::Edits, &limits).expect("a Redis URL");
    let history = History::starting_at("e".into(), 5, 100, u64::MAX);
    let mut hub = Broadcaster::shared(history, Journal::new(store, StreamName::Edits), Arc::new(log), &limits);
    let mut sub = hub.subscribe(Some(("e".into(), 7)), 1);
    assert_eq!(sub.backlog.len(), 1, "hello only, no reset: {:?}", sub.backlog);
    let stored = |offset| super::super::StoredEvent { epoch: "e".into(), offset, at: 1, data: json!(offset) };
    for offset in 6..=8 {
        hub.relay(stored(offset), 1).expect("follows");
    }
    assert_eq!(offset_of(&sub.outbox.try_recv().expect("a live frame")), 8);
    assert!(sub.outbox.try_recv().is_err());
    let far = hub.subscribe(Some(("e".into(), 8 + 101)), 1);
    assert!(far.backlog[1].contains("ahead-of-stream"), "too far ahead is still refused");
}

#[actix::test]
async fn a_resuming_subscriber_gets_the_missed_events_then_live_ones() {
    let (mut hub, _dir) = broadcaster(16).await;
    for i in 0..3 {
        hub.publish(json!(i), 1);
    }
    let epoch = hub.stats().epoch;
    let mut sub = hub.subscribe(Some((epoch, 1)), 2);
    hub.publish(json!(3), 3);
    let backlog: Vec<u64> = sub.backlog.iter().skip(1).map(offset_of).collect();
    assert_eq!(backlog, vec![2, 3]);
    assert_eq!(offset_of(&sub.outbox.try_recv().expect("a live frame")), 4);
    let reset = hub.subscribe(Some(("another".into(), 1)), 4);
    assert!(reset.backlog[1].contains(r#""type":"reset""#));
}

#[test]
fn every_event_is_counted_and_sets_the_clients_and_history_gauges_with_or_without_subscribers() {
    let recorded = crate::test_metrics::Recorded::default();
    ::metrics::with_local_recorder(&recorded, || {
        actix::System::new().block_on(async {
            let (mut hub, _dir) = broadcaster(4).await;
            hub.publish(json!(1), 1);
            hub.publish(json!(2), 1);
            assert_eq!(recorded.counter("veranda_streams_events_total"), 2, "counted with no one listening");
            assert_eq!(recorded.gauge("veranda_streams_history_events"), Some(2.0));
            assert_eq!(recorded.gauge("veranda_streams_clients"), Some(0.0));
            let mut sub = hub.subscribe(None, 0);
            hub.publish(json!(3), 1);
            assert_eq!(offset_of(&sub.outbox.try_recv().expect("the live event")), 3);
            assert_eq!(recorded.counter("veranda_streams_events_total"), 3);
            assert_eq!(recorded.gauge("veranda_streams_history_events"), Some(3.0));
            assert_eq!(recorded.gauge("veranda_streams_clients"), Some(1.0));
        })
    });
}
