use std::sync::atomic::Ordering::Relaxed;

use super::pass::{key_time, Order, PASS_TREES};
use super::*;
use crate::store::probed::ProbedStore;
use crate::store::{prefix_end, SledStore};
use crate::telemetry::cookie::VisitorId;
use crate::telemetry::records::{now_ms, record_key};
use crate::telemetry::retention::perf_time;
use crate::telemetry::stored::{session_key, session_made_at, VisitState};

fn session(last_seen: u64) -> Vec<u8> {
    let state = VisitState { visits: 1, first: 0, previous: 0, current: 0, pages_this_visit: 1, last_seen };
    serde_json::to_vec(&state).expect("serialises")
}

/// Trees whose record keys start with the time, each with the prefix of its records.
const TIME_ORDERED: [(Tree, &[u8]); 4] =
    [(Tree::Census, b""), (Tree::Traces, b""), (Tree::Events, b""), (Tree::Errors, b"r/")];

/// Every record a pass may drop, with its time, as `(tree, key, time)`.
fn records(store: &dyn Store) -> Vec<(Tree, Vec<u8>, u64)> {
    let mut all = Vec::new();
    for (tree, prefix) in TIME_ORDERED {
        for (key, _) in store.scan_prefix(tree, prefix, usize::MAX).expect("scans") {
            let at = key_time(&key[prefix.len()..]);
            all.push((tree, key, at));
        }
    }
    for (key, _) in store.scan_prefix(Tree::Perf, b"", usize::MAX).expect("scans") {
        let at = perf_time(&key).expect("a perf key");
        all.push((Tree::Perf, key, at));
    }
    for (key, value) in store.scan_prefix(Tree::VisitorSessions, b"", usize::MAX).expect("scans") {
        let last_seen = VisitState::from_bytes(&value).expect("a session").last_seen;
        // A session whose key tells a time up to a minute ahead counts as seen then, if later.
        let made = session_made_at(&key).filter(|&made| made <= now_ms() + 60_000).unwrap_or(0);
        all.push((Tree::VisitorSessions, key, last_seen.max(made)));
    }
    all
}

/// The session key of the loader's id made at the millisecond `made` (its random part
/// `made` too, so that the same millisecond gives the same key).
fn made_at(made: u64) -> Vec<u8> {
    loader_key(made, made)
}

/// The session key of the loader's id made at `made` whose random part is `random`.
fn loader_key(made: u64, random: u64) -> Vec<u8> {
    let id = format!("{:012x}{random:020x}", made + (1u64 << 44));
    session_key(&VisitorId::parse(&id).expect("an id"))
}

/// The slot of the sessions a pass walks.
fn untimed_slot() -> usize {
    PASS_TREES.iter().position(|(_, order)| *order == Order::Untimed).expect("a slot")
}

#[test]
fn the_limit_is_read_in_mebibytes_and_zero_means_none() {
    let limits = |mb| TelemetryLimits { max_stored_mb: mb, ..TelemetryLimits::default() };
    assert_eq!(Capacity::from_limits(&limits(0)), None);
    let capacity = Capacity::from_limits(&limits(2)).expect("a limit");
    assert_eq!(capacity.limit, 2_097_152);
    assert_eq!(capacity.target(), 2_097_152 - 209_715);
    assert_eq!(TelemetryLimits::default().max_stored_mb, 1024);
}

#[tokio::test]
async fn under_the_limit_nothing_is_read_or_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    store.put(Tree::Census, &record_key(1), &[b'x'; 100]).await.expect("puts");
    assert_eq!(stored(&store), 116);
    assert_eq!(Capacity { limit: 116 }.enforce(&store).await.expect("enforces"), 0);
    assert_eq!(stored(&store), 116);
}

