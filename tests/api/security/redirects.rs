//! Open redirects: `frameUrl`, the owner redirect, the login return path, form success
//! redirects and signing out never send anyone to another origin, whatever the trick.

use serde_json::Value;
use veranda_actors::accounts::AccountRole;
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::site::Site;
use veranda_tests::add_account;
use veranda_tests::{demo_site_with_redirect, spawn_app, spawn_app_with_site, TestApp};

use crate::forms::submit::{contact_values, full_payload, post};
use veranda_tests::crumb;

/// Classic open-redirect payloads: protocol-relative, backslashes, schemes, encodings,
/// and whitespace or control characters browsers strip.
const PAYLOADS: &[&str] = &[
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil",
    "\\/evil.example",
    "/\\/evil.example",
    "https:evil.example",
    "https://evil.example",
    "http://evil.example/",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "%2F%2Fevil.example",
    "%2f%5cevil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\u{0}/evil.example",
    "\u{2215}\u{2215}evil.example",
    "evil.example",
];

/// Paths that start with one `/` but lead elsewhere once a browser strips or reads their
/// backslashes and control characters: refused like other origins.
const PATH_LIKE: &[&str] =
    &["/\\evil.example", "/\\/evil.example", "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example"];

#[actix_rt::test]
async fn frame_url_is_only_ever_a_path_on_this_site() {
    let app = spawn_app().await;
    for payload in PAYLOADS {
        let url = reqwest::Url::parse_with_params(&format!("{}/config/", app.address), [("frameUrl", payload)]);
        let res = app.client.get(url.expect("a url")).send().await.expect("answered");
        assert_eq!(res.status(), 200, "{payload:?}");
        let html = res.text().await.expect("body");
        assert!(html.contains("data-frame-url=\"/\""), "{payload:?} fell back to the home page");
        assert!(!html.to_lowercase().contains("evil"), "{payload:?} is not echoed into the page");
    }
}

#[actix_rt::test]
async fn the_owner_redirect_stays_on_the_configuration_area() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[ContributorRole::Admin], false).await;
    for path in ["//evil.example", "/\\evil.example", "/%2F%2Fevil.example", "/a?next=//evil.example"] {
        let res = app.get_with(path, &[("cookie", &owner)]).await;
        let Some(location) = res.headers().get("location").and_then(|v| v.to_str().ok()).map(str::to_string) else {
            continue;
        };
        assert!(location.starts_with("/config/?frameUrl=%2F"), "{path:?} → {location}");
        let html = app.get_with(&location, &[("cookie", &owner)]).await.text().await.expect("body");
        let frame = html.split("data-frame-url=\"").nth(1).and_then(|s| s.split('"').next()).expect("a frame url");
        assert!(frame.starts_with('/') && !frame.starts_with("//") && !frame.contains('\\'), "{path:?} → {frame}");
    }
}

#[actix_rt::test]
async fn the_login_return_path_never_leaves_the_site() {
    let app = spawn_app().await;
    add_account(&app, "ann@example.com", "porch swing", &[AccountRole::Member]).await;
    for payload in PAYLOADS {
        for param in ["redirect", "returnUrl"] {
            let url = reqwest::Url::parse_with_params(&format!("{}/account/login", app.address), [(param, payload)]);
            let html = app.client.get(url.expect("a url")).send().await.expect("answered").text().await.expect("body");
            assert!(
                html.contains("name=\"redirect\" value=\"/\""),
                "{param}={payload:?} is offered as the return path"
            );
        }
        let crumb = crumb(&app).await;
        let form = [
            ("email", "ann@example.com"),
            ("password", "porch swing"),
            ("crumb", crumb.as_str()),
            ("redirect", payload),
        ];
        let res = app.post_form("/account/login", &crumb, &form).await;
        assert_eq!(res.status(), 303, "{payload:?}");
        assert_eq!(res.headers()["location"], "/", "{payload:?}");
    }
}

#[actix_rt::test]
async fn signing_out_answers_json_and_sends_nowhere() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    for payload in PAYLOADS.iter().take(6) {
        let url = reqwest::Url::parse_with_params(
            &format!("{}/api/auth/Logout", app.address),
            [("redirect", *payload), ("returnUrl", *payload), ("next", *payload)],
        );
        let res = TestApp::with_crumb(app.client.post(url.expect("a url")), &crumb).send().await.expect("answered");
        assert_eq!(res.status(), 200, "{payload:?}");
        assert!(res.headers().get("location").is_none(), "{payload:?}");
        assert_eq!(res.json::<Value>().await.expect("JSON")["loggedOut"], true);
    }
}

/// Lists `origins` in `[forms] redirectAllowList` of `site.toml`.
fn allow(origins: &[&str]) -> impl FnOnce(&mut toml::Table) {
    let list: Vec<toml::Value> = origins.iter().map(|o| toml::Value::String(o.to_string())).collect();
    move |site| {
        let mut forms = toml::Table::new();
        forms.insert("redirectAllowList".into(), toml::Value::Array(list));
        site.insert("forms".into(), toml::Value::Table(forms));
    }
}

#[actix_rt::test]
async fn the_site_check_refuses_success_redirects_to_other_origins() {
    for payload in PAYLOADS.iter().chain(PATH_LIKE) {
        let dir = demo_site_with_redirect(payload, allow(&["https://shop.example.com"]));
        let problems = Site::load(dir.path()).expect_err(&format!("{payload:?} must not load"));
        assert!(problems.to_string().contains("successRedirect"), "{payload:?}: {problems}");
    }
}

#[actix_rt::test]
async fn allow_list_entries_that_are_not_origins_are_refused_with_their_field() {
    let dir = demo_site_with_redirect("/about", allow(&["https://shop.example.com", "https://x.example/thanks"]));
    let problems = Site::load(dir.path()).expect_err("a path in an origin list is refused").to_string();
    assert!(problems.contains("site.toml: forms.redirectAllowList[1]"), "{problems}");
    assert!(!problems.contains("redirectAllowList[0]"), "{problems}");
}

/// The answer to a valid contact submission on a site whose form redirects to `redirect`.
async fn answer_for(redirect: &str, origins: &[&str]) -> Value {
    let dir = demo_site_with_redirect(redirect, allow(origins));
    let app = spawn_app_with_site(dir.path()).await;
    let crumb = crumb(&app).await;
    let body = full_payload(&app, &crumb, "contact", contact_values()).await;
    let res = post(&app, "/api/form/SaveFormSubmission", &crumb, &body).await;
    assert_eq!(res.status(), 200, "{redirect:?}");
    res.json().await.expect("JSON")
}

#[actix_rt::test]
async fn a_success_redirect_to_a_listed_origin_or_the_sites_own_is_answered() {
    let listed = answer_for("https://shop.example.com/thanks?from=contact", &["https://shop.example.com"]).await;
    assert_eq!(listed["redirectUrl"], "https://shop.example.com/thanks?from=contact");
    let own = Site::load(veranda_tests::demo_site_dir()).expect("the demo site loads").settings.website.base_url;
    let own = format!("{}/thanks", own.trim_end_matches('/'));
    assert_eq!(answer_for(&own, &[]).await["redirectUrl"], own.as_str());
}
