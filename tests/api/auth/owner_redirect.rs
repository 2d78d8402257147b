//! The owner redirect to `/config/?frameUrl=…` and each of its skip rules.

use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site};

fn location(res: &reqwest::Response) -> String {
    res.headers().get("location").map(|v| v.to_str().expect("ascii").to_string()).unwrap_or_default()
}

#[actix_rt::test]
async fn owners_admins_and_editors_are_sent_to_the_configuration_area() {
    let app = spawn_app().await;
    for (owner, roles) in
        [(true, vec![]), (false, vec![ContributorRole::Admin]), (false, vec![ContributorRole::Editor])]
    {
        let cookie = app.sign_in(owner, &roles, false).await;
        let res = app.get_with("/about?x=1&y=a%20b", &[("cookie", &cookie)]).await;
        assert_eq!(res.status(), 302, "{roles:?}");
        assert_eq!(location(&res), "/config/?frameUrl=%2Fabout%3Fx%3D1%26y%3Da%2520b");
    }
}

#[actix_rt::test]
async fn visitors_members_and_viewers_are_not_redirected() {
    let app = spawn_app().await;
    assert_eq!(app.get("/about").await.status(), 200);
    let member = app.sign_in(false, &[], true).await;
    assert_eq!(app.get_with("/about", &[("cookie", &member)]).await.status(), 200);
    let viewer = app.sign_in(false, &[ContributorRole::Editor, ContributorRole::Viewer], false).await;
    assert_eq!(app.get_with("/about", &[("cookie", &viewer)]).await.status(), 200);
    let billing = app.sign_in(false, &[ContributorRole::Billing], false).await;
    assert_eq!(app.get_with("/about", &[("cookie", &billing)]).await.status(), 200);
}

#[actix_rt::test]
async fn noredirect_skips_the_redirect_and_is_remembered_for_the_session() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    let res = app.get_with("/about?noredirect", &[("cookie", &owner)]).await;
    assert_eq!(res.status(), 200);
    let set_cookie = veranda_tests::set_cookie(&res, "veranda_noredirect").expect("the noredirect cookie is set");
    assert!(set_cookie.starts_with("veranda_noredirect=1"), "{set_cookie}");
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    assert!(!set_cookie.contains("Max-Age") && !set_cookie.contains("Expires"), "a session cookie: {set_cookie}");
    let both = format!("{owner}; veranda_noredirect=1");
    assert_eq!(app.get_with("/blog", &[("cookie", &both)]).await.status(), 200);
    assert_eq!(app.get_with("/blog", &[("cookie", &owner)]).await.status(), 302);
}

#[actix_rt::test]
async fn localhost_and_framed_requests_are_not_redirected() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    let res = app.get_with("/about", &[("cookie", &owner), ("host", "localhost")]).await;
    assert_eq!(res.status(), 200);
    let res = app.get_with("/about", &[("cookie", &owner), ("sec-fetch-dest", "iframe")]).await;
    assert_eq!(res.status(), 200);
}

#[actix_rt::test]
async fn developer_mode_and_cloneable_sites_skip_the_redirect() {
    for key in ["developerMode", "cloneable"] {
        let dir = demo_site_copy(|site| {
            let website = site.get_mut("website").and_then(|w| w.as_table_mut()).expect("[website]");
            website.insert(key.to_string(), toml::Value::Boolean(true));
        });
        let app = spawn_app_with_site(dir.path()).await;
        let owner = app.sign_in(true, &[], false).await;
        assert_eq!(app.get_with("/about", &[("cookie", &owner)]).await.status(), 200, "{key}");
    }
}

#[actix_rt::test]
async fn an_expired_or_unknown_session_is_a_visitor() {
    let app = spawn_app().await;
    let res = app.get_with("/about", &[("cookie", "veranda_session=does-not-exist")]).await;
    assert_eq!(res.status(), 200);
    let long = format!("veranda_session={}", "x".repeat(4000));
    assert_eq!(app.get_with("/about", &[("cookie", &long)]).await.status(), 200);
}
