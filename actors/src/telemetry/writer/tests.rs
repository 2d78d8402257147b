//! Tests of the telemetry writer.

use super::*;
use crate::store::SledStore;
use crate::telemetry::census;

/// A sled store in a temporary directory (kept for as long as the directory is).
fn temp_store() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    (dir, store)
}

#[tokio::test]
async fn queued_records_are_written_in_order_and_drained_on_request() {
    let (_dir, store) = temp_store();
    let writer = TelemetryWriter::start(store.clone());
    writer.write(Tree::Events, b"a".to_vec(), b"1".to_vec()).expect("queued");
    let batch = (0..3u8).map(|i| Write { tree: Tree::Perf, key: vec![i], value: b"x".to_vec() }).collect();
    writer.write_all(batch).expect("queued");
    writer.write(Tree::Events, b"a".to_vec(), b"2".to_vec()).expect("queued");
    writer.drained().await;
    assert_eq!(store.get(Tree::Events, b"a").expect("gets").as_deref(), Some(&b"2"[..]), "in order");
    assert_eq!(store.scan_prefix(Tree::Perf, b"", 10).expect("scans").len(), 3);
}

#[tokio::test]
async fn a_batch_written_a_few_entries_at_a_time_is_stored_whole_and_in_order() {
    let (_dir, store) = temp_store();
    let writer = TelemetryWriter::start(store.clone());
    // 1,000 writes of 250 keys: several store calls (and yields) per round; the last
    // value of each key must win.
    let batch: Vec<Write> = (0..1000u32)
        .map(|n| Write { tree: Tree::Perf, key: (n % 250).to_be_bytes().to_vec(), value: n.to_be_bytes().to_vec() })
        .collect();
    writer.write_all(batch).expect("queued");
    writer.drained().await;
    let stored = store.scan_prefix(Tree::Perf, b"", 1000).expect("scans");
    assert_eq!(stored.len(), 250);
    for (key, value) in stored {
        let key = u32::from_be_bytes(key[..4].try_into().expect("4 bytes"));
        assert_eq!(value, (key + 750).to_be_bytes(), "key {key} holds its last write");
    }
}

#[tokio::test]
async fn census_hits_of_a_round_are_stored_together_and_every_hit_is_kept() {
    use crate::telemetry::records::record_key;

    let (_dir, store) = temp_store();
    let writer = TelemetryWriter::start(store.clone());
    let hits: Vec<Write> = (0..5u64)
        .map(|n| Write {
            tree: Tree::Census,
            key: record_key(1_000 + n).to_vec(),
            value: format!("{{\"n\":{n}}}").into_bytes(),
        })
        .collect();
    let newest = hits[4].key.clone();
    writer.write_all(hits).expect("queued");
    writer.drained().await;
    let records = store.scan_prefix(Tree::Census, b"", 10).expect("scans");
    assert_eq!(records.len(), 1, "one record for the round");
    assert_eq!(&records[0].0[..16], &newest[..], "keyed by the newest hit");
    assert_eq!(census::hits_in(&records[0].0), 5);
    let numbers: Vec<_> = census::hits(&records[0].1).expect("JSON").iter().map(|hit| hit["n"].as_u64()).collect();
    assert_eq!(numbers, [Some(0), Some(1), Some(2), Some(3), Some(4)]);
}

#[tokio::test]
async fn the_writer_thread_sweeps_old_records_and_keeps_writing() {
    use crate::telemetry::records::record_key;
    use crate::telemetry::TelemetryLimits;

    let (_dir, store) = temp_store();
    let limits = TelemetryLimits { retention_days: 1, ..TelemetryLimits::default() };
    let writer = TelemetryWriter::start_with_retention(store.clone(), Retention::from_limits(&limits));
    let day_ms = 86_400_000;
    let old = record_key(now_ms() - 2 * day_ms).to_vec();
    let recent = record_key(now_ms()).to_vec();
    writer.write(Tree::Events, old.clone(), b"old".to_vec()).expect("queued");
    writer.write(Tree::Events, recent.clone(), b"new".to_vec()).expect("queued");
    assert_eq!(writer.sweep_now().await, 1);
    assert_eq!(store.get(Tree::Events, &old).expect("gets"), None);
    assert_eq!(store.get(Tree::Events, &recent).expect("gets").as_deref(), Some(&b"new"[..]));

    let keep_forever = TelemetryWriter::start(store.clone());
    keep_forever.write(Tree::Events, old.clone(), b"old".to_vec()).expect("queued");
    assert_eq!(keep_forever.sweep_now().await, 0, "no retention, no sweep");
    assert!(store.get(Tree::Events, &old).expect("gets").is_some());
}

