//! Accounts: how passwords are stored, the session cookie, a new session id at every
//! sign-in, a signed-out cookie that opens nothing, and throttling per account however
//! many addresses the guesses come from.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use serde_json::{json, Value};
use veranda_actors::accounts::{AccountRole, SESSION_COOKIE};
use veranda_actors::store::Tree;
use veranda_tests::add_account;
use veranda_tests::{spawn_app, TestApp};

use veranda_tests::{cookie_value, crumb_for, set_cookie};

const SESSION: &str = "/api/site-users/account/session";
const ACCOUNT: &str = "/api/site-users/account";

async fn add_member(app: &TestApp, email: &str) {
    add_account(app, email, "porch swing", &[AccountRole::Member]).await;
}

/// Signs in through `client` with `cookie` added to the crumb cookie.
async fn sign_in(
    app: &TestApp,
    client: &reqwest::Client,
    email: &str,
    password: &str,
    cookie: &str,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let crumb = crumb_for(app, cookie.trim_start_matches("; ")).await;
    let mut req = client
        .post(format!("{}{SESSION}", app.address))
        .header("cookie", format!("crumb={crumb}{cookie}"))
        .header("x-csrf-token", &crumb)
        .json(&json!({ "email": email, "password": password, "rememberMe": false }));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("answered")
}

/// The argon2 parameters of a PHC string: `(variant, version, m, t, p, salt, hash)`.
fn phc_parts(phc: &str) -> (String, String, u32, u32, u32, String, String) {
    let parts: Vec<&str> = phc.split('$').collect();
    assert_eq!(parts.len(), 6, "a PHC string: {phc}");
    let param = |name: &str| -> u32 {
        parts[3]
            .split(',')
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} in {phc}"))
    };
    (
        parts[1].to_string(),
        parts[2].to_string(),
        param("m"),
        param("t"),
        param("p"),
        parts[4].to_string(),
        parts[5].to_string(),
    )
}

#[actix_rt::test]
async fn stored_passwords_are_argon2id_with_owasp_parameters_and_a_unique_salt() {
    let app = spawn_app().await;
    add_member(&app, "ann@example.com").await;
    add_member(&app, "bob@example.com").await;
    let mut salts = Vec::new();
    for email in ["ann@example.com", "bob@example.com"] {
        let bytes = app.store.get(Tree::Accounts, email.as_bytes()).expect("reads").expect("the account is stored");
        let text = String::from_utf8(bytes).expect("UTF-8");
        assert!(!text.contains("porch swing"), "the password itself is never stored");
        let record: Value = serde_json::from_str(&text).expect("JSON");
        let phc = record
            .as_object()
            .expect("an object")
            .values()
            .filter_map(Value::as_str)
            .find(|v| v.starts_with('$'))
            .expect("a PHC hash string")
            .to_string();
        let (variant, version, m, t, p, salt, hash) = phc_parts(&phc);
        assert_eq!(variant, "argon2id");
        assert_eq!(version, "v=19");
        // OWASP: at least 19 MiB, 2 passes, 1 lane.
        assert!(m >= 19_456 && t >= 2 && p >= 1, "m={m} t={t} p={p}");
        assert!(salt.len() >= 22, "a salt of at least 16 bytes: {salt}");
        assert!(hash.len() >= 43, "a hash of at least 32 bytes: {hash}");
        salts.push(salt);
    }
    assert_ne!(salts[0], salts[1], "every account has its own salt");
}

#[actix_rt::test]
async fn session_and_crumb_cookies_carry_their_attributes() {
    // `X-Forwarded-Proto` is believed from trusted proxies only: this test's client is one.
    let app = veranda_tests::spawn_app_configured(&veranda_tests::demo_site_dir(), |s| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")]
    })
    .await;
    add_member(&app, "ann@example.com").await;
    let res = sign_in(&app, &app.client, "ann@example.com", "porch swing", "", &[]).await;
    assert_eq!(res.status(), 200);
    let session = set_cookie(&res, SESSION_COOKIE).expect("a session cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(attribute), "{attribute}: {session}");
    }
    assert!(!session.contains("Secure"), "plain http: {session}");
    let crumb = set_cookie(&res, "crumb").expect("a fresh crumb cookie");
    assert!(crumb.contains("SameSite=Lax") && crumb.contains("Path=/"), "{crumb}");

    let https = [("x-forwarded-proto", "https")];
    let res = sign_in(&app, &app.client, "ann@example.com", "porch swing", "", &https).await;
    let session = set_cookie(&res, SESSION_COOKIE).expect("a session cookie");
    assert!(session.contains("Secure") && session.contains("HttpOnly"), "behind https: {session}");
}

