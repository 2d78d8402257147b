//! Signing in and out through the API: cookies, crumbs, throttling, refusals, and what
//! a signed-in member or owner sees next.

use reqwest::Response;
use serde_json::{json, Value};
use veranda_actors::accounts::{AccountRole, SESSION_COOKIE};
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::store::Tree;
use veranda_tests::add_account;
use veranda_tests::cookies::{set_cookie, value_of};
use veranda_tests::{crumb, crumb_for, spawn_app, TestApp};

const SESSION: &str = "/api/site-users/account/session";
const LOGOUT: &str = "/api/auth/Logout";
const ACCOUNT: &str = "/api/site-users/account";
const MEMBERS_ONLY: &str = "This page available only site members";

/// POSTs a sign-in with `crumb` as cookie and header, plus `extra` cookies and headers.
async fn login_with(app: &TestApp, crumb: &str, body: Value, extra_cookie: &str, headers: &[(&str, &str)]) -> Response {
    let mut req = app
        .client
        .post(format!("{}{SESSION}", app.address))
        .header("cookie", format!("crumb={crumb}{extra_cookie}"))
        .header("x-csrf-token", crumb)
        .json(&body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("answered")
}

async fn login(app: &TestApp, crumb: &str, email: &str, password: &str) -> Response {
    login_with(app, crumb, json!({ "email": email, "password": password, "rememberMe": false }), "", &[]).await
}

/// Signs in and returns the session cookie's value.
async fn session_of(app: &TestApp, email: &str, password: &str) -> String {
    let res = login(app, &crumb(app).await, email, password).await;
    assert_eq!(res.status(), 200);
    value_of(&set_cookie(&res, SESSION_COOKIE).expect("a session cookie"))
}

async fn send(app: &TestApp, method: reqwest::Method, path: &str, cookie: &str, csrf: Option<&str>) -> Response {
    let mut req = app.client.request(method, format!("{}{path}", app.address)).header("cookie", cookie);
    if let Some(token) = csrf {
        req = req.header("x-csrf-token", token);
    }
    req.send().await.expect("answered")
}

#[actix_rt::test]
async fn a_sign_in_sets_the_session_cookie_and_answers_the_crumb_as_xsrf_token() {
    let app = spawn_app().await;
    let ann = add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let res = login(&app, &crumb(&app).await, "Ann@Example.com", "porch swing").await;
    assert_eq!(res.status(), 200);
    let session = set_cookie(&res, SESSION_COOKIE).expect("the session cookie is set");
    let fresh_crumb = value_of(&set_cookie(&res, "crumb").expect("a fresh crumb cookie"));
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(attribute), "{attribute} missing: {session}");
    }
    assert!(!session.contains("Secure"), "not over http: {session}");
    assert!(!session.contains("Max-Age") && !session.contains("Expires"), "a browser-session cookie: {session}");
    let id = value_of(&session);
    assert!(id.len() >= 32, "at least 128 bits: {id}");
    let body: Value = res.json().await.expect("JSON");
    assert_eq!(body["xsrfToken"], fresh_crumb.as_str());
    assert_eq!(
        body["account"],
        json!({ "id": ann.id.as_str(), "email": "ann@example.com", "roles": [], "member": true, "owner": false })
    );
    assert!(app.store.get(Tree::Sessions, id.as_bytes()).expect("reads").is_some(), "the session is stored");

    let res = send(&app, reqwest::Method::GET, ACCOUNT, &format!("{SESSION_COOKIE}={id}"), None).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.expect("JSON")["email"], "ann@example.com");
}

#[actix_rt::test]
async fn remember_me_keeps_the_cookie_14_days_and_https_makes_it_secure() {
    // `X-Forwarded-Proto` is believed from trusted proxies only: this test's client is one.
    let app = veranda_tests::spawn_app_configured(&veranda_tests::demo_site_dir(), |s| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")]
    })
    .await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let body = json!({ "email": "ann@example.com", "password": "porch swing", "rememberMe": true });
    let res = login_with(&app, &crumb(&app).await, body, "", &[("x-forwarded-proto", "https")]).await;
    assert_eq!(res.status(), 200);
    let session = set_cookie(&res, SESSION_COOKIE).expect("the session cookie is set");
    assert!(session.contains("Max-Age=1209600"), "{session}");
    assert!(session.contains("Secure") && session.contains("HttpOnly"), "{session}");
}

