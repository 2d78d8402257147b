//! `/config/`: the configuration area shell and its `frameUrl`.

use veranda_tests::spawn_app;

fn frame_of(html: &str) -> String {
    let marker = "data-frame-url=\"";
    let start = html.find(marker).expect("the shell names its frame") + marker.len();
    let end = html[start..].find('"').expect("attribute ends") + start;
    html[start..end].to_string()
}

#[actix_rt::test]
async fn the_config_area_frames_a_same_site_path() {
    let app = spawn_app().await;
    let res = app.get("/config/?frameUrl=%2Fblog%3Fcategory%3DNews").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.expect("body");
    assert_eq!(frame_of(&html), "/blog?category=News");
    assert_eq!(frame_of(&app.get("/config/design").await.text().await.expect("body")), "/");
}

#[actix_rt::test]
async fn foreign_frame_urls_are_refused() {
    let app = spawn_app().await;
    for hostile in
        ["%2F%2Fevil.example", "https%3A%2F%2Fevil.example", "%2F%5Cevil.example", "javascript%3Aalert(1)", "%0A%2Fx"]
    {
        let res = app.get(&format!("/config/?frameUrl={hostile}")).await;
        assert_eq!(res.status(), 200, "{hostile}");
        let html = res.text().await.expect("body");
        assert_eq!(frame_of(&html), "/", "{hostile}");
        assert!(!html.contains("evil.example"), "{hostile}");
    }
}
