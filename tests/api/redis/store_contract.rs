//! The [`Store`] contract, run the same against [`SledStore`] and [`RedisStore`] (a real
//! `redis-server` on a free port): reads, writes, removals, prefix and range scans in
//! byte order with limits and binary keys (and with value lengths instead of values),
//! atomic batches across trees, batch removals, and telemetry writes that are read back
//! at once and reach the store on `flush`.

use veranda_actors::store::redis_store::RedisSettings;
use veranda_actors::store::{RedisStore, SledStore, Store, Tree};

use crate::commerce::redis::harness::Redis;

fn kv(k: &[u8], v: &[u8]) -> (Vec<u8>, Vec<u8>) {
    (k.to_vec(), v.to_vec())
}

fn keys(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<Vec<u8>> {
    entries.iter().map(|(k, _)| k.clone()).collect()
}

/// The contract; `name` says which store failed.
async fn contract(store: &dyn Store, name: &str) {
    // Single keys.
    assert_eq!(store.get(Tree::Accounts, b"a").expect("reads"), None, "{name}");
    store.put(Tree::Accounts, b"a", b"1").await.expect("puts");
    assert_eq!(store.get(Tree::Accounts, b"a").expect("reads"), Some(b"1".to_vec()), "{name}");
    store.put(Tree::Accounts, b"a", b"22").await.expect("replaces");
    assert_eq!(store.get(Tree::Accounts, b"a").expect("reads"), Some(b"22".to_vec()), "{name}");
    assert_eq!(store.get(Tree::Sessions, b"a").expect("reads"), None, "{name}: trees are apart");
    store.delete(Tree::Accounts, b"a").await.expect("removes");
    store.delete(Tree::Accounts, b"a").await.expect("removes nothing");
    assert_eq!(store.get(Tree::Accounts, b"a").expect("reads"), None, "{name}");

    // Binary keys, scanned in byte order.
    let binary: Vec<(Vec<u8>, Vec<u8>)> = vec![
        kv(b"p\x00", b"zero"),
        kv(b"p\x00\x01", b"zero-one"),
        kv(b"p\x7f", b"del"),
        kv(b"p\xff", b"ff"),
        kv(b"p\xff\xff", b"ffff"),
        kv(b"q", b"q"),
        kv(b"[x", b"bracket"),
        kv(b"(x", b"paren"),
        kv(b"-", b"minus"),
        kv(b"+", b"plus"),
    ];
    store.put_all(Tree::Submissions, &binary).await.expect("puts all");
    let mut sorted = binary.clone();
    sorted.sort();
    let all = store.scan_range(Tree::Submissions, b"", None, 100).expect("scans");
    assert_eq!(all, sorted, "{name}: everything, in byte order");
    let p = store.scan_prefix(Tree::Submissions, b"p", 100).expect("scans");
    assert_eq!(
        keys(&p),
        vec![b"p\x00".to_vec(), b"p\x00\x01".to_vec(), b"p\x7f".to_vec(), b"p\xff".to_vec(), b"p\xff\xff".to_vec()],
        "{name}"
    );
    let limited = store.scan_prefix(Tree::Submissions, b"p", 2).expect("scans");
    assert_eq!(keys(&limited), vec![b"p\x00".to_vec(), b"p\x00\x01".to_vec()], "{name}: the first two");
    let ff = store.scan_prefix(Tree::Submissions, b"p\xff", 100).expect("scans");
    assert_eq!(keys(&ff), vec![b"p\xff".to_vec(), b"p\xff\xff".to_vec()], "{name}: a prefix ending in 0xff");
    assert_eq!(store.scan_prefix(Tree::Submissions, b"[", 100).expect("scans"), vec![kv(b"[x", b"bracket")], "{name}");
    assert_eq!(store.scan_prefix(Tree::Submissions, b"", 0).expect("scans"), vec![], "{name}: limit 0");
    assert_eq!(store.scan_prefix(Tree::Submissions, b"nothing", 10).expect("scans"), vec![], "{name}");
    // Ranges are half-open.
    let range = store.scan_range(Tree::Submissions, b"p\x00\x01", Some(b"p\xff\xff"), 100).expect("scans");
    assert_eq!(keys(&range), vec![b"p\x00\x01".to_vec(), b"p\x7f".to_vec(), b"p\xff".to_vec()], "{name}");
    let open = store.scan_range(Tree::Submissions, b"p\xff", None, 100).expect("scans");
    assert_eq!(keys(&open), vec![b"p\xff".to_vec(), b"p\xff\xff".to_vec(), b"q".to_vec()], "{name}");
    assert_eq!(
        store.scan_range(Tree::Submissions, b"q", Some(b"p"), 10).expect("scans"),
        vec![],
        "{name}: end before start"
    );
    assert_eq!(
        store.scan_range(Tree::Submissions, b"q", Some(b"q"), 10).expect("scans"),
        vec![],
        "{name}: empty range"
    );
    // Sized scans: the same keys, each with its value's length.
    let sized = store.scan_sizes(Tree::Submissions, b"p\x00\x01", Some(b"p\xff\xff"), 100).expect("scans");
    assert_eq!(sized, vec![(b"p\x00\x01".to_vec(), 8), (b"p\x7f".to_vec(), 3), (b"p\xff".to_vec(), 2)], "{name}");
    let sized = store.scan_sizes(Tree::Submissions, b"p\xff", None, 2).expect("scans");
    assert_eq!(sized, vec![(b"p\xff".to_vec(), 2), (b"p\xff\xff".to_vec(), 4)], "{name}: limited");
    assert_eq!(
        store.scan_sizes(Tree::Submissions, b"q", Some(b"p"), 10).expect("scans"),
        vec![],
        "{name}: a sized scan's end before its start"
    );

    // Batch removals.
    store
        .delete_all(Tree::Submissions, &[b"p\x7f".to_vec(), b"q".to_vec(), b"absent".to_vec()])
        .await
        .expect("removes");
    let p = store.scan_prefix(Tree::Submissions, b"p", 100).expect("scans");
    assert_eq!(p.len(), 4, "{name}");
    assert_eq!(store.get(Tree::Submissions, b"q").expect("reads"), None, "{name}");

    // Atomic batches across trees, durable and telemetry.
    let atomic = [
        (Tree::Orders, b"o1".to_vec(), b"order".to_vec()),
        (Tree::Inventory, b"sku".to_vec(), b"3".to_vec()),
        (Tree::Events, b"e1".to_vec(), b"event".to_vec()),
    ];
    store.put_atomic(&atomic).await.expect("writes");
    for (tree, key, value) in &atomic {
        assert_eq!(store.get(*tree, key).expect("reads").as_ref(), Some(value), "{name}: {tree:?}");
    }
    store.put_atomic(&[]).await.expect("an empty batch is nothing");

    // Telemetry: read back at once, in scans too, before and after the flush.
    store.put(Tree::Census, b"c2", b"two").await.expect("puts");
    store.put_all(Tree::Census, &[kv(b"c1", b"one"), kv(b"c3", b"three")]).await.expect("puts");
    store.delete(Tree::Census, b"c3").await.expect("removes");
    let census = vec![kv(b"c1", b"one"), kv(b"c2", b"two")];
    assert_eq!(store.scan_prefix(Tree::Census, b"c", 10).expect("scans"), census, "{name}: before the flush");
    assert_eq!(store.get(Tree::Census, b"c3").expect("reads"), None, "{name}: a buffered removal");
    assert_eq!(
        store.scan_sizes(Tree::Census, b"c", Some(b"d"), 10).expect("scans"),
        vec![(b"c1".to_vec(), 3), (b"c2".to_vec(), 3)],
        "{name}: sized, before the flush"
    );
    store.flush().await.expect("flushes");
    assert_eq!(store.scan_prefix(Tree::Census, b"c", 10).expect("scans"), census, "{name}: after the flush");
    assert_eq!(store.scan_prefix(Tree::Census, b"c", 1).expect("scans"), census[..1], "{name}: limited");
    assert_eq!(store.stored_bytes(Tree::Census), Some(10), "{name}: c1+one, c2+two");
    assert_eq!(store.stored_bytes(Tree::Accounts), None, "{name}: durable trees are not counted");
}

#[actix_rt::test]
async fn sled_keeps_the_store_contract() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = SledStore::open(dir.path()).expect("opens");
    contract(&store, "sled").await;
}

