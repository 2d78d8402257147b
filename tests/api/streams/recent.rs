//! `GET /api/streams/{stream}/events`: the latest events with their `(epoch, offset)`, who may
//! read them, bad limits, and that a websocket resumed from the answer continues without a gap.

use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::{spawn_app, TestApp};

use crate::streams::{edit, next_json, put, watch};

async fn save_header(app: &TestApp, cookie: &str, header: &str) {
    let res = put(app, "/api/site-header-footer", cookie, json!({ "header": header, "footer": "" })).await;
    assert_eq!(res.status(), 200);
}

#[actix_rt::test]
async fn the_latest_edits_are_listed_oldest_first_ending_at_the_stream_offset() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    for header in ["one", "two", "three"] {
        save_header(&app, &owner, header).await;
    }
    let res = app.get_with("/api/streams/edits/events?limit=2", &[("cookie", &owner)]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
    let body: Value = res.json().await.expect("JSON");
    let events = body["events"].as_array().expect("events");
    let offsets: Vec<u64> = events.iter().map(|e| e["offset"].as_u64().expect("an offset")).collect();
    let head = body["offset"].as_u64().expect("the stream offset");
    assert_eq!(offsets, vec![head - 1, head]);
    assert!(events.iter().all(|e| e["epoch"] == body["epoch"]));
    assert_eq!(events[1]["data"]["name"], "UserSavesSiteHeaderFooter");
    assert!(events[1]["at"].as_u64().is_some());
    let all: Value = app.get_with("/api/streams/edits/events", &[("cookie", &owner)]).await.json().await.expect("JSON");
    assert_eq!(all["events"].as_array().map(Vec::len), Some(3));
}

#[actix_rt::test]
async fn only_admins_read_past_edits_and_bad_limits_get_400() {
    let app = spawn_app().await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    assert_eq!(app.get("/api/streams/edits/events").await.status(), 401);
    assert_eq!(app.get_with("/api/streams/edits/events", &[("cookie", &editor)]).await.status(), 403);
    assert_eq!(app.get_with("/api/streams/errors/events", &[("cookie", &editor)]).await.status(), 403);
    assert_eq!(app.get_with("/api/streams/errors/events", &[("cookie", &admin)]).await.status(), 200);
    assert_eq!(app.get_with("/api/streams/edits/events", &[("cookie", &admin)]).await.status(), 200);
    for bad in ["limit=0", "limit=501", "limit=many", "since=3"] {
        let res = app.get_with(&format!("/api/streams/edits/events?{bad}"), &[("cookie", &admin)]).await;
        assert_eq!(res.status(), 400, "{bad}");
        assert!(res.json::<Value>().await.expect("JSON")["error"].as_str().is_some());
    }
    assert_eq!(app.get_with("/api/streams/nothing/events", &[("cookie", &admin)]).await.status(), 400);
}

#[actix_rt::test]
async fn a_socket_resumed_from_the_listed_offset_continues_without_a_gap_or_a_duplicate() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    edit(&app, &owner, 1).await;
    edit(&app, &owner, 2).await;
    let listed: Value =
        app.get_with("/api/streams/edits/events", &[("cookie", &owner)]).await.json().await.expect("JSON");
    let epoch = listed["epoch"].as_str().expect("an epoch");
    let head = listed["offset"].as_u64().expect("an offset");
    edit(&app, &owner, 3).await;
    let mut socket = watch(&app, &format!("edits?epoch={epoch}&offset={head}"), &owner).await;
    assert_eq!(next_json(&mut socket).await["type"], "hello");
    let missed = next_json(&mut socket).await;
    assert_eq!((missed["type"].as_str(), missed["offset"].as_u64()), (Some("event"), Some(head + 1)));
    assert_eq!(missed["data"]["name"], "UserSavesSiteHeaderFooter");
    edit(&app, &owner, 4).await;
    assert_eq!(next_json(&mut socket).await["offset"].as_u64(), Some(head + 2));
}
