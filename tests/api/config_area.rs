//! `/config/`: the configuration area shell and its `frameUrl`.

use veranda_tests::{spawn_app, text_with_status};

fn frame_of(html: &str) -> String {
    let marker = "data-frame-url=\"";
    let start = html.find(marker).expect("the shell names its frame") + marker.len();
    let end = html[start..].find('"').expect("attribute ends") + start;
    html[start..end].to_string()
}

#[actix_rt::test]
async fn the_config_area_frames_a_same_site_path() {
    let app = spawn_app().await;
    let html = text_with_status(app.get("/config/?frameUrl=%2Fblog%3Fcategory%3DNews").await, 200).await;
    assert_eq!(frame_of(&html), "/blog?category=News");
    assert_eq!(frame_of(&app.get("/config/design").await.text().await.expect("body")), "/");
}

#[actix_rt::test]
async fn foreign_frame_urls_are_refused() {
    let app = spawn_app().await;
    for hostile in
        ["%2F%2Fevil.example", "https%3A%2F%2Fevil.example", "%2F%5Cevil.example", "javascript%3Aalert(1)", "%0A%2Fx"]
    {
        let html = text_with_status(app.get(&format!("/config/?frameUrl={hostile}")).await, 200).await;
        assert_eq!(frame_of(&html), "/", "{hostile}");
        assert!(!html.contains("evil.example"), "{hostile}");
    }
}

/// The value of `name="…"` on the dashboard root.
fn root_attribute(html: &str, name: &str) -> String {
    let root = &html[html.find("id=\"dashboard-root\"").expect("the dashboard root")..];
    let start = root.find(&format!("{name}=\"")).expect("the attribute") + name.len() + 2;
    root[start..start + root[start..].find('"').expect("closed")].to_string()
}

#[actix_rt::test]
async fn the_shell_names_the_live_panels_the_account_may_see() {
    use veranda_actors::domain::enums::ContributorRole;
    let app = spawn_app().await;
    let html = app.get("/config/").await.text().await.expect("body");
    assert_eq!(root_attribute(&html, "data-panels"), "");
    assert_eq!(root_attribute(&html, "data-signed-in"), "false");
    for (owner, roles, panels) in [
        (true, vec![], "edits errors forms visitors vitals orders"),
        (false, vec![ContributorRole::Admin], "edits errors forms visitors vitals orders"),
        (false, vec![ContributorRole::Editor], ""),
    ] {
        let cookie = app.sign_in(owner, &roles, false).await;
        let res = app.get_with("/config/", &[("cookie", &cookie)]).await;
        let html = res.text().await.expect("body");
        assert_eq!(root_attribute(&html, "data-panels"), panels, "{roles:?}");
        assert_eq!(root_attribute(&html, "data-signed-in"), "true");
    }
}
