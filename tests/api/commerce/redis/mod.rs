//! Several instances sharing carts, stock and orders through one real `redis-server`
//! (`--redis-url`): two `veranda serve` processes, each with its own data directory,
//! change one cart at the same time without losing an update, and 200 checkouts
//! split across both for 10 units make exactly 10 orders. Also the versioned cart
//! write and the stock script against Redis itself, a Redis that stops answering
//! (503 with `Retry-After`), and a Redis that cannot be reached at start-up. A
//! checkout commits stock, order and purchased cart in one script: a refused commit
//! writes nothing, a repeated one changes nothing, and a checkout whose answer from
//! Redis is lost (a proxy cuts the connection) still makes exactly one order.
//!
//! Needs `redis-server` and `redis-cli` on the `PATH` (Debian's `redis-server`
//! package); without them each test says so loudly and passes without checking.

pub(crate) mod harness;
mod key_prefix;
mod shared_crumbs;

use serde_json::Value;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use veranda_actors::commerce::cart::ShoppingCart;
use veranda_actors::commerce::order::{Customer, Order, OrderKind};
use veranda_actors::commerce::redis_storage::RedisStorage;
use veranda_actors::commerce::storage::{CartWrite, CheckoutCommit, CommerceStorage, CommitOutcome, Reservation};
use veranda_tests::demo_site_copy;
use veranda_tests::eventually;
use veranda_tests::process::free_port;

use harness::*;

const SKUS: [&str; 2] = ["VER-GUIDE-PDF", "VER-GIFT-25"];
/// Concurrent writers per instance.
const WRITERS: usize = 8;
/// Additions each writer makes.
const ADDS: u32 = 15;

#[actix_rt::test]
async fn interleaved_changes_to_one_cart_through_two_instances_lose_nothing() {
    let Some(pair) = Pair::if_installed(6).await else { return };
    let Pair { client, doors, .. } = &pair;

    let first = doors[0].add(client, None, SKUS[0], 1).await;
    assert_eq!(first.status(), 200);
    let cart = cart_cookie(&first).expect("a cart cookie");
    let cart = Arc::new(cart);

    // WRITERS tasks per instance, each adding 1 or 2 units of alternating SKUs.
    let mut writers = Vec::new();
    for writer in 0..WRITERS * 2 {
        let (door, client, cart) = (doors[writer % 2].clone(), client.clone(), cart.clone());
        writers.push(actix_rt::spawn(async move {
            let mut acked = [0u64; 2];
            let mut refused = 0;
            for n in 0..ADDS {
                let (sku, quantity) = ((writer + n as usize) % 2, 1 + n % 2);
                let res = door.add(&client, Some(&cart), SKUS[sku], quantity).await;
                match res.status().as_u16() {
                    200 => acked[sku] += u64::from(quantity),
                    409 => {
                        let body: Value = res.json().await.expect("json");
                        assert!(body["error"].as_str().is_some_and(|e| e.contains("changed elsewhere")), "{body}");
                        refused += 1;
                    }
                    other => panic!("a cart change answered {other}: {}", res.text().await.unwrap_or_default()),
                }
            }
            (acked, refused)
        }));
    }
    let mut acked = [1u64, 0];
    let mut refused = 0;
    for writer in writers {
        let (mine, theirs) = writer.await.expect("a writer finishes");
        acked[0] += mine[0];
        acked[1] += mine[1];
        refused += theirs;
    }
    let total_changes = (WRITERS * 2) as u32 * ADDS;
    assert!(refused * 10 < total_changes, "{refused} of {total_changes} changes refused after retries");
    for door in doors {
        let seen = door.cart(client, &cart).await;
        for (i, sku) in SKUS.iter().enumerate() {
            assert_eq!(quantity_of(&seen, sku), acked[i], "{sku} through {}: {seen}", door.address);
        }
        assert_eq!(seen["totalQuantity"].as_u64(), Some(acked[0] + acked[1]));
    }
    eprintln!("cart: {acked:?} units acknowledged, {refused} changes refused after retries");
}

