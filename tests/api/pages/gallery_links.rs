//! Gallery history deep links (spec 001 §2): `<page>/<slide>` answers the page with that
//! slide current; a path naming no slide is not found.

use veranda_tests::{page_context, spawn_app, text_with_status};

#[actix_rt::test]
async fn a_slide_deep_link_answers_its_page_with_that_slide_current() {
    let app = spawn_app().await;
    let html = text_with_status(app.get("/gallery-designs/slideshow-3").await, 200).await;
    assert!(html.contains(r#"data-linked-slide="slideshow-3""#), "the list names the linked slide");
    assert!(
        html.contains(r#"<li class="is-current" data-type="image" data-slide-id="slideshow-3""#),
        "slide 3 is current"
    );
    assert_eq!(html.matches(r#"<li class="is-current""#).count(), 1, "one slide is current");
    assert_eq!(page_context(&html)["pagePath"], "/gallery-designs/slideshow-3");

    let page = app.get("/gallery-designs").await.text().await.expect("body");
    assert!(!page.contains("data-linked-slide") && !page.contains(r#"<li class="is-current""#));
}

#[actix_rt::test]
async fn a_path_naming_no_slide_is_not_found() {
    let app = spawn_app().await;
    for path in [
        "/gallery-designs/slideshow-9",
        "/gallery-designs/grid-1", // a slide of a gallery without history
        "/gallery-designs/slideshow-3/more",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
}
