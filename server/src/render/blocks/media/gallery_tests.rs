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

#[test]
fn image_aspect_ratio_sets_the_placeholder_100_divided_by_the_ratio_or_65_for_auto() {
    let grid = |extra: serde_json::Value| {
        let mut block = serde_json::json!({
            "design": "grid",
            "slides": [{ "src": "a.png", "alt": "A", "imageDimensions": "640x480" }, { "src": "b.png", "alt": "B" }]
        });
        block.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        gallery(&serde_json::from_value(block).expect("a gallery block"), None).into_string()
    };
    // 001 §9: 65 unless Auto, otherwise 100 divided by the value.
    let auto = grid(serde_json::json!({}));
    assert_eq!(auto.matches(r#"style="aspect-ratio:auto 100/65""#).count(), 1, "only the unsized slide: {auto}");
    let two = grid(serde_json::json!({ "imageAspectRatio": "2" }));
    assert_eq!(two.matches(r#"style="aspect-ratio:100/50;height:auto""#).count(), 2, "{two}");
    let wide = grid(serde_json::json!({ "imageAspectRatio": "1.5" }));
    assert_eq!(wide.matches("aspect-ratio:100/66.667;").count(), 2, "{wide}");
}

#[test]
fn a_list_image_takes_list_image_size_percent_of_the_row_with_its_caption_beside() {
    let list = |size: serde_json::Value| {
        gallery(
            &serde_json::from_value(serde_json::json!({
                "design": "list", "listImageSize": size,
                "slides": [{ "src": "a.png", "alt": "A", "caption": "First", "imageDimensions": "640x480" }]
            }))
            .expect("a gallery block"),
            None,
        )
        .into_string()
    };
    let html = list(serde_json::json!(40));
    assert!(html.contains(r#"<figure style="display:grid;grid-template-columns:40% minmax(0,1fr);"#), "{html}");
    assert!(!list(serde_json::json!(100)).contains("<figure style"), "100 % keeps the caption under the image");
    assert!(!list(serde_json::Value::Null).contains("<figure style"));
}

#[test]
fn a_gallery_without_a_design_is_drawn_as_the_base_design() {
    let plain: GalleryBlock =
        serde_json::from_value(serde_json::json!({ "slides": [{ "src": "a.png", "alt": "A" }] })).expect("a gallery");
    let html = gallery(&plain, None).into_string();
    assert!(html.contains(r#"<ul class="gallery gallery--stacked""#), "{html}");
    assert!(!html.contains("gallery--grid"), "{html}");
}