#[tokio::test]
async fn over_the_limit_the_oldest_records_of_every_tree_go_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    // Times interleaved across the trees, more of them than one pass considers per tree.
    for i in 0..1500u64 {
        let at = 1_000_000 + i * 10;
        let value = [b'v'; 84];
        match i % 5 {
            0 | 1 => store.put(Tree::Census, &record_key(at), &value).await.expect("puts"),
            2 => store.put(Tree::Errors, &[b"r/".as_slice(), &record_key(at)].concat(), &value).await.expect("puts"),
            3 => {
                let key = [format!("load-{}/", 9999 - i).as_bytes(), &record_key(at)].concat();
                store.put(Tree::Perf, &key, &value).await.expect("puts")
            }
            _ => {
                store.put(Tree::VisitorSessions, format!("v{}", 9999 - i).as_bytes(), &session(at)).await.expect("puts")
            }
        }
    }
    store.put(Tree::Errors, b"g/group", b"{\"kept\":true}").await.expect("puts");
    let before = records(&store);
    let total = stored(&store);
    let capacity = Capacity { limit: total / 3 };

    let dropped = capacity.enforce(&store).await.expect("enforces");

    let after = records(&store);
    assert!(stored(&store) <= capacity.target(), "{} over {}", stored(&store), capacity.target());
    assert_eq!(dropped as usize, before.len() - after.len());
    assert!(dropped > 0);
    let newest_dropped = before.iter().filter(|r| !after.contains(r)).map(|r| r.2).max().expect("some dropped");
    let oldest_kept = after.iter().map(|r| r.2).min().expect("some kept");
    assert!(newest_dropped < oldest_kept, "dropped up to {newest_dropped}, kept from {oldest_kept}");
    for tree in [Tree::Census, Tree::Errors, Tree::Perf, Tree::VisitorSessions] {
        assert!(after.iter().any(|r| r.0 == tree), "{tree:?} keeps its newest records");
    }
    assert!(store.get(Tree::Errors, b"g/group").expect("gets").is_some(), "error groups are not dropped");
    assert!(total - stored(&store) >= total - capacity.target());
}

#[tokio::test]
async fn what_cannot_be_dropped_ends_the_drop() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    store.put(Tree::TraceJournal, b"j", &[b'x'; 200]).await.expect("puts");
    store.put(Tree::Census, &record_key(5), b"x").await.expect("puts");
    assert_eq!(Capacity { limit: 100 }.enforce(&store).await.expect("enforces"), 1, "the census hit goes");
    assert!(store.get(Tree::TraceJournal, b"j").expect("gets").is_some());
}

#[tokio::test]
async fn a_census_record_dropped_counts_its_hits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    let key = [&record_key(5)[..], &7u32.to_be_bytes()].concat();
    store.put(Tree::Census, &key, &[b'x'; 200]).await.expect("puts");
    assert_eq!(Capacity { limit: 100 }.enforce(&store).await.expect("enforces"), 7, "seven hits dropped");
    assert_eq!(stored(&store), 0);
}

#[tokio::test]
async fn one_pass_frees_what_is_wanted_across_trees_larger_than_a_batch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    for i in 0..3_000u64 {
        store.put(Tree::Census, &record_key(1_000 + 2 * i), &[b'c'; 84]).await.expect("puts");
        if i % 2 == 0 {
            let key = [format!("load-{i:05}/").as_bytes(), &record_key(1_001 + 2 * i)].concat();
            store.put(Tree::Perf, &key, &[b'p'; 84]).await.expect("puts");
        }
    }
    let before = stored(&store);
    let wanted = 200_000;

    let dropped = drop_oldest(&store, wanted).await.expect("drops");

    assert!(before - stored(&store) >= wanted, "one pass freed {} of {wanted}", before - stored(&store));
    assert!(dropped as usize > 2 * DROP_BATCH, "more than a batch per tree");
}

