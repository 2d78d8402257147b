//! Bodies: over the limit is 413 whether the size is announced (`Content-Length`) or not
//! (chunked), and deeply nested JSON is a 400 with a message, never a 5xx or a crash.

use veranda_tests::spawn_app;

use super::routes::{Body, Caller, Row, BEACONS, ROUTES};
use super::support::{raw, Framing};

/// Over every route's limit.
const TOO_BIG: usize = 1024 * 1024 + 1;
/// The nesting depth the suite sends.
const DEPTH: usize = 100_000;

fn content_type(row: &Row) -> &'static str {
    match row.body {
        Body::Json(_) | Body::Empty => "application/json",
        Body::Form(_) => "application/x-www-form-urlencoded",
    }
}

/// A body of `size` bytes of the row's kind.
fn oversized(row: &Row, size: usize) -> Vec<u8> {
    match row.body {
        Body::Form(_) => {
            let mut body = b"email=ada%40example.com&note=".to_vec();
            body.resize(size, b'x');
            body
        }
        _ => {
            let mut body = b"{\"note\":\"".to_vec();
            body.resize(size - 2, b'x');
            body.extend_from_slice(b"\"}");
            body
        }
    }
}

fn with_bodies() -> impl Iterator<Item = &'static Row> {
    ROUTES.iter().chain(BEACONS).filter(|r| !matches!(r.body, Body::Empty))
}

#[actix_rt::test]
async fn a_body_over_the_limit_is_413_with_or_without_a_content_length() {
    let app = spawn_app().await;
    for row in with_bodies() {
        for framing in [Framing::Length, Framing::Chunked] {
            let caller = Caller::new(&app, row).await;
            let headers = caller.raw_headers(row, content_type(row));
            let answer = raw(&app, row.method, &caller.path, &headers, oversized(row, TOO_BIG), framing).await;
            assert_eq!(answer.status, 413, "{} {} {framing:?}: {}", row.method, row.path, answer.body);
        }
    }
    assert_eq!(app.get("/").await.status(), 200, "the server still answers");
}

#[actix_rt::test]
async fn a_body_just_under_the_limit_is_not_413() {
    let app = spawn_app().await;
    for row in with_bodies() {
        let caller = Caller::new(&app, row).await;
        let headers = caller.raw_headers(row, content_type(row));
        let answer =
            raw(&app, row.method, &caller.path, &headers, oversized(row, row.limit - 64), Framing::Chunked).await;
        assert!(
            answer.status != 413 && answer.status != 0 && answer.status < 500,
            "{} {} answered {} under its limit",
            row.method,
            row.path,
            answer.status
        );
    }
}

#[actix_rt::test]
async fn deeply_nested_json_is_400_with_a_message_on_every_json_route() {
    let app = spawn_app().await;
    for row in ROUTES.iter().chain(BEACONS).filter(|r| r.is_json()) {
        // 100,000 brackets where the route's limit allows them, else as many as fit.
        let depth = DEPTH.min(row.limit / 2 - 1);
        let body = format!("{}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes();
        let caller = Caller::new(&app, row).await;
        let headers = caller.raw_headers(row, "application/json");
        for framing in [Framing::Length, Framing::Chunked] {
            let answer = raw(&app, row.method, &caller.path, &headers, body.clone(), framing).await;
            assert_eq!(answer.status, 400, "{} {} {framing:?} (depth {depth}): {}", row.method, row.path, answer.body);
            assert!(answer.body.trim().len() > 2, "{} {}: the refusal says why", row.method, row.path);
        }
        // Unclosed brackets too.
        let open = "[".repeat(depth).into_bytes();
        let answer = raw(&app, row.method, &caller.path, &headers, open, Framing::Length).await;
        assert_eq!(answer.status, 400, "{} {} unclosed: {}", row.method, row.path, answer.body);
    }
    assert_eq!(app.get("/").await.status(), 200, "the server still answers");
}

#[actix_rt::test]
async fn a_hundred_thousand_brackets_over_a_small_limit_are_413_not_a_crash() {
    let app = spawn_app().await;
    for row in ROUTES.iter().chain(BEACONS).filter(|r| r.is_json() && r.limit < DEPTH) {
        let caller = Caller::new(&app, row).await;
        let headers = caller.raw_headers(row, "application/json");
        let answer =
            raw(&app, row.method, &caller.path, &headers, "[".repeat(DEPTH).into_bytes(), Framing::Chunked).await;
        assert_eq!(answer.status, 413, "{} {}", row.method, row.path);
    }
    assert_eq!(app.get("/").await.status(), 200, "the server still answers");
}

/// Form-encoded beacons whose fields carry JSON: `(path, field)`.
const JSON_FIELDS: &[(&str, &str)] =
    &[("/api/census/RecordHit", "data"), ("/api/events/RecordEvent", "data"), ("/api/events/Trace", "entries")];

#[actix_rt::test]
async fn deeply_nested_json_inside_a_form_field_is_400() {
    let app = spawn_app().await;
    // As deep as a 16 KB beacon allows: far past any parser's recursion limit.
    let depth = 7_000;
    for (path, field) in JSON_FIELDS {
        let body = format!("{field}={}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes();
        let crumb = veranda_tests::crumb(&app).await;
        let headers = [
            ("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()),
            ("Cookie".to_string(), format!("crumb={crumb}")),
            ("X-CSRF-Token".to_string(), crumb),
        ];
        let answer = raw(&app, "POST", path, &headers, body, Framing::Length).await;
        assert_eq!(answer.status, 400, "{path} {field}: {}", answer.body);
        assert!(answer.body.trim().len() > 2, "{path}: the refusal says why");
    }
    assert_eq!(app.get("/").await.status(), 200, "the server still answers");
}
