//! The live streams over websockets: who may connect, live events, resuming exactly once
//! within the history and a reset beyond it, the frame limit, and signing out; and the
//! edit APIs whose events they carry.

mod content_edits;
mod edits;
mod fanout;
pub(crate) mod orders;
mod recent;
mod redis;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use veranda_actors::domain::enums::ContributorRole;
use veranda_server::settings::Settings;
use veranda_tests::{demo_site_dir, spawn_app, spawn_app_configured, TestApp, Visitor};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The site's own origin as the test's browser would send it.
pub fn own_origin(app: &TestApp) -> String {
    app.address.clone()
}

/// Opens `/api/streams/{path}` with `cookie` and `origin`; the handshake's status on refusal.
pub async fn open(app: &TestApp, path: &str, cookie: Option<&str>, origin: Option<&str>) -> Result<Socket, u16> {
    let url = format!("ws://127.0.0.1:{}/api/streams/{path}", app.port);
    let mut request = url.into_client_request().expect("a websocket request");
    if let Some(cookie) = cookie {
        request.headers_mut().insert("cookie", cookie.parse().expect("a header value"));
    }
    if let Some(origin) = origin {
        request.headers_mut().insert("origin", origin.parse().expect("a header value"));
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(WsError::Http(response)) => Err(response.status().as_u16()),
        Err(other) => panic!("the handshake failed without an HTTP answer: {other}"),
    }
}

/// Opens a stream as the site's own page with `cookie`.
pub async fn watch(app: &TestApp, path: &str, cookie: &str) -> Socket {
    open(app, path, Some(cookie), Some(&own_origin(app))).await.expect("the stream opens")
}

/// Opens a stream as the site's own page with `cookie`; the socket and its `hello` frame.
pub async fn watch_with_hello(app: &TestApp, path: &str, cookie: &str) -> (Socket, Value) {
    let mut socket = watch(app, path, cookie).await;
    let hello = next_json(&mut socket).await;
    (socket, hello)
}

/// Opens the `edits` stream as the site's own page with `cookie` and reads past its
/// `hello` frame.
pub async fn watch_edits(app: &TestApp, cookie: &str) -> Socket {
    let mut socket = watch(app, "edits", cookie).await;
    next_json(&mut socket).await;
    socket
}

/// The next JSON text frame (pings are answered by the client library).
pub async fn next_json(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("a frame arrives")
            .expect("the socket is open")
            .expect("a readable frame");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("a JSON frame");
        }
    }
}

/// `PUT path` with `body` as `cookie`'s account, crumb-checked.
pub async fn put(app: &TestApp, path: &str, cookie: &str, body: Value) -> reqwest::Response {
    Visitor::with_cookies(app, cookie).await.json(reqwest::Method::PUT, path, &body).await
}

/// Saves a header and footer (one edit event).
pub async fn edit(app: &TestApp, cookie: &str, n: u64) {
    let res =
        put(app, "/api/site-header-footer", cookie, json!({ "header": format!("Header {n}"), "footer": "F" })).await;
    assert_eq!(res.status(), 200);
}

fn offset(frame: &Value) -> u64 {
    frame["offset"].as_u64().expect("an offset")
}

#[actix_rt::test]
async fn streams_refuse_anonymous_members_wrong_roles_and_foreign_origins() {
    let app = spawn_app().await;
    let origin = own_origin(&app);
    let member = app.sign_in(false, &[], true).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let viewer = app.sign_in(false, &[ContributorRole::Viewer], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    assert_eq!(open(&app, "edits", None, Some(&origin)).await.err(), Some(401));
    assert_eq!(open(&app, "errors", Some(&member), Some(&origin)).await.err(), Some(403));
    assert_eq!(open(&app, "edits", Some(&editor), Some(&origin)).await.err(), Some(403), "edits need admin");
    assert_eq!(open(&app, "errors", Some(&viewer), Some(&origin)).await.err(), Some(403));
    assert_eq!(open(&app, "edits", Some(&admin), Some("https://evil.example")).await.err(), Some(403));
    assert_eq!(open(&app, "edits", Some(&admin), None).await.err(), Some(403), "a missing Origin is refused");
    assert_eq!(open(&app, "errors", Some(&editor), Some(&origin)).await.err(), Some(403), "errors need admin");
    assert!(open(&app, "errors", Some(&admin), Some(&origin)).await.is_ok());
    assert!(open(&app, "edits", Some(&admin), Some(&origin)).await.is_ok());
}

#[actix_rt::test]
async fn an_admin_sees_an_edit_live_with_its_editor_event() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let mut socket = watch(&app, "edits", &owner).await;
    let hello = next_json(&mut socket).await;
    assert_eq!((hello["type"].as_str(), hello["stream"].as_str()), (Some("hello"), Some("edits")));
    edit(&app, &editor, 1).await;
    let event = next_json(&mut socket).await;
    assert_eq!(event["type"], "event");
    assert_eq!(event["epoch"], hello["epoch"]);
    assert_eq!(offset(&event), offset(&hello) + 1);
    let data = &event["data"];
    assert_eq!(data["name"], "UserSavesSiteHeaderFooter");
    assert!(data["actor"].as_str().is_some_and(|a| a.starts_with("account-")));
    assert_eq!((data["action"].as_str(), data["objectType"].as_str()), (Some("save"), Some("site-header-footer")));
    assert_eq!(
        (data["productPage"].as_str(), data["productSection"].as_str()),
        (Some("config"), Some("header-footer"))
    );
}

