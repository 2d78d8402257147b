//! Two sites on one Redis, told apart by `[redis] key_prefix`: every key either writes
//! (store trees, carts, stock, orders, checkout claims, the live streams, the crumb key)
//! starts with its own prefix, so neither sees the other's carts, orders, stream events
//! or crumb key.

use veranda_actors::streams::{SharedLog, StreamLimits, StreamName};

use super::harness::{cart_cookie, client, quantity_of, site_with_lesson_stock, Door, Instance, Redis};

const PREFIXES: [&str; 2] = ["site-a:", "site-b:"];

#[actix_rt::test]
async fn two_sites_with_their_own_key_prefix_share_one_redis_without_seeing_each_other() {
    let Some(redis) = Redis::if_installed().await else { return };
    let site = site_with_lesson_stock(10);
    let env = |prefix: &str| format!("{{key_prefix = \"{prefix}\"}}");
    let (env_a, env_b) = (env(PREFIXES[0]), env(PREFIXES[1]));
    let a = Instance::start_with_env(site.path(), &redis.url(), &[("VERANDA_REDIS", &env_a)]).await;
    let b = Instance::start_with_env(site.path(), &redis.url(), &[("VERANDA_REDIS", &env_b)]).await;
    let client = client();
    let doors = [Door::of(&a).await, Door::of(&b).await];

    // Each site seeds its own stock and keeps its own crumb key.
    for prefix in PREFIXES {
        assert_eq!(redis.cli(&["GET", &format!("{prefix}stock:VER-LESSON")]), "10", "{prefix}");
        assert_eq!(redis.cli(&["STRLEN", &format!("{prefix}crumb_key")]), "32", "{prefix}");
    }
    assert_ne!(redis.cli(&["GET", "site-a:crumb_key"]), redis.cli(&["GET", "site-b:crumb_key"]));
    let crossed = Door { address: doors[1].address.clone(), crumb: doors[0].crumb.clone() };
    assert_eq!(crossed.add(&client, None, "VER-GUIDE-PDF", 1).await.status(), 403, "A's crumb on B");

    // A cart made and bought on A is A's alone.
    let res = doors[0].add(&client, None, "VER-LESSON", 1).await;
    assert_eq!(res.status(), 200);
    let cart = cart_cookie(&res).expect("a cart cookie");
    assert_eq!(quantity_of(&doors[0].cart(&client, &cart).await, "VER-LESSON"), 1);
    let on_b = doors[1].read_cart(&client, &cart).await;
    let on_b: serde_json::Value = on_b.json().await.unwrap_or_default();
    assert_eq!(quantity_of(&on_b, "VER-LESSON"), 0, "B does not see A's cart: {on_b}");
    assert_eq!(doors[0].checkout(&client, &cart).await.status(), 303, "checked out on A");
    assert_eq!(redis.cli(&["ZCARD", "site-a:orders"]), "1");
    assert_eq!(redis.cli(&["ZCARD", "site-b:orders"]), "0");
    assert_eq!(redis.cli(&["GET", "site-a:stock:VER-LESSON"]), "9");
    assert_eq!(redis.cli(&["GET", "site-b:stock:VER-LESSON"]), "10");

    // An event on A's edits stream is not in B's.
    let limits = StreamLimits::default();
    let log = |prefix: &str| SharedLog::open(&redis.url(), prefix, StreamName::Edits, &limits).expect("a Redis URL");
    let (log_a, log_b) = (log(PREFIXES[0]), log(PREFIXES[1]));
    let before_b = log_b.load(&limits, 1).await.expect("loads").head();
    let (_, offset) = log_a.publish(&serde_json::json!({ "name": "only-on-a" }), 1).await.expect("published");
    assert_eq!(log_a.load(&limits, 1).await.expect("loads").head(), offset);
    assert_eq!(log_b.load(&limits, 1).await.expect("loads").head(), before_b, "B's stream did not move");
    assert!(!redis.cli(&["XRANGE", "site-b:stream:edits:log", "-", "+"]).contains("only-on-a"));

    // Nothing either wrote is outside its prefix.
    let keys = redis.cli(&["--scan"]);
    let keys: Vec<&str> = keys.lines().collect();
    assert!(keys.iter().any(|k| k.starts_with("site-a:store:")), "the store's trees too: {keys:?}");
    assert!(keys.iter().any(|k| k.starts_with("site-b:stream:")), "{keys:?}");
    let outside: Vec<&&str> = keys.iter().filter(|k| !PREFIXES.iter().any(|p| k.starts_with(p))).collect();
    assert!(outside.is_empty(), "keys outside both prefixes: {outside:?}");
}
