//! Slow bodies: a client that opens hundreds of POSTs and trickles their bodies holds no
//! place among the state-changing requests handled at once, so sign-in, forms and the
//! cart still answer; and a body that does not arrive within `body_read_timeout_secs` is
//! answered 408 and its connection closed.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use veranda_actors::accounts::AccountRole;
use veranda_server::settings::Settings;
use veranda_tests::metrics::scraped;
use veranda_tests::{add_account, crumb, demo_site_dir, eventually, spawn_app_configured, TestApp, Visitor};

/// Connections each holding a POST body open: more than the 512 state-changing requests
/// the server handles at once.
const TRICKLERS: usize = 600;
const OWNER: &str = "owner@example.com";
const PASSWORD: &str = "porch swing";
/// A product of the demo shop.
const BLEND_SKU: &str = "VER-HB-12OZ";

/// Opens a connection and sends a form submission's head and a first few bytes of a body
/// announced as 4 KB, with a valid crumb so the handler starts reading it.
async fn trickle(app: &TestApp, crumb: &str) -> TcpStream {
    let host = app.address.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).await.expect("connects");
    let head = format!(
        "POST /api/form/SaveFormSubmission HTTP/1.1\r\nHost: {host}\r\nCookie: crumb={crumb}\r\n\
         X-CSRF-Token: {crumb}\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{{\"formId\":"
    );
    stream.write_all(head.as_bytes()).await.expect("sends the head");
    stream
}

/// The public listener's requests in flight, as `/metrics` says.
async fn in_flight(app: &TestApp) -> f64 {
    scraped(&app.ops_address, "veranda_http_requests_in_flight", &[]).await.unwrap_or(0.0)
}

#[actix_rt::test]
async fn six_hundred_trickling_bodies_leave_sign_in_forms_and_the_cart_answering() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| s.body_read_timeout_secs = 60).await;
    add_account(&app, OWNER, PASSWORD, &[AccountRole::Owner]).await;
    let crumb = crumb(&app).await;
    let mut held = Vec::with_capacity(TRICKLERS);
    for _ in 0..TRICKLERS {
        held.push(trickle(&app, &crumb).await);
    }
    // Every trickling request has reached the server and waits for its body.
    let all_waiting = || async { (in_flight(&app).await >= TRICKLERS as f64).then_some(()) };
    eventually(Duration::from_secs(20), "every trickling request to be in flight", all_waiting).await;

    let mut visitor = Visitor::new(&app).await;
    let res = visitor.post("/api/site-users/account/session", &json!({ "email": OWNER, "password": PASSWORD })).await;
    assert_eq!(res.status(), 200, "sign-in answers while bodies trickle");

    let res = visitor.post("/api/form/FormSubmissionKey", &json!(null)).await;
    assert_eq!(res.status(), 200, "a form key is issued while bodies trickle");
    let key: Value = res.json().await.expect("JSON");
    assert!(key["key"].as_str().is_some_and(|k| !k.is_empty()), "{key}");

    let res = visitor.call(Method::POST, "/api/commerce/cart/entries", Some(json!({ "sku": BLEND_SKU }))).await;
    assert!(res.status().is_success(), "the cart answers while bodies trickle: {}", res.status());
    let cart: Value = visitor.get("/api/commerce/cart").await.json().await.expect("a cart");
    assert_eq!(cart["entries"].as_array().map(Vec::len), Some(1), "{cart}");
    drop(held);
}

#[actix_rt::test]
async fn a_body_that_does_not_arrive_in_time_is_answered_408_and_its_connection_closed() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| s.body_read_timeout_secs = 1).await;
    let crumb = crumb(&app).await;
    let mut stream = trickle(&app, &crumb).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the server closes the connection of a late body");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.ends_with(r#"{"error":"The request body took too long to arrive."}"#), "{answer}");

    // A body sent whole is not affected by the deadline.
    let mut visitor = Visitor::new(&app).await;
    let res = visitor.post("/api/form/FormSubmissionKey", &json!(null)).await;
    assert_eq!(res.status(), 200);
}