#[actix_rt::test]
async fn two_hundred_checkouts_across_two_instances_for_ten_units_make_ten_orders() {
    let Some(pair) = Pair::if_installed(10).await else { return };
    let Pair { redis, client, doors, .. } = &pair;
    assert_eq!(redis.cli(&["GET", "veranda:stock:VER-LESSON"]), "10", "seeded once from the site");

    // 200 carts, made through either instance; each checked out through the other.
    let mut carts = Vec::new();
    for i in 0..200 {
        let res = doors[i % 2].add(client, None, "VER-LESSON", 1).await;
        assert_eq!(res.status(), 200);
        carts.push(cart_cookie(&res).expect("a cart cookie"));
    }
    let checkouts = carts.iter().enumerate().map(|(i, cart)| {
        let (door, client) = (doors[(i + 1) % 2].clone(), client.clone());
        let cart = cart.clone();
        async move {
            let res = door.checkout(&client, &cart).await;
            let location = res.headers().get("location").and_then(|v| v.to_str().ok()).map(str::to_string);
            (res.status().as_u16(), location)
        }
    });
    let answers = futures_util::future::join_all(checkouts).await;
    let placed: Vec<String> = answers.iter().filter(|(s, _)| *s == 303).filter_map(|(_, l)| l.clone()).collect();
    let refused = answers.iter().filter(|(s, _)| *s == 409).count();
    let statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    assert_eq!((placed.len(), refused), (10, 190), "{statuses:?}");
    assert_eq!(redis.cli(&["GET", "veranda:stock:VER-LESSON"]), "0");
    assert_eq!(redis.cli(&["ZCARD", "veranda:orders"]), "10");
    // Every order is visible through both instances.
    for location in &placed {
        for door in doors {
            let res = client.get(format!("{}{location}", door.address)).send().await.expect("answered");
            assert_eq!(res.status(), 200, "order {location} through {}", door.address);
        }
    }
    // A checked-out cart is purchased for both instances.
    let purchased = answers.iter().position(|(s, _)| *s == 303).expect("one placed");
    for door in doors {
        let cart = door.cart(client, &carts[purchased]).await;
        assert_eq!(cart["isPurchased"], true, "{cart}");
    }
}

#[actix_rt::test]
async fn one_cart_checked_out_through_both_instances_at_once_makes_one_order() {
    let Some(pair) = Pair::if_installed(6).await else { return };
    let Pair { redis, client, doors, .. } = &pair;
    let mut carts = Vec::new();
    for i in 0..20 {
        let res = doors[i % 2].add(client, None, "VER-GUIDE-PDF", 1).await;
        assert_eq!(res.status(), 200);
        carts.push(cart_cookie(&res).expect("a cart cookie"));
    }
    let both = carts.iter().flat_map(|cart| doors.iter().map(move |door| (door.clone(), cart.clone())));
    let checkouts = both.map(|(door, cart)| {
        let client = client.clone();
        async move {
            let res = door.checkout(&client, &cart).await;
            let location = res.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_string);
            (cart.clone(), res.status().as_u16(), location)
        }
    });
    let answers = futures_util::future::join_all(checkouts).await;
    for cart in &carts {
        let mine: Vec<_> = answers.iter().filter(|(c, ..)| c == cart).collect();
        let statuses: Vec<u16> = mine.iter().map(|(_, s, _)| *s).collect();
        assert!(statuses.iter().all(|s| [303, 409, 503].contains(s)), "cart {cart}: {statuses:?}");
        // A post that comes after the other instance placed the order is sent to that
        // same order's confirmation: every redirect names one order (the poster that
        // placed it also gets the order's view key in the query).
        let mut orders: Vec<&str> =
            mine.iter().filter_map(|(_, _, l)| l.as_deref()).map(|l| l.split('?').next().unwrap_or(l)).collect();
        orders.sort_unstable();
        orders.dedup();
        assert_eq!(orders.len(), 1, "cart {cart}: {mine:?}");
        assert!(orders[0].starts_with("/commerce/orders/"), "cart {cart}: {mine:?}");
    }
    assert_eq!(redis.cli(&["ZCARD", "veranda:orders"]), "20");
}

/// A Redis and the storage connected to it, or `None` when `redis-server` is not installed.
async fn redis_with_storage() -> Option<(Redis, RedisStorage)> {
    let redis = Redis::if_installed().await?;
    let storage = RedisStorage::connect(&redis.url()).await.expect("connects");
    Some((redis, storage))
}

/// The shared stock levels of SKUs `A` and `B` in the storage tests.
fn stock_of_a_and_b(redis: &Redis) -> (String, String) {
    (redis.cli(&["GET", "veranda:stock:A"]), redis.cli(&["GET", "veranda:stock:B"]))
}

/// A cart for the storage tests.
fn test_cart(id: &str, website: &str) -> ShoppingCart {
    ShoppingCart::new(id, website, Default::default(), 1)
}