#[actix_rt::test]
async fn a_reconnecting_client_gets_exactly_the_events_it_missed() {
    let app = spawn_app().await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let (mut first, hello) = watch_with_hello(&app, "edits", &admin).await;
    let epoch = hello["epoch"].as_str().expect("an epoch").to_string();
    for n in 0..3 {
        edit(&app, &admin, n).await;
    }
    let mut last = 0;
    for _ in 0..3 {
        last = offset(&next_json(&mut first).await);
    }
    drop(first);
    for n in 3..5 {
        edit(&app, &admin, n).await;
    }
    let mut again = watch(&app, &format!("edits?epoch={epoch}&offset={last}"), &admin).await;
    assert_eq!(next_json(&mut again).await["type"], "hello");
    let replayed = [next_json(&mut again).await, next_json(&mut again).await];
    assert_eq!(replayed.iter().map(offset).collect::<Vec<_>>(), vec![last + 1, last + 2]);
    assert_eq!(replayed[1]["data"]["name"], "UserSavesSiteHeaderFooter");
    edit(&app, &admin, 5).await;
    assert_eq!(offset(&next_json(&mut again).await), last + 3, "live events follow without a duplicate");
}

#[actix_rt::test]
async fn a_gap_beyond_the_history_or_another_epoch_gets_a_reset() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| s.streams.history_events = 3).await;
    let admin = app.sign_in(true, &[], false).await;
    let mut socket = watch(&app, "edits", &admin).await;
    let epoch = next_json(&mut socket).await["epoch"].as_str().expect("an epoch").to_string();
    for n in 0..6 {
        edit(&app, &admin, n).await;
    }
    let mut behind = watch(&app, &format!("edits?epoch={epoch}&offset=1"), &admin).await;
    assert_eq!(next_json(&mut behind).await["type"], "hello");
    let reset = next_json(&mut behind).await;
    assert_eq!((reset["type"].as_str(), reset["reason"].as_str()), (Some("reset"), Some("beyond-history")));
    assert_eq!(offset(&reset), 6);
    let mut within = watch(&app, &format!("edits?epoch={epoch}&offset=3"), &admin).await;
    next_json(&mut within).await;
    assert_eq!(offset(&next_json(&mut within).await), 4, "the oldest kept event follows offset 3");
    let mut stranger = watch(&app, "edits?epoch=0123456789abcdef&offset=2", &admin).await;
    next_json(&mut stranger).await;
    assert_eq!(next_json(&mut stranger).await["reason"], "epoch-changed");
    assert_eq!(open(&app, "edits?epoch=x", Some(&admin), Some(&own_origin(&app))).await.err(), Some(400));
}

#[actix_rt::test]
async fn a_frame_over_64_kb_closes_the_socket() {
    let app = spawn_app().await;
    let admin = app.sign_in(true, &[], false).await;
    let mut socket = watch_edits(&app, &admin).await;
    socket.send(Message::text("x".repeat(70 * 1024))).await.expect("sent");
    assert_eq!(close_code(&mut socket).await, Some(CloseCode::Size));
}

#[actix_rt::test]
async fn signing_out_closes_the_accounts_socket() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| s.streams.heartbeat_secs = 1).await;
    let admin = app.sign_in(true, &[], false).await;
    let mut socket = watch_edits(&app, &admin).await;
    let mut visitor = Visitor::with_cookies(&app, &admin).await;
    let logout = visitor.request(reqwest::Method::POST, "/api/auth/Logout");
    let res = visitor.send(logout).await;
    assert_eq!(res.status(), 200);
    assert_eq!(close_code(&mut socket).await, Some(CloseCode::Policy));
}

#[actix_rt::test]
async fn signing_out_closes_the_socket_at_once_not_at_the_next_heartbeat() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| s.streams.heartbeat_secs = 60).await;
    let admin = app.sign_in(true, &[], false).await;
    let other = app.sign_in(true, &[], false).await;
    let mut sockets = [watch(&app, "edits", &admin).await, watch(&app, "errors", &admin).await];
    let mut others = watch(&app, "edits", &other).await;
    for socket in sockets.iter_mut().chain([&mut others]) {
        next_json(socket).await;
    }
    let mut visitor = Visitor::with_cookies(&app, &admin).await;
    let sign_out = visitor.request(reqwest::Method::DELETE, "/api/site-users/account/session");
    let started = std::time::Instant::now();
    let res = visitor.send(sign_out).await;
    assert_eq!(res.status(), 200);
    for socket in &mut sockets {
        assert_eq!(close_code(socket).await, Some(CloseCode::Policy));
    }
    assert!(started.elapsed() < Duration::from_secs(3), "closed in {:?}", started.elapsed());
    edit(&app, &other, 1).await;
    assert_eq!(next_json(&mut others).await["type"], "event", "another account's socket stays open");
}

/// Reads until the server closes the socket; its close code.
pub async fn close_code(socket: &mut Socket) -> Option<CloseCode> {
    loop {
        match tokio::time::timeout(Duration::from_secs(20), socket.next()).await.expect("the socket closes") {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        }
    }
}
