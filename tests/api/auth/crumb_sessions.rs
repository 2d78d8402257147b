//! Crumbs bound to sessions: a signed-in visitor's crumb works only with the session it
//! was issued for. A crumb of another account, one minted before sign-in, or one kept
//! after sign-out is refused (403 `crumbFail`); signing in and out hand out a new one.
//! Instances given the same `[security] crumb_key_file` accept each other's crumbs.

use reqwest::Response;
use serde_json::{json, Value};
use veranda_actors::accounts::{AccountRole, SESSION_COOKIE};
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::add_account;
use veranda_tests::{cookie_value, crumb_for, demo_site_dir, spawn_app, spawn_app_configured, TestApp};

const SESSION: &str = "/api/site-users/account/session";
const LOGOUT: &str = "/api/auth/Logout";
const ACCOUNT: &str = "/api/site-users/account";
const CART_ENTRIES: &str = "/api/commerce/cart/entries";
const HEADER_FOOTER: &str = "/api/site-header-footer";

/// `method path` with `cookie` (plus the crumb cookie) and the crumb echoed.
async fn call(app: &TestApp, method: reqwest::Method, path: &str, session: &str, crumb: &str, body: Value) -> Response {
    let cookie = if session.is_empty() { format!("crumb={crumb}") } else { format!("{session}; crumb={crumb}") };
    app.client
        .request(method, format!("{}{path}", app.address))
        .header("cookie", cookie)
        .header("X-CSRF-Token", crumb)
        .json(&body)
        .send()
        .await
        .expect("answered")
}

async fn add_to_cart(app: &TestApp, session: &str, crumb: &str) -> Response {
    call(app, reqwest::Method::POST, CART_ENTRIES, session, crumb, json!({ "sku": "VER-GUIDE-PDF", "quantity": 1 }))
        .await
}

async fn account_status(app: &TestApp, session: &str) -> u16 {
    app.get_with(ACCOUNT, &[("cookie", session)]).await.status().as_u16()
}

async fn assert_crumb_fail(res: Response, what: &str) -> String {
    assert_eq!(res.status(), 403, "{what}");
    let body: Value = res.json().await.expect("JSON");
    assert_eq!(body["crumbFail"], true, "{what}: {body}");
    body["crumb"].as_str().expect("a fresh crumb").to_string()
}

#[actix_rt::test]
async fn a_crumb_of_one_session_is_refused_with_another_sessions_cookie() {
    let app = spawn_app().await;
    let a = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let b = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let crumb_a = crumb_for(&app, &a).await;
    let crumb_b = crumb_for(&app, &b).await;

    let foreign = call(&app, reqwest::Method::POST, LOGOUT, &b, &crumb_a, json!(null)).await;
    assert_crumb_fail(foreign, "A's crumb with B's session").await;
    let still = app.get_with(HEADER_FOOTER, &[("cookie", &b)]).await.status();
    assert_eq!(still, 200, "B is still signed in");
    let edit = json!({ "header": "x", "footer": "y" });
    let foreign = call(&app, reqwest::Method::PUT, HEADER_FOOTER, &a, &crumb_b, edit.clone()).await;
    assert_crumb_fail(foreign, "B's crumb with A's session").await;

    let own = call(&app, reqwest::Method::PUT, HEADER_FOOTER, &a, &crumb_a, edit).await;
    assert_eq!(own.status(), 200, "A's own crumb passes");
    let anonymous = crumb_for(&app, "").await;
    assert_crumb_fail(add_to_cart(&app, &a, &anonymous).await, "an anonymous crumb with A's session").await;
    assert_crumb_fail(add_to_cart(&app, "", &crumb_a).await, "A's crumb without a session").await;
    assert_eq!(add_to_cart(&app, "", &anonymous).await.status(), 200, "anonymous visitors keep working");
}

