//! The popup overlay's form block, rendered in a `<template>` for the overlay to mount:
//! under its own id namespace, so a page showing the same block (the newsletter on
//! `/contact`) never has an element id twice and every label names its own input.

use std::collections::BTreeMap;

use veranda_tests::spawn_app;

/// The demo's newsletter block, shown on `/contact` and in the overlay.
const NEWSLETTER_BLOCK: &str = "75c8afcd1c8273ac164e16ee";

/// Every `id="…"` value in `html`, with how often it appears.
fn ids(html: &str) -> BTreeMap<&str, usize> {
    let mut out = BTreeMap::new();
    for (at, _) in html.match_indices(" id=\"") {
        let start = at + " id=\"".len();
        let end = start + html[start..].find('"').expect("quoted id");
        *out.entry(&html[start..end]).or_insert(0) += 1;
    }
    out
}

/// The inside of the overlay's `<template>`.
fn overlay_template(html: &str) -> &str {
    let open = "<template id=\"popup-overlay-form\">";
    let start = html.find(open).expect("the overlay's form template") + open.len();
    &html[start..start + html[start..].find("</template>").expect("the template ends")]
}

#[actix_rt::test]
async fn the_overlay_form_on_the_page_with_the_same_newsletter_repeats_no_id() {
    let app = spawn_app().await;
    for path in ["/contact", "/", "/about"] {
        let html = app.get(path).await.text().await.expect("body");
        let repeated: Vec<_> = ids(&html).into_iter().filter(|(_, n)| *n > 1).collect();
        assert!(repeated.is_empty(), "{path}: ids repeated: {repeated:?}");
        let template = overlay_template(&html);
        let copy = format!("popup-overlay-{NEWSLETTER_BLOCK}");
        assert!(template.contains(&format!("<section id=\"block-{copy}\"")), "{path}: {template}");
        let input = format!("newsletter-{copy}-email");
        assert!(template.contains(&format!("<label for=\"{input}\"")), "{path}: the label names the copy's input");
        assert!(template.contains(&format!("<input id=\"{input}\" type=\"email\"")), "{path}");
        assert!(template.contains("data-form-id=\"newsletter\""), "{path}: it still posts the newsletter form");
        assert!(template.contains("data-island=\"newsletter\""), "{path}");
    }
    let contact = app.get("/contact").await.text().await.expect("body");
    let page_block = format!("<section id=\"block-{NEWSLETTER_BLOCK}\"");
    assert_eq!(contact.matches(&page_block).count(), 1, "the page's own newsletter keeps its id");
    assert!(contact.contains(&format!("<label for=\"newsletter-{NEWSLETTER_BLOCK}-email\"")));
}
