//! Tests of an image block's sizing and shape: size adjustment, pixel ratio bounds, size format,
//! srcset, shape masks.

use super::*;

fn image_markup(extra: serde_json::Value) -> String {
    let mut block = serde_json::json!({ "src": "porch.png", "alt": "The porch" });
    block.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
    image(&serde_json::from_value(block).expect("an image block")).into_string()
}

#[test]
fn the_sizing_fields_reach_the_image_loader() {
    let html = image_markup(serde_json::json!({ "sizeAdjustment": 0.5, "dprMin": 1.5, "dprMax": 2 }));
    assert!(html.contains(r#"data-size-adjustment="0.5""#), "{html}");
    assert!(html.contains(r#"data-dpr-min="1.5" data-dpr-max="2""#), "{html}");
    let plain = image_markup(serde_json::json!({}));
    assert!(!plain.contains("data-size-adjustment") && !plain.contains("data-dpr-") && !plain.contains("srcset"));
}

#[test]
fn the_size_format_puts_the_width_in_the_query_string_or_the_file_name() {
    let query = image_markup(serde_json::json!({}));
    assert!(query.contains(r#"src="/images/porch.png?format=750w""#), "{query}");
    let name = image_markup(serde_json::json!({ "sizeFormat": "filename" }));
    assert!(name.contains(r#"src="/images/porch.png/750w""#), "{name}");
    assert!(name.contains(r#"data-size-format="filename""#), "{name}");
}

#[test]
fn a_srcset_lists_every_ladder_width_for_the_browser_to_pick() {
    let html = image_markup(serde_json::json!({ "srcset": true }));
    // 001 §9: the image size ladder 2500, 1500, 1000, 750, 500, 300, 100.
    let expected =
        [100, 300, 500, 750, 1000, 1500, 2500].map(|w| format!("/images/porch.png?format={w}w {w}w")).join(", ");
    assert!(html.contains(&format!(r#"srcset="{expected}" sizes="100vw""#)), "{html}");
    let named = image_markup(serde_json::json!({ "srcset": true, "sizeFormat": "filename" }));
    assert!(named.contains(r#"srcset="/images/porch.png/100w 100w, /images/porch.png/300w 300w"#), "{named}");
}

#[test]
fn a_shaped_image_fills_a_frame_of_its_shapes_height_around_its_focal_point() {
    // Spec 000 §9: shape mask aspect heights 100 for most shapes, 150 for tall, 67 for wide.
    for (shape, height) in [("circle", 100), ("tall-arch", 150), ("wide-oval", 67)] {
        let html = image_markup(serde_json::json!({ "shape": shape, "focalPoint": "0.25,0.8" }));
        let frame = format!(r#"<span class="shape shape--{height} shape-{shape}"><img "#);
        assert!(html.contains(&frame), "{html}");
        assert!(html.contains(r#"style="object-position:25% 80%""#), "{html}");
    }
    let plain = image_markup(serde_json::json!({ "focalPoint": "0.25,0.8" }));
    assert!(!plain.contains("shape") && !plain.contains("object-position"), "{plain}");
    let centred = image_markup(serde_json::json!({ "shape": "square", "focalPoint": "left" }));
    assert!(
        centred.contains("shape--100") && !centred.contains("style="),
        "an unreadable focal point centres: {centred}"
    );
}