#[actix_rt::test]
async fn a_planted_session_id_is_never_kept_at_sign_in() {
    let app = spawn_app().await;
    add_member(&app, "ann@example.com").await;
    // An id the attacker made up, and one of the attacker's own real sessions.
    let planted_unknown = format!("{SESSION_COOKIE}=attacker-chosen-session-id-0123456789abcdef");
    let planted_real = app.sign_in(false, &[], true).await;
    for planted in [planted_unknown, planted_real] {
        let planted_id = planted.split_once('=').map(|(_, v)| v.to_string()).expect("a pair");
        let res = sign_in(&app, &app.client, "ann@example.com", "porch swing", &format!("; {planted}"), &[]).await;
        assert_eq!(res.status(), 200);
        let fresh = cookie_value(&res, SESSION_COOKIE).expect("a new session cookie");
        assert_ne!(fresh, planted_id, "the id the request carried is not reused");
        let res = app.get_with(ACCOUNT, &[("cookie", &planted)]).await;
        assert_eq!(res.status(), 401, "the planted id does not become Ann's session");
        let res = app.get_with(ACCOUNT, &[("cookie", &format!("{SESSION_COOKIE}={fresh}"))]).await;
        assert_eq!(res.status(), 200);
    }
}

#[actix_rt::test]
async fn a_cookie_replayed_after_signing_out_is_refused() {
    let app = spawn_app().await;
    add_member(&app, "ann@example.com").await;
    let res = sign_in(&app, &app.client, "ann@example.com", "porch swing", "", &[]).await;
    let session = format!("{SESSION_COOKIE}={}", cookie_value(&res, SESSION_COOKIE).expect("a session"));
    assert_eq!(app.get_with(ACCOUNT, &[("cookie", &session)]).await.status(), 200);
    for (method, path) in [(reqwest::Method::POST, "/api/auth/Logout"), (reqwest::Method::DELETE, SESSION)] {
        let crumb = crumb_for(&app, &session).await;
        let res = app
            .client
            .request(method, format!("{}{path}", app.address))
            .header("cookie", format!("crumb={crumb}; {session}"))
            .header("x-csrf-token", &crumb)
            .send()
            .await
            .expect("answered");
        assert_eq!(res.status(), 200, "{path}");
        let removal = set_cookie(&res, SESSION_COOKIE).expect("the session cookie is removed");
        assert!(removal.contains("Max-Age=0") || removal.contains("Expires=Thu, 01 Jan 1970"), "{removal}");
        assert_eq!(app.get_with(ACCOUNT, &[("cookie", &session)]).await.status(), 401, "replayed after {path}");
    }
    let id = session.split_once('=').map(|(_, v)| v).expect("a pair");
    assert!(app.store.get(Tree::Sessions, id.as_bytes()).expect("reads").is_none(), "the session is gone");
}

/// A client whose connections come from `127.0.0.<n>`.
fn client_from(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client builds")
}

#[actix_rt::test]
async fn failed_sign_ins_for_one_account_are_throttled_across_addresses() {
    let app = spawn_app().await;
    add_member(&app, "ann@example.com").await;
    add_member(&app, "bob@example.com").await;
    // Five wrong guesses, each from its own address: no address reaches its own limit.
    for n in 2..7 {
        let res = sign_in(&app, &client_from(n), "ann@example.com", "wrong guess", "", &[]).await;
        assert_eq!(res.status(), 401, "guess from 127.0.0.{n}");
    }
    // The account is now throttled for every address that has guessed, even with the
    // right password.
    for n in [2, 6] {
        let res = sign_in(&app, &client_from(n), "Ann@Example.com", "porch swing", "", &[]).await;
        assert_eq!(res.status(), 429, "from 127.0.0.{n}");
        assert!(res.headers().get("retry-after").is_some(), "Retry-After is set");
        assert!(set_cookie(&res, SESSION_COOKIE).is_none(), "no session while throttled");
    }
    // A new address gets one guess, no more.
    let res = sign_in(&app, &client_from(7), "ann@example.com", "wrong guess", "", &[]).await;
    assert_eq!(res.status(), 401);
    let res = sign_in(&app, &client_from(7), "ann@example.com", "porch swing", "", &[]).await;
    assert_eq!(res.status(), 429, "the new address has guessed now");
    // A client without failures of its own is never locked out with the right password.
    let res = sign_in(&app, &client_from(8), "Ann@Example.com", "porch swing", "", &[]).await;
    assert_eq!(res.status(), 200, "the account holder is not locked out");
    // Another account from one of the guessing addresses is not affected.
    let res = sign_in(&app, &client_from(2), "bob@example.com", "porch swing", "", &[]).await;
    assert_eq!(res.status(), 200);
}