#[actix_rt::test]
async fn a_wrong_password_and_an_unknown_account_get_the_same_answer() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let crumb = crumb(&app).await;
    let wrong = login(&app, &crumb, "ann@example.com", "porch swung").await;
    let unknown = login(&app, &crumb, "nobody@example.com", "porch swing").await;
    let malformed = login(&app, &crumb, "not an email", "porch swing").await;
    assert_eq!(wrong.status(), 401);
    assert!(set_cookie(&wrong, SESSION_COOKIE).is_none());
    let wrong_body = wrong.text().await.expect("body");
    for other in [unknown, malformed] {
        assert_eq!(other.status(), 401);
        assert_eq!(other.text().await.expect("body"), wrong_body);
    }
    assert!(wrong_body.contains("\"error\""), "{wrong_body}");
}

#[actix_rt::test]
async fn the_sixth_failed_sign_in_is_throttled_with_retry_after() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let crumb = crumb(&app).await;
    for _ in 0..5 {
        assert_eq!(login(&app, &crumb, "ann@example.com", "guess").await.status(), 401);
    }
    let res = login(&app, &crumb, "ann@example.com", "porch swing").await;
    assert_eq!(res.status(), 429, "refused even with the right password");
    let retry: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!((800..=900).contains(&retry), "about 15 minutes: {retry}");
    assert!(set_cookie(&res, SESSION_COOKIE).is_none());
    // The same address is throttled for other accounts too.
    assert_eq!(login(&app, &crumb, "bob@example.com", "guess").await.status(), 429);
}

#[actix_rt::test]
async fn missing_foreign_and_tampered_crumbs_are_refused_with_a_new_crumb() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let good = crumb(&app).await;
    let other = crumb(&app).await;
    let mut tampered = good.clone();
    let last = if tampered.ends_with('A') { 'B' } else { 'A' };
    tampered.pop();
    tampered.push(last);
    let body = json!({ "email": "ann@example.com", "password": "porch swing" });
    let url = format!("{}{SESSION}", app.address);
    let cases = [
        app.client.post(&url).json(&body),
        app.client.post(&url).header("cookie", format!("crumb={good}")).json(&body),
        app.client.post(&url).header("x-csrf-token", &good).json(&body),
        app.client.post(&url).header("cookie", format!("crumb={good}")).header("x-csrf-token", &other).json(&body),
        app.client
            .post(&url)
            .header("cookie", format!("crumb={tampered}"))
            .header("x-csrf-token", &tampered)
            .json(&body),
        app.client.delete(&url).header("cookie", format!("crumb={good}")),
        app.client.post(format!("{}{LOGOUT}", app.address)).header("x-csrf-token", &good),
    ];
    for (i, case) in cases.into_iter().enumerate() {
        let res = case.send().await.expect("answered");
        assert_eq!(res.status(), 403, "case {i}");
        assert!(set_cookie(&res, SESSION_COOKIE).is_none(), "case {i}");
        let fresh = value_of(&set_cookie(&res, "crumb").expect("a new crumb cookie"));
        let json: Value = res.json().await.expect("JSON");
        assert_eq!(json["crumbFail"], true, "case {i}");
        assert_eq!(json["crumb"], fresh.as_str(), "case {i}");
    }
}

#[actix_rt::test]
async fn signing_out_ends_the_session_and_a_replayed_cookie_is_a_visitor() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    for (method, path) in
        [(reqwest::Method::DELETE, format!("{SESSION}?cloneCart=true")), (reqwest::Method::POST, LOGOUT.to_string())]
    {
        let id = session_of(&app, "ann@example.com", "porch swing").await;
        let crumb = crumb_for(&app, &format!("{SESSION_COOKIE}={id}")).await;
        let cookie = format!("crumb={crumb}; {SESSION_COOKIE}={id}");
        let res = send(&app, method.clone(), &path, &cookie, Some(&crumb)).await;
        assert_eq!(res.status(), 200, "{method} {path}");
        let removal = set_cookie(&res, SESSION_COOKIE).expect("the session cookie is expired");
        assert!(removal.contains("Max-Age=0"), "{removal}");
        assert_eq!(res.json::<Value>().await.expect("JSON"), json!({ "loggedOut": true }));
        assert!(app.store.get(Tree::Sessions, id.as_bytes()).expect("reads").is_none(), "the session is deleted");
        let replay = send(&app, reqwest::Method::GET, ACCOUNT, &format!("{SESSION_COOKIE}={id}"), None).await;
        assert_eq!(replay.status(), 401);
        assert!(replay.json::<Value>().await.expect("JSON")["error"].is_string());
    }
}

