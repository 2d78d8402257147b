//! The edit APIs: header and footer, languages; who may call them, crumbs, validation,
//! and that an edit is kept.

use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::spawn_app;

use crate::streams::put;

#[actix_rt::test]
async fn an_editor_saves_the_header_and_footer_and_reads_it_back() {
    let app = spawn_app().await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let res = put(&app, "/api/site-header-footer", &editor, json!({ "header": "Open daily", "footer": "© Us" })).await;
    assert_eq!(res.status(), 200);
    let res = app.get_with("/api/site-header-footer", &[("cookie", &editor)]).await;
    let body: Value = res.json().await.expect("JSON");
    assert_eq!(body, json!({ "header": "Open daily", "footer": "© Us" }));
}

#[actix_rt::test]
async fn edits_are_refused_without_a_crumb_an_account_or_the_role_and_bad_bodies_get_400() {
    let app = spawn_app().await;
    let viewer = app.sign_in(false, &[ContributorRole::Viewer], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let no_crumb = app
        .client
        .put(format!("{}/api/site-header-footer", app.address))
        .header("cookie", &admin)
        .json(&json!({ "header": "x", "footer": "y" }))
        .send()
        .await
        .expect("answered");
    assert_eq!(no_crumb.status(), 403);
    assert_eq!(no_crumb.json::<Value>().await.expect("JSON")["crumbFail"], true);
    assert_eq!(app.get("/api/site-header-footer").await.status(), 401);
    assert_eq!(put(&app, "/api/multilingual/languages", &viewer, json!({ "languages": ["fr"] })).await.status(), 403);
    assert_eq!(put(&app, "/api/site-header-footer", &admin, json!({ "headline": "x" })).await.status(), 400);
    let bad = put(&app, "/api/multilingual/languages", &admin, json!({ "languages": ["fr", "not a tag"] })).await;
    assert_eq!(bad.status(), 400);
    assert!(bad.json::<Value>().await.expect("JSON")["error"].as_str().is_some_and(|e| e.contains("not a tag")));
}

#[actix_rt::test]
async fn languages_are_saved_with_the_default_first_and_the_status_follows() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    let status: Value =
        app.get_with("/api/multilingual/status", &[("cookie", &owner)]).await.json().await.expect("JSON");
    assert_eq!(status["enabled"], false);
    let res = put(&app, "/api/multilingual/languages", &owner, json!({ "languages": ["fr-CA", "de"] })).await;
    assert_eq!(res.status(), 200);
    let settings: Value =
        app.get_with("/api/multilingual/settings", &[("cookie", &owner)]).await.json().await.expect("JSON");
    let default = settings["defaultLanguage"].as_str().expect("a default").to_string();
    assert_eq!(settings["languages"], json!([default, "fr-CA", "de"]));
    let status: Value =
        app.get_with("/api/multilingual/status", &[("cookie", &owner)]).await.json().await.expect("JSON");
    assert_eq!((status["enabled"].as_bool(), status["languageCount"].as_u64()), (Some(true), Some(3)));
}

#[actix_rt::test]
async fn a_saved_header_and_footer_is_what_visitors_see_next() {
    let app = spawn_app().await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let before = app.get("/about").await.text().await.expect("HTML");
    assert!(!before.contains("Open late on Fridays"));
    let body = json!({ "header": "Open late on Fridays", "footer": "<b>Porch</b> & garden" });
    assert_eq!(put(&app, "/api/site-header-footer", &editor, body).await.status(), 200);
    for path in ["/about", "/blog", "/no-such-page"] {
        let html = app.get(path).await.text().await.expect("HTML");
        let header = html.split("<header").nth(1).and_then(|h| h.split("</header>").next()).expect("a header");
        assert!(header.contains("<p>Open late on Fridays</p>"), "{path}: {header}");
        let footer = html.split("<footer").nth(1).and_then(|f| f.split("</footer>").next()).expect("a footer");
        assert!(
            footer.contains("<p>&lt;b&gt;Porch&lt;/b&gt; &amp; garden</p>"),
            "{path}: the footer is text: {footer}"
        );
    }
}
