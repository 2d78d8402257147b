//! Content edits made at the same moment through several instances sharing one store all
//! stay: each instance (a `LiveSite` of its own over the shared store) applies its edit
//! to the overlay as stored and swaps it in only if nobody stored another meanwhile,
//! else applies it again. Run on sled (two instances' worth of `LiveSite` over one store)
//! and on one `redis-server` (two stores, as two processes have).

use std::sync::Arc;

use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::Site;
use veranda_actors::store::redis_store::RedisSettings;
use veranda_actors::store::{RedisStore, SledStore, Store, StoreError, Swap, Tree};
use veranda_server::services::site::{ContentOverlay, LiveSite, CONTENT_KEY};
use veranda_tests::demo_site_dir;

use crate::commerce::redis::harness::Redis;

/// Edits per instance, all started at once.
const EDITS: usize = 25;

/// Hides `EDITS` items through each of two `LiveSite`s over `stores` at once; every one
/// must be in the stored overlay and shown by both after a reload.
async fn concurrent_edits_all_stay(stores: [Arc<dyn Store>; 2], name: &str) {
    let site = || Site::load(demo_site_dir()).expect("the demo loads");
    let instances =
        [Arc::new(LiveSite::load(stores[0].clone(), site())), Arc::new(LiveSite::load(stores[1].clone(), site()))];
    let mut edits = Vec::new();
    for n in 0..EDITS * 2 {
        let live = instances[n % 2].clone();
        edits.push(tokio::spawn(async move {
            live.edit(|overlay: &mut ContentOverlay, _: &Site| {
                overlay.item_states.insert(format!("item-{n:02}"), PublicationState::Draft);
                Ok::<_, StoreError>(())
            })
            .await
        }));
    }
    for edit in edits {
        edit.await.expect("joins").unwrap_or_else(|e| panic!("{name}: an edit failed: {e}"));
    }
    let stored = stores[0].get(Tree::Settings, CONTENT_KEY).expect("reads").expect("stored");
    let overlay: ContentOverlay = serde_json::from_slice(&stored).expect("an overlay");
    let missing: Vec<String> =
        (0..EDITS * 2).map(|n| format!("item-{n:02}")).filter(|id| !overlay.item_states.contains_key(id)).collect();
    assert!(missing.is_empty(), "{name}: edits lost: {missing:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_edits_through_two_instances_on_sled_all_stay() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    concurrent_edits_all_stay([store.clone(), store], "sled").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_edits_through_two_instances_on_redis_all_stay() {
    let Some(redis) = Redis::if_installed().await else { return };
    let connect =
        || async { Arc::new(RedisStore::connect(&redis.url(), &RedisSettings::default()).await.expect("connects")) };
    let (a, b): (Arc<dyn Store>, Arc<dyn Store>) = (connect().await, connect().await);
    concurrent_edits_all_stay([a, b], "redis").await;
}

/// The swap itself, on both stores: it writes only over the expected value.
async fn swaps_only_over_the_expected_value(store: &dyn Store, name: &str) {
    let swap = |expected: Option<&'static [u8]>, new: &'static [u8]| {
        store.compare_and_swap(Tree::Settings, b"cas", expected, new)
    };
    assert_eq!(swap(Some(b"x"), b"1").await.expect("answers"), Swap::Conflict(None), "{name}: nothing stored yet");
    assert_eq!(store.get(Tree::Settings, b"cas").expect("reads"), None, "{name}: nothing written");
    assert_eq!(swap(None, b"1").await.expect("answers"), Swap::Swapped, "{name}");
    assert_eq!(swap(None, b"2").await.expect("answers"), Swap::Conflict(Some(b"1".to_vec())), "{name}");
    assert_eq!(swap(Some(b"2"), b"3").await.expect("answers"), Swap::Conflict(Some(b"1".to_vec())), "{name}");
    assert_eq!(swap(Some(b"1"), b"2").await.expect("answers"), Swap::Swapped, "{name}");
    assert_eq!(store.get(Tree::Settings, b"cas").expect("reads"), Some(b"2".to_vec()), "{name}");
    assert_eq!(store.scan_prefix(Tree::Settings, b"cas", 10).expect("scans").len(), 1, "{name}: listed once");
}

#[tokio::test]
async fn a_swap_writes_only_over_the_expected_value_on_sled_and_redis() {
    let dir = tempfile::tempdir().expect("a temp dir");
    swaps_only_over_the_expected_value(&SledStore::open(dir.path()).expect("opens"), "sled").await;
    let Some(redis) = Redis::if_installed().await else { return };
    let store = RedisStore::connect(&redis.url(), &RedisSettings::default()).await.expect("connects");
    swaps_only_over_the_expected_value(&store, "redis").await;
}