#[actix_rt::test]
async fn a_bad_clone_cart_value_is_refused() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    let res = send(
        &app,
        reqwest::Method::DELETE,
        &format!("{SESSION}?cloneCart=perhaps"),
        &format!("crumb={crumb}"),
        Some(&crumb),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert!(res.json::<Value>().await.expect("JSON")["error"].is_string());
}

#[actix_rt::test]
async fn state_changing_routes_refuse_get_with_405() {
    let app = spawn_app().await;
    for (path, allow) in [(SESSION, "POST, DELETE"), (LOGOUT, "POST")] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 405, "{path}");
        assert_eq!(res.headers()["allow"], allow);
    }
    let res = send(&app, reqwest::Method::POST, ACCOUNT, "", None).await;
    assert_eq!(res.status(), 405);
}

#[actix_rt::test]
async fn malformed_and_oversized_bodies_are_refused_without_a_server_error() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    let post = |body: String| {
        app.client
            .post(format!("{}{SESSION}", app.address))
            .header("cookie", format!("crumb={crumb}"))
            .header("x-csrf-token", &crumb)
            .header("content-type", "application/json")
            .body(body)
    };
    for bad in ["{not json", "{\"email\": \"ann@example.com\"}", "[]", ""] {
        let res = post(bad.to_string()).send().await.expect("answered");
        assert_eq!(res.status(), 400, "{bad:?}");
        assert!(res.json::<Value>().await.expect("JSON")["error"].is_string(), "{bad:?}");
    }
    let huge = format!("{{\"email\": \"{}\", \"password\": \"x\"}}", "a".repeat(1024 * 1024));
    let res = post(huge).send().await.expect("answered");
    assert_eq!(res.status(), 413);
    assert!(res.json::<Value>().await.expect("JSON")["error"].is_string());
}

#[actix_rt::test]
async fn every_sign_in_gets_a_new_session_id_and_replaces_the_old_session() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let first = session_of(&app, "ann@example.com", "porch swing").await;
    let crumb = crumb_for(&app, &format!("{SESSION_COOKIE}={first}")).await;
    let body = json!({ "email": "ann@example.com", "password": "porch swing" });
    let res = login_with(&app, &crumb, body, &format!("; {SESSION_COOKIE}={first}"), &[]).await;
    assert_eq!(res.status(), 200);
    let second = value_of(&set_cookie(&res, SESSION_COOKIE).expect("a session cookie"));
    assert_ne!(first, second);
    assert!(app.store.get(Tree::Sessions, first.as_bytes()).expect("reads").is_none(), "the old session is deleted");
    assert!(app.store.get(Tree::Sessions, second.as_bytes()).expect("reads").is_some());
}

#[actix_rt::test]
async fn an_owner_who_signs_in_is_sent_to_the_configuration_area_on_the_next_page() {
    let app = spawn_app().await;
    add_account(&app, "owner@example.com", "front door", &[AccountRole::Owner]).await;
    add_account(&app, "viewer@example.com", "front door", &[AccountRole::Contributor(ContributorRole::Viewer)]).await;
    let owner = session_of(&app, "owner@example.com", "front door").await;
    let res = app.get_with("/about", &[("cookie", &format!("{SESSION_COOKIE}={owner}"))]).await;
    assert_eq!(res.status(), 302);
    assert_eq!(res.headers()["location"], "/config/?frameUrl=%2Fabout");
    let viewer = session_of(&app, "viewer@example.com", "front door").await;
    let res = app.get_with("/about", &[("cookie", &format!("{SESSION_COOKIE}={viewer}"))]).await;
    assert_eq!(res.status(), 200);
}

#[actix_rt::test]
async fn a_member_sees_member_pages_after_signing_in_and_not_after_signing_out() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    let before = app.get("/members").await.text().await.expect("body");
    assert!(before.contains(MEMBERS_ONLY));
    let id = session_of(&app, "ann@example.com", "porch swing").await;
    let signed_in = format!("{SESSION_COOKIE}={id}");
    let page = app.get_with("/members", &[("cookie", &signed_in)]).await.text().await.expect("body");
    assert!(page.contains("cardamom buns"), "the member content shows");
    assert!(!page.contains(MEMBERS_ONLY));
    let crumb = crumb_for(&app, &signed_in).await;
    let res = send(&app, reqwest::Method::POST, LOGOUT, &format!("crumb={crumb}; {signed_in}"), Some(&crumb)).await;
    assert_eq!(res.status(), 200);
    let after = app.get_with("/members", &[("cookie", &signed_in)]).await.text().await.expect("body");
    assert!(after.contains(MEMBERS_ONLY));
    assert!(!after.contains("cardamom buns"));
}
