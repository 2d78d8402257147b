//! Fan-out under a stalled client: 10,000 events on the errors stream while one
//! subscriber never reads. The readers get every event in order; the stalled one is
//! closed as a slow consumer and no client's queue ever grew past its bound.

use futures_util::StreamExt;
use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;
use veranda_server::settings::Settings;
use veranda_tests::{crumb, demo_site_dir, spawn_app_configured, TestApp};

use crate::streams::{next_json, watch};

/// Error records per request (the most one send may carry; about 50 KB, under the body limit).
const PER_REQUEST: usize = 10;
/// Events the readers wait for. Every record below starts a group of its own, and each
/// new group is published once (with a bounded sample of the records themselves), so
/// this many records publish at least this many events.
const EVENTS: u64 = 10_000;
/// Frames each client may have queued: room for the readers to fall a few hand-overs
/// behind on a busy machine, far less than the stalled client is sent.
const CLIENT_QUEUE: usize = 1024;

/// A message of its own for record `n`: letters only, since digits are normalised away
/// when records are grouped.
fn message(n: usize) -> String {
    let mut name = String::new();
    let mut rest = n;
    loop {
        name.push(char::from(b'a' + (rest % 26) as u8));
        rest /= 26;
        if rest == 0 {
            break;
        }
    }
    format!("{name} {}", "m".repeat(1000))
}

/// One large error record (about 4 KB per frame, so the stalled socket's buffers fill),
/// the first of its group.
fn record(page_load: &str, n: usize) -> Value {
    json!({ "event": "error", "timestamp": 1, "data": { "websiteId": "w", "templateId": "t",
        "url": format!("https://example.com/{}", "u".repeat(1900)), "userAgent": "test", "app": "loader",
        "message": message(n), "stack": "", "file": format!("https://example.com/{}.js", "f".repeat(1900)),
        "line": 1, "column": 2, "pageLoadId": page_load } })
}

async fn send_batch(app: &TestApp, crumb: &str, n: usize) {
    let body =
        Value::Array((0..PER_REQUEST).map(|i| record(&format!("load-{n}"), n * PER_REQUEST + i)).collect()).to_string();
    let req = app.client.post(format!("{}/api/events/RecordJavascriptErrors", app.address));
    let req = TestApp::with_crumb(req, crumb).header("content-type", "application/json");
    let res = req.body(body).send().await.expect("answered");
    assert_eq!(res.status(), 202, "batch {n}");
}

#[actix_rt::test]
async fn a_subscriber_that_never_reads_does_not_hold_back_the_others() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| {
        s.streams.client_queue = CLIENT_QUEUE;
        s.telemetry.rate_per_second = 10_000;
        s.telemetry.rate_burst = 10_000;
        // About 50 MB of records from one address: far past the default byte budget.
        s.telemetry.bytes_per_address_per_minute = u32::MAX;
        s.telemetry.byte_burst_per_address = u32::MAX;
    })
    .await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let _stalled = watch(&app, "errors", &admin).await;
    let mut readers = Vec::new();
    for _ in 0..2 {
        let mut socket = watch(&app, "errors", &admin).await;
        let start = next_json(&mut socket).await["offset"].as_u64().expect("an offset");
        let (first_events, received) = tokio::sync::oneshot::channel();
        readers.push(received);
        // A reader hands over the offsets of the first EVENTS frames, then goes on reading
        // whatever else the records publish, as a live dashboard would, until the test ends.
        actix_rt::spawn(async move {
            let mut offsets = Vec::with_capacity(EVENTS as usize);
            while (offsets.len() as u64) < EVENTS {
                let frame = next_json(&mut socket).await;
                offsets.push(frame["offset"].as_u64().expect("an offset") - start);
            }
            let _ = first_events.send(offsets);
            while let Some(Ok(_)) = socket.next().await {}
        });
    }
    let crumb = crumb(&app).await;
    for n in 0..(EVENTS as usize / PER_REQUEST) {
        send_batch(&app, &crumb, n).await;
    }
    for reader in readers {
        let offsets = reader.await.expect("the reader finishes");
        assert_eq!(offsets, (1..=EVENTS).collect::<Vec<u64>>(), "every event, in order, once");
    }
    let stats = app.get_json("/api/streams/errors/stats", &admin).await;
    assert_eq!(stats["slowConsumers"], 1, "the stalled subscriber was closed: {stats}");
    assert_eq!(stats["clients"], 2, "{stats}");
    assert!(stats["queueHighWater"].as_u64().expect("a number") <= CLIENT_QUEUE as u64, "{stats}");
    let metrics = app.get_ops("/metrics").await;
    let metrics = metrics.text().await.expect("text");
    assert!(metrics.contains("veranda_streams_slow_consumers_total{stream=\"errors\"}"), "exported");
}
