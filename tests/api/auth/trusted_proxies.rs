//! Forwarded headers (`X-Forwarded-Proto`, `X-Forwarded-For`, `Forwarded`) are believed
//! only from a peer listed in `[security] trusted_proxies`: from anyone else they change
//! neither the `Secure` flag of cookies nor the address per-client limits count against.

use veranda_actors::accounts::SESSION_COOKIE;
use veranda_tests::cookies::is_secure;
use veranda_tests::{add_member_and_sign_in, crumb, form_key_statuses, set_cookie, spawn_app_behind, TestApp};

async fn app(trusted: &[&str], keys_per_minute: usize) -> TestApp {
    spawn_app_behind(trusted, keys_per_minute, |_| {}).await
}

/// Signs in through the API with `headers` added; the session cookie's `Set-Cookie`.
async fn sign_in_with(app: &TestApp, headers: &[(&str, &str)]) -> String {
    let res = add_member_and_sign_in(app, "ada@example.com", "correct horse battery", headers).await;
    assert_eq!(res.status(), 200);
    set_cookie(&res, SESSION_COOKIE).expect("a session cookie")
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

/// Asks for a form key as each of `forwarded_for`, in order; the statuses.
async fn keys_as(app: &TestApp, crumb: &str, forwarded_for: &[&str]) -> Vec<u16> {
    form_key_statuses(app, crumb, "x-forwarded-for", forwarded_for, &[]).await
}

#[actix_rt::test]
async fn an_untrusted_peer_cannot_dodge_per_address_limits_with_forwarded_for() {
    let app = app(&[], 2).await;
    let crumb = crumb(&app).await;
    let statuses = keys_as(&app, &crumb, &["198.51.100.1", "198.51.100.2", "198.51.100.3"]).await;
    assert_eq!(statuses, [200, 200, 429], "every request counts against the peer's own address");
}

#[actix_rt::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit() {
    let app = app(&["127.0.0.1"], 2).await;
    let crumb = crumb(&app).await;
    let distinct = keys_as(&app, &crumb, &["198.51.100.1", "198.51.100.2", "198.51.100.3"]).await;
    assert_eq!(distinct, [200, 200, 200], "three clients, one request each");
    let same = keys_as(&app, &crumb, &["203.0.113.7", "203.0.113.7", "203.0.113.7"]).await;
    assert_eq!(same, [200, 200, 429], "one client, three requests");
    // A client cannot prepend its own entries: the hop the proxy appended is the client.
    let spoofed = keys_as(&app, &crumb, &["1.1.1.1, 203.0.113.7", "2.2.2.2, 203.0.113.7"]).await;
    assert_eq!(spoofed, [429, 429], "entries left of the client's are ignored");
}
