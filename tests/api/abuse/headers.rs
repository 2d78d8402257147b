//! Headers of every answer: `nosniff` everywhere; pages and the dashboard may be framed
//! by the site itself only; over https (a `public_url`, or a trusted proxy's scheme)
//! every cookie is `Secure` and answers carry `Strict-Transport-Security`.

use reqwest::Response;
use veranda_actors::accounts::SESSION_COOKIE;
use veranda_actors::domain::enums::ContributorRole;
use veranda_server::settings::Settings;
use veranda_tests::cookies::{is_secure, set_cookies};
use veranda_tests::{add_member_and_sign_in, demo_site_dir, set_cookie, spawn_app, spawn_app_configured, TestApp};

fn header<'a>(res: &'a Response, name: &str) -> Option<&'a str> {
    res.headers().get(name).and_then(|v| v.to_str().ok())
}

fn frames_only_self(res: &Response) -> bool {
    let policy = header(res, "content-security-policy").unwrap_or_default();
    policy.split(';').any(|d| d.trim() == "frame-ancestors 'self'")
        && header(res, "x-frame-options") == Some("SAMEORIGIN")
}

#[actix_rt::test]
async fn published_pages_and_the_dashboard_may_be_framed_only_by_the_site() {
    let app = spawn_app().await;
    let page = app.get("/").await;
    assert_eq!(page.status(), 200);
    assert!(frames_only_self(&page), "{:?}", page.headers());
    assert_eq!(header(&page, "x-content-type-options"), Some("nosniff"));
    let missing = app.get("/no-such-page").await;
    assert_eq!(missing.status(), 404);
    assert!(frames_only_self(&missing), "{:?}", missing.headers());

    let owner = app.sign_in(true, &[ContributorRole::Admin], false).await;
    let dashboard = app.get_with("/config", &[("cookie", &owner)]).await;
    assert_eq!(dashboard.status(), 200);
    assert!(frames_only_self(&dashboard), "{:?}", dashboard.headers());
    assert_eq!(header(&dashboard, "x-content-type-options"), Some("nosniff"));
}

#[actix_rt::test]
async fn every_answer_carries_nosniff() {
    let app = spawn_app().await;
    for path in ["/api/site-users/account", "/robots.txt", "/sitemap.xml", "/api/site-users/account/session"] {
        let res = app.get(path).await;
        assert_eq!(header(&res, "x-content-type-options"), Some("nosniff"), "{path}: {}", res.status());
    }
}

#[actix_rt::test]
async fn over_plain_http_nothing_claims_https() {
    let app = spawn_app().await;
    let res = app.get("/").await;
    assert_eq!(header(&res, "strict-transport-security"), None);
    let crumb = set_cookie(&res, "crumb").expect("a crumb cookie");
    assert!(!is_secure(&crumb), "{crumb}");
}

/// Signs in ann through the API with `headers`; the answer.
async fn sign_in(app: &TestApp, headers: &[(&str, &str)]) -> Response {
    add_member_and_sign_in(app, "ann@example.com", "porch swing", headers).await
}

#[actix_rt::test]
async fn with_an_https_public_url_every_cookie_is_secure_and_hsts_is_sent() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| {
        s.security.public_url = Some("https://shop.example.com".to_string());
    })
    .await;
    let page = app.get("/").await;
    assert_eq!(header(&page, "strict-transport-security"), Some("max-age=31536000"));
    let cookies: Vec<&str> = set_cookies(&page).collect();
    assert!(!cookies.is_empty(), "the home page sets its cookies");
    for cookie in cookies {
        assert!(is_secure(cookie), "{cookie}");
    }
    let res = sign_in(&app, &[]).await;
    assert_eq!(res.status(), 200);
    let cookies: Vec<&str> = set_cookies(&res).collect();
    assert_eq!(cookies.len(), 3, "the session, the crumb and the device: {cookies:?}");
    for cookie in cookies {
        assert!(is_secure(cookie), "{cookie}");
    }
    assert!(set_cookie(&res, SESSION_COOKIE).is_some_and(|c| c.contains("HttpOnly")));
}

#[actix_rt::test]
async fn behind_a_trusted_https_proxy_the_crumb_cookie_is_secure_too() {
    let app = spawn_app_configured(&demo_site_dir(), |s: &mut Settings| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")];
    })
    .await;
    let res = app.get_with("/", &[("x-forwarded-proto", "https")]).await;
    assert_eq!(header(&res, "strict-transport-security"), Some("max-age=31536000"));
    let crumb = set_cookie(&res, "crumb").expect("a crumb cookie");
    assert!(is_secure(&crumb), "{crumb}");
    let plain = app.get("/").await;
    assert_eq!(header(&plain, "strict-transport-security"), None, "no forwarded scheme: plain http");
}