#[tokio::test]
async fn a_pass_reads_only_the_sizes_of_records_it_may_drop_and_the_values_of_sessions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = ProbedStore::new(SledStore::open(dir.path()).expect("opens"));
    for i in 0..40u64 {
        // A census record holds a writer round's hits: large.
        store.put(Tree::Census, &record_key(1_000 + 3 * i), &[b'c'; 20_000]).await.expect("puts");
        let key = [format!("load-{i:02}/").as_bytes(), &record_key(1_001 + 3 * i)].concat();
        store.put(Tree::Perf, &key, &[b'p'; 2_000]).await.expect("puts");
        store.put(Tree::VisitorSessions, format!("v{i:02}").as_bytes(), &session(1_002 + 3 * i)).await.expect("puts");
    }
    let sessions: usize = store
        .scan_prefix(Tree::VisitorSessions, b"", usize::MAX)
        .expect("scans")
        .iter()
        .map(|(_, value)| value.len())
        .sum();
    let before = records(&store);

    let dropped = Capacity { limit: stored(&store) / 2 }.enforce(&store).await.expect("enforces");

    assert!(dropped > 0);
    let after = records(&store);
    let gone = before.iter().filter(|r| !after.contains(r)).count();
    assert_eq!(dropped as usize, gone);
    let copied = store.scanned_value_bytes.load(Relaxed);
    assert!(copied <= sessions, "{copied} value bytes copied, the sessions hold {sessions}");
}

#[test]
fn a_prefix_ends_where_its_last_byte_is_raised() {
    assert_eq!(prefix_end(b"r/").as_deref(), Some(&b"r0"[..]));
    assert_eq!(prefix_end(b"a\xff").as_deref(), Some(&b"b"[..]));
    assert_eq!(prefix_end(b""), None);
    assert_eq!(prefix_end(b"\xff"), None);
    assert_eq!(prefix_end(b"\xff\xff"), None);
}

/// A store of 4,000 census records and 2,000 visitor sessions, times interleaved (the
/// sessions' from 1,000,001 on, every 6 ms, the oldest named `visitor-3999`), and its total.
async fn full_store(dir: &std::path::Path) -> (SledStore, u64) {
    let store = SledStore::open(dir).expect("opens");
    for i in 0..4_000u64 {
        store.put(Tree::Census, &record_key(1_000_000 + 3 * i), &[b'c'; 84]).await.expect("puts");
        if i % 2 == 0 {
            let key = format!("visitor-{:04}", 3_999 - i);
            store.put(Tree::VisitorSessions, key.as_bytes(), &session(1_000_001 + 3 * i)).await.expect("puts");
        }
    }
    let total = stored(&store);
    (store, total)
}

#[tokio::test]
async fn a_dropper_goes_a_batch_at_a_time_and_ends_under_the_target() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, total) = full_store(dir.path()).await;
    // Over the limit by a twentieth: a pass frees about 15 % of the total, over 800 records.
    let capacity = Capacity { limit: total * 20 / 21 };
    assert!(total <= capacity.ceiling());
    let mut dropper = Dropper::new(capacity);
    assert!(dropper.step(&store).await.expect("steps"), "over the limit: a pass starts");
    assert_eq!(stored(&store), total, "its first step reads, drops nothing");
    let mut steps = 1;
    let mut largest_drop = 0;
    loop {
        let before = records(&store).len();
        let busy = dropper.step(&store).await.expect("steps");
        largest_drop = largest_drop.max(before - records(&store).len());
        steps += 1;
        if !busy {
            break;
        }
        assert!(steps < 100, "the pass ends");
    }
    assert!(steps >= 12, "reading six trees and dropping over six steps' batches took {steps} steps");
    assert!(largest_drop <= STEP_BATCH, "a step drops at most a batch: {largest_drop}");
    assert!(stored(&store) <= capacity.target(), "{} over {}", stored(&store), capacity.target());
    assert!(!dropper.busy());
    assert!(!dropper.step(&store).await.expect("steps"), "under the limit: no pass");
}

