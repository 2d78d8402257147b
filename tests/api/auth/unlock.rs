//! Password pages: the lock screen's form unlocks the page with its password, without
//! JavaScript, behind the crumb and a per-address throttle.

use reqwest::Response;
use veranda_server::routes::auth::{UNLOCK_COOKIE_PREFIX, UNLOCK_THROTTLED_MESSAGE, WRONG_PASSWORD_MESSAGE};
use veranda_server::security::crumb::CRUMB_FAIL_MESSAGE;
use veranda_tests::cookies::set_cookie_starting;
use veranda_tests::spec;
use veranda_tests::{page_context, pair, spawn_app, TestApp};

const LOCKED: &str = "This page is locked";
const PASSWORD: &str = "veranda";

/// The value of the hidden form field `name`.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).map(|i| i + marker.len()).expect("the hidden field");
    html[start..].split('"').next().unwrap_or_default().to_string()
}

/// Opens the lock screen as a browser would: its crumb cookie and the form's crumb.
async fn lock_screen(app: &TestApp) -> (String, String) {
    let res = app.get("/private").await;
    let cookie = pair(&set_cookie_starting(&res, "crumb=").expect("the lock screen hands out a crumb"));
    let html = res.text().await.expect("body");
    (cookie, hidden(&html, "crumb"))
}

async fn post_unlock(app: &TestApp, cookie: &str, form: &[(&str, &str)], headers: &[(&str, &str)]) -> Response {
    let mut req = app.client.post(format!("{}/private", app.address)).header("cookie", cookie).form(form);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("answered")
}

async fn unlock(app: &TestApp, password: &str) -> Response {
    let (cookie, crumb) = lock_screen(app).await;
    post_unlock(app, &cookie, &[("password", password), ("crumb", &crumb)], &[]).await
}

fn page_id(app: &TestApp) -> String {
    app.site.pages.iter().find(|p| p.url == "/private").map(|p| p.id.clone()).expect("the demo's password page")
}

#[actix_rt::test]
async fn the_lock_form_carries_the_same_crumb_as_its_cookie() {
    let app = spawn_app().await;
    let (cookie, crumb) = lock_screen(&app).await;
    assert_eq!(cookie, format!("crumb={crumb}"));
}

#[actix_rt::test]
async fn the_right_password_sets_a_grant_and_sends_back_to_the_open_page() {
    let app = spawn_app().await;
    let res = unlock(&app, PASSWORD).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/private");
    let grant = set_cookie_starting(&res, UNLOCK_COOKIE_PREFIX).expect("a grant cookie");
    assert!(grant.starts_with(&format!("{UNLOCK_COOKIE_PREFIX}{}=", page_id(&app))), "{grant}");
    assert!(grant.contains("HttpOnly") && grant.contains("SameSite=Lax") && grant.contains("Path=/"), "{grant}");
    assert!(!grant.contains("Secure"), "plain http: {grant}");

    let page = app.client.get(format!("{}/private", app.address)).header("cookie", pair(&grant)).send().await;
    let html = page.expect("answered").text().await.expect("body");
    assert!(!html.contains(LOCKED), "the page is open");
    assert_eq!(page_context(&html)["pageType"], spec::page_type("Page"));
    assert!(app.get("/private").await.text().await.expect("body").contains(LOCKED), "still locked for others");
}

#[actix_rt::test]
async fn behind_https_the_grant_is_secure() {
    // `X-Forwarded-Proto` is believed from trusted proxies only: this test's client is one.
    let app = veranda_tests::spawn_app_configured(&veranda_tests::demo_site_dir(), |s| {
        s.security.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")]
    })
    .await;
    let (cookie, crumb) = lock_screen(&app).await;
    let form = [("password", PASSWORD), ("crumb", crumb.as_str())];
    let res = post_unlock(&app, &cookie, &form, &[("x-forwarded-proto", "https")]).await;
    assert_eq!(res.status(), 303);
    assert!(set_cookie_starting(&res, UNLOCK_COOKIE_PREFIX).expect("a grant").contains("Secure"));
}

