//! Tests of gallery video slides: a poster linked to the player, the iframe only in a template.

use super::*;

#[test]
fn a_video_slide_is_a_poster_with_its_player_waiting_in_a_template() {
    let mut block: GalleryBlock = serde_json::from_value(serde_json::json!({
        "design": "slideshow",
        "slides": [{ "src": "a.png", "alt": "The kitchen at dawn" }, { "src": "b.png", "alt": "B" }]
    }))
    .expect("a gallery block");
    block.slides[0].video_src = Some("https://player.vimeo.com/video/76979871".into());
    let html = gallery(&block, None).into_string();
    let (video, image) = html.split_once("</li>").expect("two slides");
    assert!(video.contains(r#"data-type="video""#), "{video}");
    assert!(video.contains(r#"<a href="https://player.vimeo.com/video/76979871">"#), "no lightbox: {video}");
    assert!(video.contains(r#"<img src="/images/a.png?format=750w""#), "the poster: {video}");
    let (before, template) = video.split_once(r#"<template class="gallery-video-embed">"#).expect("a template");
    assert!(!before.contains("<iframe"), "no iframe before play: {video}");
    assert!(
        template.contains(r#"<iframe src="https://player.vimeo.com/video/76979871" title="The kitchen at dawn""#),
        "{template}"
    );
    assert!(image.contains(r#"data-type="image""#) && image.contains("data-lightbox"), "{image}");
}

#[test]
fn a_gallery_that_is_not_mixed_content_shows_a_video_slide_as_its_poster_linked_to_the_player() {
    let mut block: GalleryBlock = serde_json::from_value(serde_json::json!({
        "design": "slideshow", "mixedContent": false,
        "slides": [{ "src": "a.png", "alt": "The kitchen at dawn" }, { "src": "b.png", "alt": "B" }]
    }))
    .expect("a gallery block");
    block.slides[0].video_src = Some("https://player.vimeo.com/video/76979871".into());
    let html = gallery(&block, None).into_string();
    let (video, _) = html.split_once("</li>").expect("two slides");
    assert!(video.contains(r#"data-type="image""#), "{video}");
    assert!(video.contains(r#"<a href="https://player.vimeo.com/video/76979871">"#), "{video}");
    assert!(!html.contains("<template") && !html.contains("<iframe"), "{html}");
}