#[tokio::test]
async fn past_the_size_limit_the_writer_drops_the_oldest_records() {
    use crate::telemetry::records::record_key;

    let (_dir, store) = temp_store();
    let writer = TelemetryWriter::start_with_limits(store.clone(), None, Some(Capacity { limit: 10_000 }));
    let keys: Vec<Vec<u8>> = (0..50u64).map(|i| record_key(1_000 + i).to_vec()).collect();
    for key in &keys {
        writer.write(Tree::Events, key.clone(), vec![b'e'; 984]).expect("queued");
        writer.drained().await;
    }
    assert!(capacity::stored(store.as_ref()) <= 10_000, "the total stays under the limit");
    assert!(store.get(Tree::Events, &keys[0]).expect("gets").is_none(), "the oldest went");
    assert!(store.get(Tree::Events, &keys[49]).expect("gets").is_some(), "the newest stayed");
}

fn event(key: &[u8]) -> Vec<Write> {
    vec![Write { tree: Tree::Events, key: key.to_vec(), value: b"v".to_vec() }]
}

#[test]
fn a_full_queue_makes_a_write_wait_for_room_and_refuses_it_only_after_its_patience() {
    let counters = crate::test_metrics::recorded_while(a_full_queue_waits());
    // The two writes that found the queue full; none of the writes that found room.
    assert_eq!(counters.counter("veranda_ingest_waited_total"), 2);
}

async fn a_full_queue_waits() {
    let (_dir, store) = temp_store();
    let (held, release) = crate::store::StalledStore::held(store.clone()).expect("starts");
    let writer = TelemetryWriter::start(Arc::new(held));
    // The thread takes the first job and waits at the gate (its depth back at 0 once it
    // has taken the jobs of its round); only then does the queue fill, so no round is
    // still taking jobs when the test sees it full.
    writer.write_all_within(event(b"first"), Duration::from_millis(100)).await.expect("queued at once");
    let started = Instant::now();
    while writer.depth.load(Ordering::Relaxed) > 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "the thread never took the first job");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut queued = 1;
    while writer.write_all(event(format!("filler-{queued}").as_bytes())).is_ok() {
        queued += 1;
        assert!(started.elapsed() < Duration::from_secs(10), "the queue never filled");
    }
    assert!(queued > WRITER_QUEUE_JOBS / 2, "the queue holds thousands of jobs: {queued}");

    // Still full after the patience: refused, with its records handed back, and not before.
    let waited = Instant::now();
    let refused = writer.write_all_within(event(b"refused"), Duration::from_millis(100)).await;
    assert!(waited.elapsed() >= Duration::from_millis(100), "waited {:?}", waited.elapsed());
    assert_eq!(refused.expect_err("no room came").0, event(b"refused"));

    // Room comes while it waits: queued, and written.
    let late = tokio::spawn({
        let writer = writer.clone();
        async move { writer.write_all_within(event(b"patient"), Duration::from_secs(30)).await.is_ok() }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!late.is_finished(), "it waits while the queue is full");
    release.release();
    assert!(late.await.expect("joins"), "queued once the thread took the jobs waiting");
    writer.drained().await;
    assert!(store.get(Tree::Events, b"patient").expect("gets").is_some(), "and written");
    assert!(store.get(Tree::Events, b"refused").expect("gets").is_none(), "the refused one was not");
}