#[tokio::test]
async fn a_session_written_again_during_a_pass_is_not_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, total) = full_store(dir.path()).await;
    let mut dropper = Dropper::new(Capacity { limit: total * 20 / 21 });
    // Read every tree: the oldest sessions, visitor-3999 on, are among the chosen.
    while dropper.pass.as_ref().is_none_or(|pass| pass.reading < PASS_TREES.len()) {
        dropper.step(&store).await.expect("steps");
    }
    store.put(Tree::VisitorSessions, b"visitor-3999", &session(9_000_000)).await.expect("the visitor comes back");
    store.put(Tree::VisitorSessions, b"visitor-3997", &[]).await.expect("written over with nothing");
    while dropper.step(&store).await.expect("steps") {}
    let back = store.get(Tree::VisitorSessions, b"visitor-3999").expect("gets");
    assert_eq!(back, Some(session(9_000_000)), "the visitor's fresh session stays");
    assert_eq!(store.get(Tree::VisitorSessions, b"visitor-3995").expect("gets"), None, "its old neighbour went");
    assert!(store.get(Tree::VisitorSessions, b"visitor-3997").expect("gets").is_some(), "a changed value stays");
}

#[test]
fn past_the_ceiling_a_dropper_drops_at_once_and_counts_it() {
    let counters = crate::test_metrics::recorded_while(past_the_ceiling());
    assert_eq!(counters.counter("veranda_telemetry_drops_at_once_total"), 1, "one drop at once, none for the pass");
}

async fn past_the_ceiling() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, total) = full_store(dir.path()).await;
    // The total is more than a tenth over the limit.
    let capacity = Capacity { limit: total * 10 / 12 };
    assert!(total > capacity.ceiling());
    let mut dropper = Dropper::new(capacity);
    assert!(!dropper.step(&store).await.expect("steps"), "done in the one step");
    assert!(!dropper.busy());
    assert!(stored(&store) <= capacity.target());
    // Over the limit again, under its ceiling: a pass a step at a time, not a drop at once.
    let (more, _) = full_store(&dir.path().join("more")).await;
    let mut paced = Dropper::new(Capacity { limit: stored(&more) * 20 / 21 });
    while paced.step(&more).await.expect("steps") {}
}

#[tokio::test]
async fn a_dropper_that_finds_nothing_to_drop_waits_for_more_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    store.put(Tree::TraceJournal, b"j", &[b'x'; 200]).await.expect("puts");
    let mut dropper = Dropper::new(Capacity { limit: 200 });
    while dropper.step(&store).await.expect("steps") {}
    assert!(!dropper.step(&store).await.expect("steps"), "no new pass over the same total");
    store.put(Tree::Census, &record_key(5), b"x").await.expect("puts");
    assert!(dropper.step(&store).await.expect("steps"), "a pass once more is written");
    while dropper.step(&store).await.expect("steps") {}
    assert_eq!(store.get(Tree::Census, &record_key(5)).expect("gets"), None, "the census hit went");
    assert!(store.get(Tree::TraceJournal, b"j").expect("gets").is_some());
}

#[tokio::test]
async fn the_next_pass_takes_the_sessions_the_last_one_read_and_left() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, total) = full_store(dir.path()).await;
    let capacity = Capacity { limit: total * 20 / 21 };
    let mut dropper = Dropper::new(capacity);
    while dropper.step(&store).await.expect("steps") {}
    let left = dropper.carried.get(untimed_slot()).and_then(Option::as_ref).map_or(0, Vec::len);
    assert!(left > 0, "the census took most of the bytes, so sessions were left over");
    let carried_newest = dropper.carried[untimed_slot()].as_ref().and_then(|c| c.last()).map(|c| c.at).expect("some");
    // A session the walk never saw, older than everything (no visitor's session is: a
    // session written now has the time of now): the next pass, not walking the tree, leaves it.
    store.put(Tree::VisitorSessions, b"unseen", &session(1)).await.expect("puts");
    let before = records(&store).len();
    // Over the limit again (and under the ceiling).
    let newest: Vec<[u8; 16]> = (0..600u64).map(|i| record_key(2_000_000 + i)).collect();
    for key in &newest {
        store.put(Tree::Census, key, &[b'n'; 84]).await.expect("puts");
    }
    assert!(dropper.step(&store).await.expect("steps"), "a second pass");
    while dropper.step(&store).await.expect("steps") {}
    assert!(store.get(Tree::VisitorSessions, b"unseen").expect("gets").is_some(), "the tree was not walked again");
    assert!(stored(&store) <= capacity.limit);
    assert!(records(&store).len() < before + 600, "the second pass dropped records");
    let newest_dropped = newest.iter().filter(|key| store.get(Tree::Census, &key[..]).expect("gets").is_none()).count();
    assert_eq!(newest_dropped, 0, "nothing newer than the carried sessions ({carried_newest}) went");
}