#[actix_rt::test]
async fn a_wrong_password_shows_the_lock_screen_again_with_the_reason() {
    let app = spawn_app().await;
    let res = unlock(&app, "verandah").await;
    assert_eq!(res.status(), 401);
    assert!(set_cookie_starting(&res, UNLOCK_COOKIE_PREFIX).is_none());
    let html = res.text().await.expect("body");
    assert!(html.contains(LOCKED) && html.contains(WRONG_PASSWORD_MESSAGE), "{html}");
    assert!(html.contains("role=\"alert\""));
    assert_eq!(page_context(&html)["pageType"], spec::page_type("LockScreen"));
    assert_eq!(unlock(&app, "").await.status(), 401, "an empty password is just wrong");
}

#[actix_rt::test]
async fn a_missing_foreign_or_tampered_crumb_is_refused_even_with_the_right_password() {
    let app = spawn_app().await;
    let (cookie, crumb) = lock_screen(&app).await;
    let (_, other) = lock_screen(&app).await;
    let tampered = format!("{}x", crumb);
    for (cookie, field) in [
        (cookie.as_str(), None),
        (cookie.as_str(), Some(other.as_str())),
        ("", Some(crumb.as_str())),
        (&format!("crumb={tampered}"), Some(tampered.as_str())),
    ] {
        let mut form = vec![("password", PASSWORD)];
        if let Some(field) = field {
            form.push(("crumb", field));
        }
        let res = post_unlock(&app, cookie, &form, &[]).await;
        assert_eq!(res.status(), 403, "cookie {cookie:?}, field {field:?}");
        assert!(set_cookie_starting(&res, UNLOCK_COOKIE_PREFIX).is_none());
        assert!(res.text().await.expect("body").contains(CRUMB_FAIL_MESSAGE));
    }
}

#[actix_rt::test]
async fn the_crumb_header_works_as_well_as_the_form_field() {
    let app = spawn_app().await;
    let (cookie, crumb) = lock_screen(&app).await;
    let res = post_unlock(&app, &cookie, &[("password", PASSWORD)], &[("x-csrf-token", &crumb)]).await;
    assert_eq!(res.status(), 303);
}

#[actix_rt::test]
async fn wrong_passwords_are_throttled_per_address_with_retry_after() {
    let app = spawn_app().await;
    for _ in 0..5 {
        assert_eq!(unlock(&app, "guess").await.status(), 401);
    }
    let res = unlock(&app, PASSWORD).await;
    assert_eq!(res.status(), 429, "even the right password waits");
    let wait: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!(wait > 0 && wait <= 15 * 60, "{wait}");
    assert!(set_cookie_starting(&res, UNLOCK_COOKIE_PREFIX).is_none());
    assert!(res.text().await.expect("body").contains(UNLOCK_THROTTLED_MESSAGE));
}

#[actix_rt::test]
async fn a_tampered_or_misnamed_grant_does_not_open_the_page() {
    let app = spawn_app().await;
    let grant = pair(&set_cookie_starting(&unlock(&app, PASSWORD).await, UNLOCK_COOKIE_PREFIX).expect("a grant"));
    let (name, value) = grant.split_once('=').expect("name=value");
    let (expires, signature) = value.split_once('.').expect("expiry.signature");
    let stretched = format!("{name}={}.{signature}", expires.parse::<i64>().expect("a number") + 86_400);
    let misnamed = format!("{UNLOCK_COOKIE_PREFIX}{}={value}", "b".repeat(24));
    for cookie in [stretched, misnamed, format!("{name}=garbage")] {
        let res = app.client.get(format!("{}/private", app.address)).header("cookie", &cookie).send().await;
        assert!(res.expect("answered").text().await.expect("body").contains(LOCKED), "{cookie}");
    }
}

#[actix_rt::test]
async fn a_body_that_is_not_a_form_is_refused_without_a_server_error() {
    let app = spawn_app().await;
    let (cookie, crumb) = lock_screen(&app).await;
    let res = app
        .client
        .post(format!("{}/private", app.address))
        .header("cookie", cookie)
        .header("x-csrf-token", crumb)
        .json(&serde_json::json!({ "password": PASSWORD }))
        .send()
        .await
        .expect("answered");
    assert!(res.status().is_client_error(), "{}", res.status());
}