#[actix_rt::test]
async fn redis_keeps_the_store_contract_and_shares_it_between_stores() {
    let Some(redis) = Redis::if_installed().await else { return };
    let settings = RedisSettings::default();
    let store = RedisStore::connect(&redis.url(), &settings).await.expect("connects");
    contract(&store, "redis").await;
    assert_eq!(redis.cli(&["ZCARD", "veranda:store:census:keys"]), "2", "under the default prefix");

    // A second store on the same Redis (another instance) reads what the first wrote,
    // telemetry once flushed.
    let other = RedisStore::connect(&redis.url(), &settings).await.expect("connects");
    assert_eq!(other.get(Tree::Orders, b"o1").expect("reads"), Some(b"order".to_vec()));
    store.put(Tree::Perf, b"p1", b"x").await.expect("puts");
    store.flush().await.expect("flushes");
    assert_eq!(other.get(Tree::Perf, b"p1").expect("reads"), Some(b"x".to_vec()));
    assert_eq!(other.stored_bytes(Tree::Census), Some(10), "the byte count is shared");

    // Another prefix is another site: it sees none of it.
    let elsewhere = RedisSettings { key_prefix: "other:".into(), ..RedisSettings::default() };
    let apart = RedisStore::connect(&redis.url(), &elsewhere).await.expect("connects");
    assert_eq!(apart.get(Tree::Orders, b"o1").expect("reads"), None);
    assert_eq!(apart.scan_prefix(Tree::Submissions, b"", 10).expect("scans"), vec![]);

    // Telemetry written and not yet flushed is written when the store closes.
    store.put(Tree::Errors, b"late", b"1").await.expect("puts");
    store.close();
    assert_eq!(other.get(Tree::Errors, b"late").expect("reads"), Some(b"1".to_vec()));
    assert!(store.put(Tree::Errors, b"later", b"1").await.is_err(), "closed for telemetry");
}

#[actix_rt::test]
async fn a_redis_that_stops_answering_is_unavailable_not_a_hang() {
    let Some(mut redis) = Redis::if_installed().await else { return };
    let store = RedisStore::connect(&redis.url(), &RedisSettings::default()).await.expect("connects");
    redis.kill();
    let started = std::time::Instant::now();
    let write = store.put(Tree::Accounts, b"a", b"1").await;
    assert!(matches!(write, Err(veranda_actors::store::StoreError::Unavailable(_))), "{write:?}");
    let read = store.get(Tree::Accounts, b"a");
    assert!(matches!(read, Err(veranda_actors::store::StoreError::Unavailable(_))), "{read:?}");
    assert!(store.scan_prefix(Tree::Accounts, b"", 10).is_err());
    assert!(started.elapsed() < std::time::Duration::from_secs(15), "bounded: {:?}", started.elapsed());
}