#[tokio::test]
async fn a_pass_that_fails_ends_and_starts_again_once_more_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (inner, total) = full_store(dir.path()).await;
    let store = ProbedStore::new(inner);
    store.failing_scans.store(true, Relaxed);
    let mut dropper = Dropper::new(Capacity { limit: total * 20 / 21 });
    assert!(dropper.step(&store).await.is_err(), "the failure is reported");
    assert!(!dropper.busy(), "and ends the pass");
    store.failing_scans.store(false, Relaxed);
    assert!(!dropper.step(&store).await.expect("steps"), "no new pass over the same total");
    store.put(Tree::Census, &record_key(3_000_000), b"x").await.expect("puts");
    assert!(dropper.step(&store).await.expect("steps"), "a pass once more is written");
    while dropper.step(&store).await.expect("steps") {}
    assert!(stored(&store) < total, "and it drops");
}

/// A store of 3,000 census records and 3,000 sessions of the loader's ids, times interleaved
/// (census at 1,000,000 + 10 i, the i-th visitor first came 5 ms after the i-th record and
/// was last seen 3 ms later; every seventh came back at 9,000,000 + i), and its total.
async fn timed_store(dir: &std::path::Path) -> (SledStore, u64) {
    let store = SledStore::open(dir).expect("opens");
    for i in 0..3_000u64 {
        store.put(Tree::Census, &record_key(1_000_000 + 10 * i), &[b'c'; 84]).await.expect("puts");
        let made = 1_000_005 + 10 * i;
        let seen = if i % 7 == 0 { 9_000_000 + i } else { made + 3 };
        store.put(Tree::VisitorSessions, &made_at(made), &session(seen)).await.expect("puts");
    }
    let total = stored(&store);
    (store, total)
}

#[tokio::test]
async fn sessions_keyed_by_when_their_visitor_came_are_read_only_as_far_as_the_oldest() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (inner, total) = timed_store(dir.path()).await;
    let store = ProbedStore::new(inner);
    let before = records(&store);

    drop_oldest(&store, total / 10).await.expect("drops");

    let after = records(&store);
    let newest_dropped = before.iter().filter(|r| !after.contains(r)).map(|r| r.2).max().expect("some dropped");
    let oldest_kept = after.iter().map(|r| r.2).min().expect("some kept");
    assert!(newest_dropped < oldest_kept, "dropped up to {newest_dropped}, kept from {oldest_kept}");
    assert!(total - stored(&store) >= total / 10, "freed what was wanted");
    let sessions = |records: &[(Tree, Vec<u8>, u64)]| records.iter().filter(|r| r.0 == Tree::VisitorSessions).count();
    let dropped = sessions(&before) - sessions(&after);
    assert!(dropped > 100, "{dropped} sessions dropped");
    // The visitors who came back stay, though they first came before the ones dropped.
    for i in (0..3_000u64).step_by(7) {
        let key = made_at(1_000_005 + 10 * i);
        assert!(store.get(Tree::VisitorSessions, &key).expect("gets").is_some(), "visitor {i} came back");
    }
    let scanned = store.scanned_sessions.load(Relaxed);
    assert!(scanned < 3_000 / 2, "read {scanned} of 3,000 sessions to drop {dropped}");
}