#[actix_rt::test]
async fn the_versioned_cart_write_refuses_stale_versions() {
    let Some((redis, storage)) = redis_with_storage().await else { return };
    let first = test_cart("cas-cart", "one");
    assert_eq!(storage.load_cart_versioned("cas-cart").await.expect("reads"), None);
    assert_eq!(storage.save_cart_versioned(&first, 0, false).await.expect("writes"), CartWrite::Saved(1));
    // A second writer that also started from "absent" loses and is shown version 1.
    let second = test_cart("cas-cart", "two");
    match storage.save_cart_versioned(&second, 0, false).await.expect("answers") {
        CartWrite::Conflict(Some(current)) => assert_eq!((current.version, current.cart.website_id), (1, "one".into())),
        other => panic!("a stale write must conflict: {other:?}"),
    }
    assert_eq!(storage.save_cart_versioned(&second, 1, false).await.expect("writes"), CartWrite::Saved(2));
    let stored = storage.load_cart_versioned("cas-cart").await.expect("reads").expect("stored");
    assert_eq!((stored.version, stored.cart.website_id.as_str()), (2, "two"));
    assert_eq!(storage.load_cart("cas-cart").expect("reads").map(|c| c.website_id), Some("two".into()));
    // An unconditional write still moves the version on.
    storage.save_cart(&test_cart("cas-cart", "three")).await.expect("writes");
    assert!(matches!(
        storage.save_cart_versioned(&second, 2, false).await.expect("answers"),
        CartWrite::Conflict(Some(_))
    ));
    assert_eq!(redis.cli(&["HGET", "veranda:cart:cas-cart", "v"]), "3");
    // While a checkout holds the cart only the checkout's own write lands.
    assert!(storage.claim_checkout("cas-cart").await.expect("claims"));
    assert!(!storage.claim_checkout("cas-cart").await.expect("answers"), "one claim at a time");
    assert_eq!(storage.save_cart_versioned(&second, 3, false).await.expect("answers"), CartWrite::CheckingOut);
    assert_eq!(storage.save_cart_versioned(&second, 3, true).await.expect("writes"), CartWrite::Saved(4));
    storage.end_checkout("cas-cart").await.expect("ends");
    assert_eq!(storage.save_cart_versioned(&second, 4, false).await.expect("writes"), CartWrite::Saved(5));
}

#[actix_rt::test]
async fn the_stock_script_takes_every_line_or_none_and_never_goes_negative() {
    let Some((redis, storage)) = redis_with_storage().await else { return };
    storage.seed_stock(vec![("A".into(), 3), ("B".into(), 1)]).await.expect("seeds");
    // Seeding again keeps the shared levels.
    storage.seed_stock(vec![("A".into(), 50)]).await.expect("seeds");
    assert_eq!(storage.load_stock("A").expect("reads"), Some(3));
    let reserve = |lines: Vec<(&str, u32)>| {
        let lines = lines.into_iter().map(|(s, q)| (s.to_string(), q)).collect();
        storage.reserve_stock(lines).expect("Redis reserves itself")
    };
    assert_eq!(
        reserve(vec![("A", 2), ("B", 2)]).await.expect("answers"),
        Reservation::Short { sku: "B".into(), available: 1 }
    );
    assert_eq!(stock_of_a_and_b(&redis), ("3".into(), "1".into()));
    assert_eq!(
        reserve(vec![("A", 2), ("B", 1)]).await.expect("answers"),
        Reservation::Reserved(vec![("A".into(), 1), ("B".into(), 0)])
    );
    assert_eq!(reserve(vec![("B", 1)]).await.expect("answers"), Reservation::Short { sku: "B".into(), available: 0 });
    assert_eq!(
        reserve(vec![("NONE", 1)]).await.expect("answers"),
        Reservation::Short { sku: "NONE".into(), available: 0 }
    );
    // Many concurrent single-unit reservations of A's last unit: exactly one wins.
    let attempts = (0..50).map(|_| reserve(vec![("A", 1)]));
    let outcomes = futures_util::future::join_all(attempts).await;
    let won = outcomes.iter().filter(|o| matches!(o, Ok(Reservation::Reserved(_)))).count();
    assert_eq!(won, 1, "{outcomes:?}");
    assert_eq!(redis.cli(&["GET", "veranda:stock:A"]), "0");
    let released =
        storage.release_stock(vec![("A".into(), 2)]).expect("Redis releases itself").await.expect("releases");
    assert_eq!(released, vec![("A".into(), 2)]);
}