#[actix_rt::test]
async fn the_refusal_hands_out_a_crumb_for_the_callers_own_session() {
    let app = spawn_app().await;
    let a = app.sign_in(true, &[], false).await;
    let fresh = assert_crumb_fail(add_to_cart(&app, &a, "not-a-crumb").await, "a junk crumb").await;
    assert_eq!(add_to_cart(&app, &a, &fresh).await.status(), 200, "the retry with the fresh crumb passes");
    let b = app.sign_in(true, &[], false).await;
    assert_crumb_fail(add_to_cart(&app, &b, &fresh).await, "that crumb is still A's only").await;
}

#[actix_rt::test]
async fn sign_in_replaces_the_crumb_and_sign_out_retires_it() {
    let app = spawn_app().await;
    add_account(&app, "ada@example.com", "correct horse battery", &[AccountRole::Member]).await;
    let before = crumb_for(&app, "").await;
    let body = json!({ "email": "ada@example.com", "password": "correct horse battery", "rememberMe": false });
    let res = call(&app, reqwest::Method::POST, SESSION, "", &before, body).await;
    assert_eq!(res.status(), 200);
    let session = format!("{SESSION_COOKIE}={}", cookie_value(&res, SESSION_COOKIE).expect("a session cookie"));
    let after = cookie_value(&res, "crumb").expect("sign-in sets a new crumb cookie");
    let answered: Value = res.json().await.expect("JSON");
    assert_eq!(answered["xsrfToken"], after.as_str(), "the new crumb is answered as xsrfToken");
    assert_ne!(before, after);

    assert_crumb_fail(add_to_cart(&app, &session, &before).await, "the pre-login crumb after sign-in").await;
    assert_eq!(add_to_cart(&app, &session, &after).await.status(), 200, "the crumb given at sign-in passes");
    assert!(page_crumb_kept(&app, &session, &after).await, "pages keep the session's crumb");

    let out = call(&app, reqwest::Method::POST, LOGOUT, &session, &after, json!(null)).await;
    assert_eq!(out.status(), 200);
    let anonymous = cookie_value(&out, "crumb").expect("sign-out sets a new crumb cookie");
    assert_ne!(anonymous, after);
    assert_eq!(account_status(&app, &session).await, 401, "the session has ended");

    assert_crumb_fail(add_to_cart(&app, "", &after).await, "the session's crumb after sign-out").await;
    assert_eq!(add_to_cart(&app, "", &anonymous).await.status(), 200, "the crumb given at sign-out passes");
    // Replaying the ended session's cookie with its crumb gets past the crumb check but not
    // past the session check.
    let replay =
        call(&app, reqwest::Method::PUT, HEADER_FOOTER, &session, &after, json!({ "header": "x", "footer": "y" }))
            .await;
    assert_eq!(replay.status(), 401, "a state change needing a session is refused after sign-out");
}

/// Whether a page visited with `session` and `crumb` leaves the crumb as it is.
async fn page_crumb_kept(app: &TestApp, session: &str, crumb: &str) -> bool {
    let res = app.get_with("/", &[("cookie", &format!("{session}; crumb={crumb}"))]).await;
    cookie_value(&res, "crumb").is_none()
}

#[actix_rt::test]
async fn instances_sharing_a_key_file_accept_each_others_crumbs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key_file = dir.path().join("crumb.key");
    std::fs::write(&key_file, "5f0c6b1e9a2d47c3b8e1f4a6d2c9e7b05f0c6b1e9a2d47c3\n").expect("write");
    let with_key = |s: &mut veranda_server::settings::Settings| s.security.crumb_key_file = Some(key_file.clone());
    let a = spawn_app_configured(&demo_site_dir(), with_key).await;
    let b = spawn_app_configured(&demo_site_dir(), with_key).await;
    let lone = spawn_app().await;

    let crumb = crumb_for(&a, "").await;
    assert_eq!(add_to_cart(&b, "", &crumb).await.status(), 200, "B accepts A's crumb");
    assert_crumb_fail(add_to_cart(&lone, "", &crumb).await, "an instance with its own key refuses it").await;
    let session = b.sign_in(false, &[], true).await;
    let bound = crumb_for(&b, &session).await;
    let other = a.sign_in(false, &[], true).await;
    assert_crumb_fail(add_to_cart(&a, &other, &bound).await, "a shared key still binds crumbs to sessions").await;
}
