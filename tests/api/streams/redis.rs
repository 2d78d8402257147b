//! The live streams across several instances sharing one real `redis-server`
//! (`--redis-url`): a dashboard on one instance sees the edits made on another, in one
//! order numbered by Redis, and resumes on the other instance from its last offset without
//! a duplicate; a Redis that stops answering never blocks an edit.
//!
//! Needs `redis-server` and `redis-cli` on the `PATH`; without them each test says so
//! loudly and passes without checking.

use std::time::Duration;

use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::{demo_site_dir, spawn_app_configured, TestApp};

use crate::commerce::redis::harness::{redis_installed, Redis};
use crate::streams::{next_json, put, watch, Socket};

/// An instance of the demo site sharing `redis`, with its own data directory.
async fn instance(redis: &Redis) -> TestApp {
    let url = redis.url();
    spawn_app_configured(&demo_site_dir(), move |settings| settings.redis_url = Some(url)).await
}

/// A Redis and two instances of the demo site sharing it; `None` where Redis is not
/// installed (the test then has nothing to check).
async fn two_instances() -> Option<(Redis, TestApp, TestApp)> {
    if !redis_installed() {
        return None;
    }
    let redis = Redis::start().await;
    let (a, b) = (instance(&redis).await, instance(&redis).await);
    Some((redis, a, b))
}

/// `PUT /api/site-header-footer` as `cookie`'s account, with a crumb issued to that session.
async fn put_header(app: &TestApp, cookie: &str, header: &str) -> reqwest::Response {
    put(app, "/api/site-header-footer", cookie, json!({ "header": header, "footer": "F" })).await
}

/// Saves a header through `app` (one edit event).
async fn edit(app: &TestApp, cookie: &str, n: u64) {
    assert_eq!(put_header(app, cookie, &format!("Header {n}")).await.status(), 200);
}

fn offset(frame: &Value) -> u64 {
    frame["offset"].as_u64().expect("an offset")
}

/// The next `n` event frames; panics on any other frame.
async fn events(socket: &mut Socket, n: usize) -> Vec<Value> {
    let mut frames = Vec::new();
    while frames.len() < n {
        let frame = next_json(socket).await;
        assert_eq!(frame["type"], "event", "only events follow: {frame}");
        frames.push(frame);
    }
    frames
}

#[actix_rt::test]
async fn an_edit_on_one_instance_reaches_the_other_in_order_and_resumes_there() {
    let Some((_redis, a, b)) = two_instances().await else { return };
    let (owner_a, owner_b) = (a.sign_in(true, &[], false).await, b.sign_in(true, &[], false).await);
    let (editor_a, editor_b) = (
        a.sign_in(false, &[ContributorRole::Editor], false).await,
        b.sign_in(false, &[ContributorRole::Editor], false).await,
    );

    let mut on_a = watch(&a, "edits", &owner_a).await;
    let hello = next_json(&mut on_a).await;
    assert_eq!(hello["type"], "hello");
    let epoch = hello["epoch"].as_str().expect("an epoch").to_string();

    // Edits through B, and through A and B in turn: A sees each once, numbered by Redis.
    edit(&b, &editor_b, 1).await;
    let first = events(&mut on_a, 1).await;
    assert_eq!(first[0]["epoch"], epoch.as_str(), "both instances share one epoch");
    assert_eq!(offset(&first[0]), offset(&hello) + 1);
    assert_eq!(first[0]["data"]["name"], "UserSavesSiteHeaderFooter");
    for n in 2..=5 {
        let (app, editor) = if n % 2 == 0 { (&a, &editor_a) } else { (&b, &editor_b) };
        edit(app, editor, n).await;
    }
    let more = events(&mut on_a, 4).await;
    let offsets: Vec<u64> = more.iter().map(offset).collect();
    assert_eq!(offsets, (offset(&hello) + 2..=offset(&hello) + 5).collect::<Vec<u64>>(), "in order, no gap");
    let last = *offsets.last().expect("events");
    drop(on_a);

    // Two edits while the dashboard is away, then it reconnects to B with A's last offset.
    edit(&a, &editor_a, 6).await;
    edit(&b, &editor_b, 7).await;
    let mut on_b = watch(&b, &format!("edits?epoch={epoch}&offset={last}"), &owner_b).await;
    let hello_b = next_json(&mut on_b).await;
    assert_eq!((hello_b["type"].as_str(), hello_b["epoch"].as_str()), (Some("hello"), Some(epoch.as_str())));
    let missed = events(&mut on_b, 2).await;
    assert_eq!(missed.iter().map(offset).collect::<Vec<u64>>(), vec![last + 1, last + 2], "exactly the missed ones");
    edit(&a, &editor_a, 8).await;
    let live = events(&mut on_b, 1).await;
    assert_eq!(offset(&live[0]), last + 3, "then live, no duplicate");
}

#[actix_rt::test]
async fn a_redis_that_stops_answering_does_not_block_edits_or_stop_the_servers() {
    let Some((mut redis, a, b)) = two_instances().await else { return };
    let owner_a = a.sign_in(true, &[], false).await;
    let editor_b = b.sign_in(false, &[ContributorRole::Editor], false).await;
    let mut on_a = watch(&a, "edits", &owner_a).await;
    next_json(&mut on_a).await;
    redis.kill();

    let started = std::time::Instant::now();
    let res = put_header(&b, &editor_b, "Saved anyway").await;
    assert_eq!(res.status(), 200, "the edit is saved without Redis");
    assert!(started.elapsed() < Duration::from_secs(8), "bounded by the Redis timeout");
    let saved = b.get_json("/api/site-header-footer", &editor_b).await;
    assert_eq!(saved["header"], "Saved anyway");
    for app in [&a, &b] {
        assert_eq!(app.get("/").await.status(), 200, "the server still serves");
    }
}

#[actix_rt::test]
async fn a_redis_that_lost_its_data_resets_the_dashboards_into_a_new_epoch() {
    let Some((redis, a, b)) = two_instances().await else { return };
    let owner_a = a.sign_in(true, &[], false).await;
    let editor_b = b.sign_in(false, &[ContributorRole::Editor], false).await;
    let mut on_a = watch(&a, "edits", &owner_a).await;
    let hello = next_json(&mut on_a).await;
    edit(&b, &editor_b, 1).await;
    assert_eq!(events(&mut on_a, 1).await[0]["epoch"], hello["epoch"]);

    assert_eq!(redis.cli(&["FLUSHALL"]), "OK");
    edit(&b, &editor_b, 2).await;
    let reset = next_json(&mut on_a).await;
    assert_eq!((reset["type"].as_str(), reset["reason"].as_str()), (Some("reset"), Some("epoch-changed")), "{reset}");
    assert_ne!(reset["epoch"], hello["epoch"]);
    edit(&b, &editor_b, 3).await;
    let next = events(&mut on_a, 1).await;
    assert_eq!(next[0]["epoch"], reset["epoch"]);
    assert_eq!(offset(&next[0]), offset(&reset) + 1, "live events continue after the reset's offset");
}