#[actix_rt::test]
async fn a_redis_that_stops_answering_gives_503_with_retry_after() {
    let Some(mut redis) = Redis::if_installed().await else { return };
    let one = Single::with_cart(&redis.url(), 6, "VER-GUIDE-PDF").await;
    let (client, door, cart) = (&one.client, &one.door, one.cart.as_str());
    // While another instance checks the cart out, changes wait for it: 503, try again.
    redis.cli(&["SET", &format!("veranda:checkout:{cart}"), "1"]);
    let res = door.add(client, Some(cart), "VER-GUIDE-PDF", 1).await;
    assert_eq!(res.status(), 503, "a change during a checkout elsewhere");
    assert!(res.headers().get("retry-after").is_some(), "Retry-After is set");
    redis.cli(&["DEL", &format!("veranda:checkout:{cart}")]);
    assert_eq!(door.add(client, Some(cart), "VER-GUIDE-PDF", 1).await.status(), 200);
    redis.kill();
    let res = door.add(client, Some(cart), "VER-GUIDE-PDF", 1).await;
    assert_eq!(res.status(), 503);
    assert!(res.headers().get("retry-after").is_some(), "Retry-After is set");
    let body: Value = res.json().await.expect("json");
    assert!(body["error"].as_str().is_some_and(|e| e.contains("unavailable")), "{body}");
    assert_eq!(door.read_cart(client, cart).await.status(), 503, "reading the cart");
}

#[actix_rt::test]
async fn an_unreachable_redis_at_startup_is_a_clear_error_naming_the_url() {
    let site = demo_site_copy(|_| {});
    let data = tempfile::tempdir().expect("a data dir");
    // Nothing listens on a port just freed.
    let url = format!("redis://127.0.0.1:{}/", free_port());
    let (mut command, _, _) = Instance::command(site.path(), data.path(), &url);
    let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("veranda starts");
    let status = eventually(Duration::from_secs(60), "veranda to exit without Redis", || {
        let status = child.try_wait().expect("waits");
        async move { status }
    })
    .await;
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("reads");
    assert!(!status.success(), "exits with an error");
    assert!(stderr.contains(&url) && stderr.contains("Redis"), "names the URL: {stderr}");
}

/// A checkout commit for the storage tests: `cart` bought by order `order`.
fn commit_of(cart: &ShoppingCart, order: &str, expected: u64, lines: &[(&str, u32)]) -> CheckoutCommit {
    let order = Order::from_cart(order.to_string(), OrderKind::Order, cart, Customer::default(), 5);
    let mut purchased = cart.clone();
    purchased.is_purchased = true;
    purchased.order_id = order.id.clone();
    let lines = lines.iter().map(|(sku, units)| (sku.to_string(), *units)).collect();
    CheckoutCommit { order, cart: purchased, expected, lines }
}

