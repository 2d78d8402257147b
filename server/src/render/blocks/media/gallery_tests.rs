//! Tests of the gallery's slide attributes and deep-linked slides.

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