#[tokio::test]
async fn sessions_whose_ids_tell_no_time_or_a_time_to_come_are_walked_and_dropped_by_their_last_hit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, total) = timed_store(dir.path()).await;
    // Seen before everything else: an id that tells no time, a loader's id claiming a time an
    // hour to come, and a session a server before stored under its id alone.
    let ahead = loader_key(now_ms() + 3_600_000, 1);
    assert_eq!(ahead[0], 0, "a key of a timed id");
    let before = VisitorId::time_ordered(1_000_000);
    let old: [&[u8]; 3] = [b"visitor-old", &ahead, before.as_str().as_bytes()];
    for key in old {
        store.put(Tree::VisitorSessions, key, &session(999_000)).await.expect("puts");
    }

    drop_oldest(&store, total / 20).await.expect("drops");

    for key in old {
        assert_eq!(
            store.get(Tree::VisitorSessions, key).expect("gets"),
            None,
            "{:?} went first",
            String::from_utf8_lossy(key)
        );
    }
    assert!(store.get(Tree::Census, &record_key(1_000_000)).expect("gets").is_none(), "then the oldest census");
}

#[tokio::test]
async fn a_session_whose_id_claims_a_later_first_visit_counts_as_seen_then() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, total) = timed_store(dir.path()).await;
    // Made by a loader whose clock was 1.9 s ahead, and last seen before everything else: it
    // counts as seen at 1,000,900. The first pass reads it (each tree offers the bytes
    // wanted, so the sessions are read about twice as far as they are dropped).
    let skewed = loader_key(1_000_900, 1);
    store.put(Tree::VisitorSessions, &skewed, &session(999_000)).await.expect("puts");
    let before = records(&store);

    drop_oldest(&store, total / 50).await.expect("drops");
    let after = records(&store);
    let newest_dropped = before.iter().filter(|r| !after.contains(r)).map(|r| r.2).max().expect("some dropped");
    assert!(newest_dropped < 1_000_900, "dropped up to {newest_dropped}");
    assert!(store.get(Tree::VisitorSessions, &skewed).expect("gets").is_some(), "not yet at 1,000,900");

    drop_oldest(&store, total / 10).await.expect("drops");
    assert_eq!(store.get(Tree::VisitorSessions, &skewed).expect("gets"), None, "past 1,000,900 it went");
    let after = records(&store);
    let newest_dropped = before.iter().filter(|r| !after.contains(r)).map(|r| r.2).max().expect("some dropped");
    let oldest_kept = after.iter().map(|r| r.2).min().expect("some kept");
    assert!(newest_dropped < oldest_kept, "dropped up to {newest_dropped}, kept from {oldest_kept}");
}

#[test]
fn a_dropper_works_longer_the_further_past_the_limit_the_total_is() {
    // A limit of 1,000 bytes: its ceiling is 1,100.
    let dropper = Dropper::new(Capacity { limit: 1_000 });
    let round = Duration::from_millis(1);
    assert_eq!(dropper.pace(900, round), round, "under the limit: as long as the round");
    assert_eq!(dropper.pace(1_000, round), round, "at the limit: as long as the round");
    assert_eq!(dropper.pace(1_050, round), Duration::from_micros(4_500), "halfway to the ceiling: 4.5 times");
    assert_eq!(dropper.pace(1_100, round), Duration::from_millis(8), "at the ceiling: 8 times");
    assert_eq!(dropper.pace(5_000, round), Duration::from_millis(8), "no more past it");
    let long = Duration::from_millis(40);
    assert_eq!(dropper.pace(1_000, long), long, "a long round at the limit: as long");
    assert_eq!(dropper.pace(1_100, long), Duration::from_millis(48), "a long round at the ceiling: 8 ms more");
    assert_eq!(dropper.pace(1_100, Duration::ZERO), Duration::ZERO, "no job waited: one step, as before");
}