#[actix_rt::test]
async fn the_checkout_commit_is_all_or_nothing_and_idempotent() {
    let Some((redis, storage)) = redis_with_storage().await else { return };
    storage.seed_stock(vec![("A".into(), 2), ("B".into(), 1)]).await.expect("seeds");
    let cart = test_cart("commit-cart", "w");
    assert_eq!(storage.save_cart_versioned(&cart, 0, false).await.expect("writes"), CartWrite::Saved(1));
    let commit = |c: &CheckoutCommit| storage.commit_checkout(c).expect("Redis commits checkouts itself");
    let nothing_written = |why: &str| {
        assert_eq!(redis.cli(&["ZCARD", "veranda:orders"]), "0", "{why}");
        assert_eq!(redis.cli(&["KEYS", "veranda:order:*"]), "", "{why}");
        assert_eq!(redis.cli(&["HGET", "veranda:cart:commit-cart", "v"]), "1", "{why}");
        assert_eq!(redis.cli(&["HGET", "veranda:cart:commit-cart", "o"]), "", "{why}");
        assert_eq!(stock_of_a_and_b(&redis), ("2".into(), "1".into()), "{why}");
    };

    // One short line: nothing is taken, stored or marked.
    let short = commit_of(&cart, "order-short", 1, &[("A", 2), ("B", 2)]);
    assert_eq!(commit(&short).await.expect("answers"), CommitOutcome::Short { sku: "B".into(), available: 1 });
    nothing_written("a short line");
    // Made from a version of the cart that is no longer stored: nothing written.
    let stale = commit_of(&cart, "order-stale", 0, &[("A", 1)]);
    assert_eq!(commit(&stale).await.expect("answers"), CommitOutcome::Stale);
    nothing_written("a stale cart");

    // Committed: stock, order, index and purchased cart together.
    let first = commit_of(&cart, "order-1", 1, &[("A", 2), ("B", 1)]);
    assert_eq!(
        commit(&first).await.expect("answers"),
        CommitOutcome::Committed(vec![("A".into(), 0), ("B".into(), 0)])
    );
    let after = |why: &str| {
        assert_eq!(redis.cli(&["ZRANGE", "veranda:orders", "0", "-1"]), "order-1", "{why}");
        assert_eq!(redis.cli(&["HGET", "veranda:cart:commit-cart", "o"]), "order-1", "{why}");
        assert_eq!(redis.cli(&["HGET", "veranda:cart:commit-cart", "v"]), "2", "{why}");
        assert_eq!(stock_of_a_and_b(&redis), ("0".into(), "0".into()), "{why}");
    };
    after("committed");
    let stored = storage.load_cart_versioned("commit-cart").await.expect("reads").expect("stored");
    assert!(stored.cart.is_purchased && stored.cart.order_id == "order-1", "{:?}", stored.cart);
    assert_eq!(storage.load_order("order-1").expect("reads").map(|o| o.cart_id), Some("commit-cart".into()));

    // The same commit again (its first answer lost): recognised, nothing changes.
    assert_eq!(commit(&first).await.expect("answers"), CommitOutcome::AlreadyCommitted);
    after("the same commit again");
    // Another order for the purchased cart: refused with the order that bought it.
    let second = commit_of(&cart, "order-2", 2, &[]);
    assert_eq!(commit(&second).await.expect("answers"), CommitOutcome::Purchased("order-1".into()));
    after("another order");
    assert_eq!(storage.load_order("order-2").expect("reads"), None);
}

#[actix_rt::test]
async fn a_checkout_whose_commit_answer_is_lost_makes_one_order_and_purchases_the_cart() {
    let Some(redis) = Redis::if_installed().await else { return };
    let proxy = CuttingProxy::start(redis.port).await;
    let one = Single::with_cart(&proxy.url(), 5, "VER-LESSON").await;
    let (instance, client, door, cart) = (&one.instance, &one.client, &one.door, one.cart.as_str());

    // Redis stores the order, but the instance never hears so.
    proxy.arm();
    let first = door.checkout(client, cart).await;
    assert_eq!(proxy.cuts(), 1, "the answer of the order's commit was cut");
    let first_status = first.status().as_u16();
    assert!([303, 503].contains(&first_status), "a checkout whose answer was lost: {first_status}");
    // The buyer sends the checkout again: it lands on the one order.
    let replay = door.checkout(client, cart).await;
    assert_eq!(replay.status(), 303, "{}", replay.text().await.unwrap_or_default());
    let location = replay.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    // The first answer carries the order's secret (`?key=`); the replay names the same page.
    let page = location.split('?').next().unwrap_or_default().to_string();
    if first_status == 303 {
        let first_page =
            first.headers().get("location").and_then(|v| v.to_str().ok()).and_then(|l| l.split('?').next());
        assert_eq!(first_page, Some(page.as_str()));
    }
    let order_id = page.strip_prefix("/commerce/orders/").expect("an order page").to_string();
    assert_eq!(redis.cli(&["ZRANGE", "veranda:orders", "0", "-1"]), order_id, "exactly one order");
    assert_eq!(redis.cli(&["GET", "veranda:stock:VER-LESSON"]), "4", "one unit taken");
    let seen = door.cart(client, cart).await;
    assert_eq!(
        (seen["isPurchased"].as_bool(), seen["orderId"].as_str()),
        (Some(true), Some(order_id.as_str())),
        "{seen}"
    );
    // The order's page opens with the secret the first answer gave the buyer, not with
    // the cart's redirect alone.
    if let Some(keyed) = first.headers().get("location").and_then(|v| v.to_str().ok()).filter(|_| first_status == 303) {
        let page = client.get(format!("{}{keyed}", instance.address)).send().await.expect("answered");
        assert_eq!(page.status(), 200);
    }
    let page = client.get(format!("{}{page}", instance.address)).send().await.expect("answered");
    assert_eq!(page.status(), 404, "the cart id does not open the order");
}
