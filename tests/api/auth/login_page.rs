//! The login page (`/account/login`): a form that signs in without JavaScript and sends
//! the member back to a path on this site, never to another origin.

use reqwest::Response;
use veranda_actors::accounts::{AccountRole, SESSION_COOKIE};
use veranda_server::routes::auth::{LOGIN_FAILED_MESSAGE, THROTTLED_MESSAGE};
use veranda_server::security::crumb::CRUMB_FAIL_MESSAGE;
use veranda_tests::add_account;
use veranda_tests::{pair, set_cookie, spawn_app, TestApp};

const LOGIN: &str = "/account/login";
const MEMBERS_ONLY: &str = "This page available only site members";
/// The header's logout control, hidden until the page's script can perform the logout.
const LOGOUT_CONTROL: &str =
    r#"<button type="button" class="logout-button" data-action="logout" hidden>Log out</button>"#;
const OPEN_REDIRECTS: [&str; 5] =
    ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)", "/\t/evil.example"];

/// The value of the hidden form field `name`, with `&quot;` and `&amp;` read back.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).map(|i| i + marker.len()).expect("the hidden field");
    html[start..].split('"').next().unwrap_or_default().replace("&quot;", "\"").replace("&amp;", "&")
}

/// The demo site with ann, a member, signed up.
async fn app_with_member() -> TestApp {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    app
}

/// Opens the login page at `path`: the crumb cookie and the page's HTML.
async fn open(app: &TestApp, path: &str) -> (String, String) {
    let res = app.get(path).await;
    assert_eq!(res.status(), 200);
    let cookie = pair(&set_cookie(&res, "crumb").expect("the page hands out a crumb"));
    (cookie, res.text().await.expect("body"))
}

async fn submit(app: &TestApp, cookie: &str, form: &[(&str, &str)]) -> Response {
    let req = app.client.post(format!("{}{LOGIN}", app.address)).header("cookie", cookie).form(form);
    req.send().await.expect("answered")
}

/// Signs in through the page with `password` and `redirect`.
async fn sign_in(app: &TestApp, password: &str, redirect: &str) -> Response {
    let (cookie, html) = open(app, LOGIN).await;
    let crumb = hidden(&html, "crumb");
    let form = [("email", "ann@example.com"), ("password", password), ("crumb", &crumb), ("redirect", redirect)];
    submit(app, &cookie, &form).await
}

#[actix_rt::test]
async fn the_login_page_is_a_form_with_the_crumb_and_the_return_path() {
    let app = spawn_app().await;
    let (cookie, html) = open(&app, "/account/login?returnUrl=%2Fmembers").await;
    assert_eq!(cookie, format!("crumb={}", hidden(&html, "crumb")));
    assert_eq!(hidden(&html, "redirect"), "/members");
    assert!(html.contains(r#"<form method="post" action="/account/login" class="login-form">"#));
    assert!(html.contains(r#"<label for="login-email">Email</label>"#));
    assert!(html.contains(r#"autocomplete="current-password""#));
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    let (_, html) = open(&app, "/account/login?redirect=%2Fblog%3Ftag%3Da").await;
    assert_eq!(hidden(&html, "redirect"), "/blog?tag=a");
}

#[actix_rt::test]
async fn the_page_never_offers_another_origin_as_the_return_path() {
    let app = spawn_app().await;
    for bad in OPEN_REDIRECTS {
        let url = reqwest::Url::parse_with_params(&format!("{}{LOGIN}", app.address), [("returnUrl", bad)]);
        let url = url.expect("a url");
        let res = app.client.get(url).send().await.expect("answered");
        assert_eq!(res.status(), 200);
        let html = res.text().await.expect("body");
        assert_eq!(hidden(&html, "redirect"), "/", "{bad:?}");
    }
}

#[actix_rt::test]
async fn signing_in_sets_the_session_and_returns_to_the_member_page() {
    let app = app_with_member().await;
    let res = sign_in(&app, "porch swing", "/members").await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/members");
    let session = set_cookie(&res, SESSION_COOKIE).expect("a session cookie");
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Lax"), "{session}");
    assert!(set_cookie(&res, "crumb").is_some(), "a fresh crumb");
    let page = app.client.get(format!("{}/members", app.address)).header("cookie", pair(&session)).send().await;
    let html = page.expect("answered").text().await.expect("body");
    assert!(!html.contains(MEMBERS_ONLY));
    assert!(html.contains(LOGOUT_CONTROL), "a signed-in member gets the logout control");
    assert!(!app.get("/members").await.text().await.expect("body").contains(LOGOUT_CONTROL), "a visitor does not");
}

#[actix_rt::test]
async fn open_redirects_are_refused_after_signing_in() {
    let app = app_with_member().await;
    for bad in OPEN_REDIRECTS {
        let res = sign_in(&app, "porch swing", bad).await;
        assert_eq!(res.status(), 303, "{bad:?}");
        assert_eq!(res.headers()["location"], "/", "{bad:?}");
    }
}

#[actix_rt::test]
async fn a_wrong_password_shows_the_form_again_with_the_reason() {
    let app = app_with_member().await;
    let res = sign_in(&app, "porch swung", "/members").await;
    assert_eq!(res.status(), 401);
    assert!(set_cookie(&res, SESSION_COOKIE).is_none());
    let html = res.text().await.expect("body");
    assert!(html.contains(LOGIN_FAILED_MESSAGE) && html.contains("role=\"alert\""));
    assert!(html.contains(r#"value="ann@example.com""#), "the address is kept");
    assert_eq!(hidden(&html, "redirect"), "/members", "the return path is kept");
}

#[actix_rt::test]
async fn a_post_without_its_crumb_is_refused() {
    let app = app_with_member().await;
    let (cookie, _) = open(&app, LOGIN).await;
    let res = submit(&app, &cookie, &[("email", "ann@example.com"), ("password", "porch swing")]).await;
    assert_eq!(res.status(), 403);
    assert!(set_cookie(&res, SESSION_COOKIE).is_none());
    assert!(res.text().await.expect("body").contains(CRUMB_FAIL_MESSAGE));
}

#[actix_rt::test]
async fn repeated_failures_are_throttled_with_retry_after() {
    let app = app_with_member().await;
    for _ in 0..5 {
        assert_eq!(sign_in(&app, "guess", "/").await.status(), 401);
    }
    let res = sign_in(&app, "porch swing", "/").await;
    assert_eq!(res.status(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert!(res.text().await.expect("body").contains(THROTTLED_MESSAGE));
}

#[actix_rt::test]
async fn other_methods_get_405() {
    let app = spawn_app().await;
    let res = app.client.put(format!("{}{LOGIN}", app.address)).send().await.expect("answered");
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "GET, HEAD, POST");
}
