//! Sign-in throttling that nobody can turn into a lockout: failures count per account
//! and per client, a correct password from a client without recent failures always
//! works, a device cookie from an earlier sign-in works even from an attacked address,
//! and a full table forgets its least recently used entries instead of refusing
//! everyone. The same holds for password pages.

use reqwest::Response;
use serde_json::{json, Value};
use veranda_actors::accounts::{AccountRole, SESSION_COOKIE};
use veranda_server::settings::Settings;
use veranda_tests::add_account;
use veranda_tests::cookies::{pair, set_cookie, set_cookie_starting};
use veranda_tests::{crumb, demo_site_dir, spawn_app_configured, TestApp};

const SESSION: &str = "/api/site-users/account/session";
const OWNER: &str = "owner@example.com";
const PASSWORD: &str = "porch swing";
const ATTACKER: &str = "198.51.100.66";
const OWNER_HOME: &str = "203.0.113.5";
/// The spec's refusal text.
const TOO_MANY: &str = "Too many failed sign-in attempts. Please try again later.";
const DEVICE_COOKIE: &str = "veranda_device";

/// A server behind a trusted proxy on 127.0.0.1 keeping at most `entries` throttle keys.
async fn app(entries: usize) -> TestApp {
    let app = spawn_app_configured(&demo_site_dir(), move |s: &mut Settings| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")];
        s.security.throttle_max_entries = entries;
    })
    .await;
    add_account(&app, OWNER, PASSWORD, &[AccountRole::Owner]).await;
    app
}

/// Signs in as `email` from `client` (the proxy's `X-Forwarded-For`), with `cookies`.
async fn sign_in(app: &TestApp, client: &str, email: &str, password: &str, cookies: &str) -> Response {
    let crumb = crumb(app).await;
    app.client
        .post(format!("{}{SESSION}", app.address))
        .header("cookie", format!("crumb={crumb}{cookies}"))
        .header("x-csrf-token", &crumb)
        .header("x-forwarded-for", client)
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .expect("answered")
}

/// Eight wrong passwords for the owner's account from the attacker's address; the statuses.
async fn attack(app: &TestApp) -> Vec<u16> {
    let mut statuses = Vec::new();
    for n in 0..8 {
        statuses.push(sign_in(app, ATTACKER, OWNER, &format!("guess {n}"), "").await.status().as_u16());
    }
    statuses
}

#[actix_rt::test]
async fn eight_wrong_passwords_from_another_client_do_not_lock_the_owner_out() {
    let app = app(100_000).await;
    let statuses = attack(&app).await;
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429, 429, 429], "the attacker is throttled");
    let refused = sign_in(&app, ATTACKER, OWNER, PASSWORD, "").await;
    assert_eq!(refused.status(), 429, "the attacked address is refused even with the password");
    assert!(refused.headers().get("retry-after").is_some());
    let body: Value = refused.json().await.expect("JSON");
    assert_eq!(body, json!({ "error": TOO_MANY }));

    let owner = sign_in(&app, OWNER_HOME, OWNER, PASSWORD, "").await;
    assert_eq!(owner.status(), 200, "the owner signs in from their own address");
    assert!(set_cookie(&owner, SESSION_COOKIE).is_some());
}

#[actix_rt::test]
async fn the_device_cookie_of_an_earlier_sign_in_works_even_from_the_attacked_address() {
    let app = app(100_000).await;
    let first = sign_in(&app, OWNER_HOME, OWNER, PASSWORD, "").await;
    assert_eq!(first.status(), 200);
    let device = set_cookie(&first, DEVICE_COOKIE).expect("a sign-in sets the device cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(device.contains(attribute), "{attribute}: {device}");
    }
    attack(&app).await;
    let cookie = format!("; {}", pair(&device));
    let res = sign_in(&app, ATTACKER, OWNER, PASSWORD, &cookie).await;
    assert_eq!(res.status(), 200, "the device is trusted wherever it is");
    // Without it, or with it tampered, the address stays refused.
    assert_eq!(sign_in(&app, ATTACKER, OWNER, PASSWORD, "").await.status(), 429);
    let tampered = format!("; {}x", pair(&device));
    assert_eq!(sign_in(&app, ATTACKER, OWNER, PASSWORD, &tampered).await.status(), 429);
    // A device cookie speaks for its own account only.
    let other = sign_in(&app, ATTACKER, "someone@example.com", "guess", &cookie).await;
    assert_eq!(other.status(), 429, "for another account the attacked address is refused");
}

#[actix_rt::test]
async fn a_full_table_does_not_refuse_a_fresh_client() {
    let app = app(10).await;
    for n in 0..30 {
        let res = sign_in(&app, &format!("198.51.100.{n}"), &format!("user{n}@example.com"), "guess", "").await;
        assert_eq!(res.status(), 401, "failure {n} is counted, never refused");
    }
    let res = sign_in(&app, OWNER_HOME, OWNER, PASSWORD, "").await;
    assert_eq!(res.status(), 200, "a fresh client signs in while the table is full");

    let metrics = app.client.get(format!("{}/metrics", app.ops_address)).send().await.expect("answered");
    let text = metrics.text().await.expect("text");
    for table in ["sign_in", "unlock"] {
        let line = format!("veranda_auth_throttle_entries{{table=\"{table}\"}}");
        assert!(text.contains(&line), "{line} is exported: {text}");
    }
}

/// Posts `password` to the demo's password page from `client`; the answer.
async fn unlock(app: &TestApp, client: &str, password: &str) -> Response {
    let res = app.get("/private").await;
    let cookie = pair(&set_cookie_starting(&res, "crumb=").expect("a crumb"));
    let crumb = cookie.trim_start_matches("crumb=").to_string();
    app.client
        .post(format!("{}/private", app.address))
        .header("cookie", cookie)
        .header("x-forwarded-for", client)
        .form(&[("password", password), ("crumb", crumb.as_str())])
        .send()
        .await
        .expect("answered")
}

#[actix_rt::test]
async fn wrong_page_passwords_from_one_client_do_not_lock_the_page_for_others() {
    let app = app(100_000).await;
    let mut statuses = Vec::new();
    for n in 0..8 {
        statuses.push(unlock(&app, ATTACKER, &format!("guess {n}")).await.status().as_u16());
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
    assert_eq!(unlock(&app, ATTACKER, "veranda").await.status(), 429);
    assert_eq!(unlock(&app, OWNER_HOME, "veranda").await.status(), 303, "another visitor opens the page");
}
