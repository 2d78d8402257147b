//! Tests of the gallery's slide attributes, deep-linked slides and caption overlays.

use super::*;

fn block(extra: serde_json::Value) -> GalleryBlock {
    let mut block = serde_json::json!({
        "design": "slideshow",
        "slides": [
            { "src": "a.png", "alt": "A", "caption": "First", "slideId": "one", "imageDimensions": "640x480" },
            { "src": "b.png", "alt": "B", "caption": "Second", "slideId": "two", "slideUrl": "second-slide",
              "clickThroughUrl": "/menu" },
            { "src": "c.png", "alt": "C", "slideId": "three" }
        ]
    });
    block.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
    serde_json::from_value(block).expect("a gallery block")
}

#[test]
fn slides_carry_the_spec_slide_attributes() {
    let html = gallery(&block(serde_json::json!({})), None).into_string();
    assert!(html.contains(r#"<li data-type="image" data-slide-id="one" data-image-dimensions="640x480">"#), "{html}");
    assert!(
        html.contains(
            r#"<li data-type="image" data-slide-id="two" data-slide-url="second-slide" data-click-through-url="/menu">"#
        ),
        "{html}"
    );
    assert!(html.contains(r#"data-src="/images/a.png""#), "{html}");
}

#[test]
fn a_deep_link_shows_its_slide_current_when_history_is_enabled() {
    let linked = gallery(&block(serde_json::json!({ "historyEnabled": true })), Some("second-slide")).into_string();
    assert!(linked.contains(r#"data-linked-slide="second-slide""#), "{linked}");
    assert_eq!(linked.matches("is-current").count(), 1, "{linked}");
    assert!(linked.contains(r#"<li class="is-current" data-type="image" data-slide-id="two""#), "{linked}");
    let by_id = gallery(&block(serde_json::json!({ "historyEnabled": true })), Some("two")).into_string();
    assert!(by_id.contains(r#"data-linked-slide="second-slide""#), "the slide's address is its url: {by_id}");

    let off = gallery(&block(serde_json::json!({})), Some("two")).into_string();
    assert!(!off.contains("is-current") && !off.contains("data-linked-slide"), "{off}");
    let unknown = gallery(&block(serde_json::json!({ "historyEnabled": true })), Some("four")).into_string();
    assert!(!unknown.contains("is-current"), "{unknown}");
}

#[test]
fn slideshow_captions_overlay_the_slide_at_their_meta_position() {
    for position in ["top", "bottom", "top-left", "bottom-left", "top-right", "bottom-right", "center"] {
        let html = gallery(&block(serde_json::json!({ "meta-position": position })), None).into_string();
        let overlay = format!(
            r#"<figcaption class="gallery-meta gallery-meta--{position}" tabindex="0" role="group" aria-label="Caption of slide 1">First</figcaption>"#
        );
        assert!(html.contains(&overlay), "{position}: {html}");
        assert_eq!(html.matches(r#"<figure class="gallery-overlay">"#).count(), 3, "{position}: {html}");
    }
    let unknown = gallery(&block(serde_json::json!({ "meta-position": "middle" })), None).into_string();
    assert!(unknown.contains("<figcaption>First</figcaption>") && !unknown.contains("gallery-meta"), "{unknown}");
    let grid = gallery(&block(serde_json::json!({ "design": "grid", "meta-position": "top" })), None).into_string();
    assert!(!grid.contains("gallery-meta"), "only slideshows overlay their captions: {grid}");
}
