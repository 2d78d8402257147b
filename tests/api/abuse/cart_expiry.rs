//! Carts that were never checked out expire: a cart left unchanged past
//! `[commerce] cart_lifetime_secs` is removed (its id then opens an empty cart, as an
//! unknown id does) and counted, while a cart changed recently stays.

use std::time::Duration;

use serde_json::Value;
use veranda_actors::store::Tree;
use veranda_tests::{demo_site_dir, spawn_app_configured, TestApp};

use crate::commerce::support::{shopper_with_blend, Shopper, Shopping};

/// The removed carts' counter on `/metrics`.
const EXPIRED: &str = "veranda_commerce_carts_expired_total";

/// The counter `series` on `/metrics`, if exported.
async fn counter(app: &TestApp, series: &str) -> Option<f64> {
    let text = app.get_ops("/metrics").await.text().await.expect("the metrics");
    text.lines().find_map(|l| l.strip_prefix(series).and_then(|rest| rest.trim().parse().ok()))
}

/// The cart the shopper's cookie opens.
async fn cart_of(s: &mut Shopper<'_>) -> Value {
    s.get("/api/commerce/cart").await.json().await.expect("a cart")
}

#[actix_rt::test]
async fn a_cart_left_alone_past_its_lifetime_is_removed_while_a_recent_one_stays() {
    let app = spawn_app_configured(&demo_site_dir(), |s| {
        s.commerce.cart_lifetime_secs = 2;
        s.commerce.sweep_secs = 1;
    })
    .await;
    // Shared by every server of this test process: compared with its value before.
    let before = counter(&app, EXPIRED).await.expect("exported from start-up");
    let mut left = shopper_with_blend(&app, 1).await;
    let left_id = left.cart().expect("a cart cookie");
    assert_eq!(cart_of(&mut left).await["id"], left_id.as_str());
    let mut busy = shopper_with_blend(&app, 1).await;
    let busy_id = busy.cart().expect("a cart cookie");

    // The busy shopper keeps changing the cart while the other one's lifetime runs out.
    let stored = |id: String| {
        let store = app.store.clone();
        move || store.get(Tree::Carts, id.as_bytes()).expect("the store reads").is_some()
    };
    let left_is_stored = stored(left_id.clone());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    for quantity in (1..=5).cycle() {
        let path = "/api/commerce/cart/entries/VER-HB-12OZ";
        let res = busy.call(reqwest::Method::PUT, path, Some(serde_json::json!({ "quantity": quantity }))).await;
        assert_eq!(res.status(), 200, "the busy cart changes");
        if !left_is_stored() {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the cart left alone was never removed");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }

    // The expired cart's id opens an empty cart, as an unknown id does.
    let opened = cart_of(&mut left).await;
    assert_eq!(opened["id"], "", "{opened}");
    assert_eq!(opened["entries"], serde_json::json!([]));
    // The busy one is still there with its blend.
    let kept = cart_of(&mut busy).await;
    assert_eq!(kept["id"], busy_id.as_str());
    assert_eq!(kept["entries"].as_array().map(Vec::len), Some(1));
    assert!(stored(busy_id)());
    assert!(counter(&app, EXPIRED).await.unwrap_or_default() >= before + 1.0, "the removal is counted");
}

#[actix_rt::test]
async fn redis_gives_an_open_cart_its_lifetime_and_a_purchased_one_none() {
    use veranda_actors::commerce::cart::ShoppingCart;
    use veranda_actors::commerce::redis_storage::RedisStorage;
    use veranda_actors::commerce::storage::{CartWrite, CommerceStorage};

    use crate::commerce::redis::harness::Redis;

    let Some(redis) = Redis::if_installed().await else { return };
    let lifetime = Duration::from_secs(60);
    let storage = RedisStorage::connect(&redis.url()).await.expect("connects").with_cart_lifetime(lifetime);
    let ttl = || redis.cli(&["PTTL", "veranda:cart:aging"]).trim().parse::<i64>().expect("a number");

    let mut cart = ShoppingCart::new("aging", "site", Default::default(), 1);
    assert_eq!(storage.save_cart_versioned(&cart, 0, false).await.expect("writes"), CartWrite::Saved(1));
    assert!((1..=60_000).contains(&ttl()), "an open cart expires within its lifetime: {}", ttl());
    storage.save_cart(&cart).await.expect("writes");
    assert!((1..=60_000).contains(&ttl()), "every write of an open cart renews its lifetime");

    cart.is_purchased = true;
    assert_eq!(storage.save_cart_versioned(&cart, 2, true).await.expect("writes"), CartWrite::Saved(3));
    assert_eq!(ttl(), -1, "a purchased cart is kept with its order");
}
