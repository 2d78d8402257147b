//! `/pages/{24 lowercase alphanumerics}` collection-panel links.

use veranda_tests::spawn_app;

#[actix_rt::test]
async fn a_panel_link_redirects_to_its_page_or_collection() {
    let app = spawn_app().await;
    let page = &app.site.pages[0];
    let res = app.get(&format!("/pages/{}", page.id)).await;
    assert_eq!(res.status(), 302);
    assert_eq!(res.headers()["location"], page.url.as_str());
    let collection = &app.site.collections[0];
    let res = app.get(&format!("/pages/{}", collection.id)).await;
    assert_eq!(res.headers()["location"], collection.url.as_str());
}

#[actix_rt::test]
async fn an_unknown_panel_id_is_404() {
    let app = spawn_app().await;
    assert_eq!(app.get(&format!("/pages/{}", "z".repeat(24))).await.status(), 404);
}

#[actix_rt::test]
async fn a_malformed_panel_id_is_400() {
    let app = spawn_app().await;
    let too_short = "a".repeat(23);
    let too_long = "a".repeat(25);
    let upper = "A".repeat(24);
    for id in [
        too_short.as_str(),
        too_long.as_str(),
        upper.as_str(),
        "",
        "abc-def",
        "%2e%2e%2fetc%2fpasswd",
        "aaaaaaaaaaaaaaaaaaaaaaa%00",
    ] {
        let res = app.get(&format!("/pages/{id}")).await;
        assert_eq!(res.status(), 400, "{id:?}");
        assert!(res.text().await.expect("body").contains("24 lowercase letters or digits"));
    }
}
