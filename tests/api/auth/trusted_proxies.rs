//! Forwarded headers (`X-Forwarded-Proto`, `X-Forwarded-For`, `Forwarded`) are believed
//! only from a peer listed in `[security] trusted_proxies`: from anyone else they change
//! neither the `Secure` flag of cookies nor the address per-client limits count against.

use serde_json::{json, Value};
use veranda_actors::accounts::{create_account, Account, AccountRole, Email, Password, SESSION_COOKIE};
use veranda_server::settings::Settings;
use veranda_tests::{crumb, demo_site_dir, set_cookie, spawn_app_configured, TestApp};

const KEY_PATH: &str = "/api/form/FormSubmissionKey";

async fn app(trusted: &[&str], keys_per_minute: usize) -> TestApp {
    let trusted: Vec<_> = trusted.iter().map(|t| t.parse().expect("a valid block")).collect();
    spawn_app_configured(&demo_site_dir(), move |s: &mut Settings| {
        s.security.trusted_proxies = trusted;
        s.forms.keys_per_minute = keys_per_minute;
    })
    .await
}

/// Signs in through the API with `headers` added; the session cookie's `Set-Cookie`.
async fn sign_in_with(app: &TestApp, headers: &[(&str, &str)]) -> String {
    let email = Email::parse("ada@example.com").expect("a valid email");
    let password = Password::parse("correct horse battery").expect("a valid password");
    let account = Account::new(email, &password, &[AccountRole::Member], 1_700_000_000).expect("hashes");
    create_account(app.store.as_ref(), &account).await.expect("account stored");
    let crumb = crumb(app).await;
    let mut req = app
        .client
        .post(format!("{}/api/site-users/account/session", app.address))
        .header("cookie", format!("crumb={crumb}"))
        .header("x-csrf-token", &crumb)
        .json(&json!({ "email": "ada@example.com", "password": "correct horse battery" }));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.expect("answered");
    assert_eq!(res.status(), 200);
    set_cookie(&res, SESSION_COOKIE).expect("a session cookie")
}

fn is_secure(set_cookie: &str) -> bool {
    set_cookie.split(';').any(|attribute| attribute.trim().eq_ignore_ascii_case("secure"))
}

#[actix_rt::test]
async fn a_forwarded_https_from_an_untrusted_peer_does_not_make_cookies_secure() {
    let app = app(&[], 60).await;
    let header = sign_in_with(&app, &[("x-forwarded-proto", "https"), ("forwarded", "proto=https")]).await;
    assert!(!is_secure(&header), "{header}");
    let app = self::app(&["10.0.0.0/8"], 60).await;
    let header = sign_in_with(&app, &[("x-forwarded-proto", "https")]).await;
    assert!(!is_secure(&header), "127.0.0.1 is not in 10.0.0.0/8: {header}");
}

#[actix_rt::test]
async fn a_forwarded_https_from_a_trusted_proxy_makes_cookies_secure() {
    let app = app(&["127.0.0.1"], 60).await;
    let header = sign_in_with(&app, &[("x-forwarded-proto", "https")]).await;
    assert!(is_secure(&header), "{header}");
    let app = self::app(&["127.0.0.0/8"], 60).await;
    let plain = sign_in_with(&app, &[]).await;
    assert!(!is_secure(&plain), "no forwarded scheme: the listener's own (http): {plain}");
}

/// Asks for a form key as `forwarded_for`; the status.
async fn key_as(app: &TestApp, crumb: &str, forwarded_for: &str) -> u16 {
    app.client
        .post(format!("{}{KEY_PATH}", app.address))
        .header("cookie", format!("crumb={crumb}"))
        .header("X-CSRF-Token", crumb)
        .header("x-forwarded-for", forwarded_for)
        .json(&Value::Null)
        .send()
        .await
        .expect("answered")
        .status()
        .as_u16()
}

#[actix_rt::test]
async fn an_untrusted_peer_cannot_dodge_per_address_limits_with_forwarded_for() {
    let app = app(&[], 2).await;
    let crumb = crumb(&app).await;
    let statuses = [
        key_as(&app, &crumb, "198.51.100.1").await,
        key_as(&app, &crumb, "198.51.100.2").await,
        key_as(&app, &crumb, "198.51.100.3").await,
    ];
    assert_eq!(statuses, [200, 200, 429], "every request counts against the peer's own address");
}

#[actix_rt::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit() {
    let app = app(&["127.0.0.1"], 2).await;
    let crumb = crumb(&app).await;
    let distinct = [
        key_as(&app, &crumb, "198.51.100.1").await,
        key_as(&app, &crumb, "198.51.100.2").await,
        key_as(&app, &crumb, "198.51.100.3").await,
    ];
    assert_eq!(distinct, [200, 200, 200], "three clients, one request each");
    let same = [
        key_as(&app, &crumb, "203.0.113.7").await,
        key_as(&app, &crumb, "203.0.113.7").await,
        key_as(&app, &crumb, "203.0.113.7").await,
    ];
    assert_eq!(same, [200, 200, 429], "one client, three requests");
    // A client cannot prepend its own entries: the hop the proxy appended is the client.
    let spoofed =
        [key_as(&app, &crumb, "1.1.1.1, 203.0.113.7").await, key_as(&app, &crumb, "2.2.2.2, 203.0.113.7").await];
    assert_eq!(spoofed, [429, 429], "entries left of the client's are ignored");
}
