//! Tests of the media blocks' HTML: iframes and objects kept or refused, embeds, maps,
//! galleries and image sizes.

use super::*;

#[test]
fn only_single_https_iframes_are_accepted() {
    let ok = r#"<iframe width="560" src="https://www.youtube.com/embed/x?a=1&amp;b=2" allowfullscreen></iframe>"#;
    assert_eq!(https_iframe_src(ok).as_deref(), Some("https://www.youtube.com/embed/x?a=1&b=2"));
    for bad in [
        r#"<iframe src="http://example.com"></iframe>"#,
        r#"<iframe data-src="https://a.b" src="javascript:x"></iframe>"#,
        r#"<iframe src="https://a.b"></iframe><script>x</script>"#,
        r#"<iframe src="https://a.b" onload="x()"><b>x</b></iframe>"#,
        r#"<script src="https://a.b"></script>"#,
        r#"<iframesrc="https://a.b"></iframe>"#,
        r#"<iframe src="https://a.b"</iframe>"#,
        "",
    ] {
        assert_eq!(https_iframe_src(bad), None, "{bad}");
    }
}

#[test]
fn images_carry_what_the_loader_needs_and_a_sized_fallback() {
    let block: ImageBlock = serde_json::from_value(serde_json::json!({
        "src": "porch.png", "alt": "The porch", "imageDimensions": "480x320",
        "focalPoint": "0.3,0.6", "cropMode": "cover", "alignment": "left"
    }))
    .expect("an image block");
    let html = image(&block).into_string();
    for expected in [
        r#"src="/images/porch.png?format=750w""#,
        r#"data-src="/images/porch.png""#,
        r#"data-image-dimensions="480x320""#,
        r#"data-image-focal-point="0.3,0.6""#,
        r#"data-crop-mode="cover""#,
        r#"data-alignment="left""#,
        r#"width="480" height="320""#,
    ] {
        assert!(html.contains(expected), "{expected} in {html}");
    }
}

#[test]
fn gallery_slides_reserve_their_images_space() {
    let gallery: GalleryBlock = serde_json::from_value(serde_json::json!({
        "design": "grid",
        "slides": [{ "src": "a.png", "alt": "A", "imageDimensions": "640x480" }, { "src": "b.png", "alt": "B" }]
    }))
    .expect("a gallery block");
    let html = gallery_markup(&gallery);
    assert_eq!(html.matches(r#"width="640" height="480""#).count(), 1, "{html}");
    assert_eq!(html.matches("width=").count(), 1, "no size is made up for a slide without one: {html}");
}

#[test]
fn lightbox_images_are_marked_for_the_loader() {
    let gallery: GalleryBlock = serde_json::from_value(serde_json::json!({
        "design": "grid", "lightboxTheme": "light",
        "slides": [{ "src": "a.png", "alt": "A" }, { "src": "b.png", "alt": "B", "clickThroughUrl": "/menu" }]
    }))
    .expect("a gallery block");
    let html = gallery_markup(&gallery);
    assert!(html.contains(r#"data-lightbox-set data-lightbox-theme="light""#), "{html}");
    assert_eq!(html.matches("data-lightbox>").count() + html.matches("data-lightbox ").count(), 1, "{html}");
    let plain: GalleryBlock =
        serde_json::from_value(serde_json::json!({ "lightbox": false, "slides": [{ "src": "a.png" }] }))
            .expect("a gallery block");
    assert!(!gallery_markup(&plain).contains("data-lightbox"));
    let image_block: ImageBlock =
        serde_json::from_value(serde_json::json!({ "src": "a.png", "lightbox": true })).expect("an image block");
    let html = image(&image_block).into_string();
    assert!(html.contains("data-lightbox-set") && html.contains(r#"<a href="/images/a.png" data-lightbox>"#), "{html}");
}

fn gallery_markup(d: &GalleryBlock) -> String {
    gallery(d, None).into_string()
}

#[test]
fn designs_without_script_are_laid_out_by_the_server_with_their_defaults() {
    let markup = |extra: serde_json::Value| {
        let mut block =
            serde_json::json!({ "slides": [{ "src": "a.png", "alt": "A" }, { "src": "b.png", "alt": "B" }] });
        block.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        gallery_markup(&serde_json::from_value(block).expect("a gallery block"))
    };
    let autogrid = markup(serde_json::json!({ "design": "autogrid" }));
    assert!(
        autogrid.contains(r#"style="grid-template-columns:repeat(auto-fill,minmax(min(250px,100%),1fr));gap:0px""#),
        "{autogrid}"
    );
    let autogrid = markup(serde_json::json!({ "design": "autogrid", "columnWidth": 180, "gutter": 10 }));
    assert!(autogrid.contains("minmax(min(180px,100%),1fr));gap:10px"), "{autogrid}");
    let columns = markup(serde_json::json!({ "design": "autocolumns", "columnWidth": 0 }));
    assert!(columns.contains(r#"style="display:block;columns:250px;column-gap:0px""#), "{columns}");
    assert_eq!(columns.matches(r#"<li style="break-inside:avoid;margin-bottom:0px""#).count(), 2, "{columns}");
    let rows = markup(serde_json::json!({ "design": "autorows" }));
    assert!(rows.contains(r#"style="display:flex;flex-wrap:wrap;gap:20px""#), "{rows}");
    assert_eq!(rows.matches(r#"style="height:250px;width:100%""#).count(), 2, "{rows}");
    let list = markup(serde_json::json!({ "design": "list", "gutter": 30 }));
    assert!(
        list.contains(r#"class="gallery gallery--list" style="grid-template-columns:minmax(0,1fr);gap:30px""#),
        "{list}"
    );
    for design in ["slideshow", "carousel", "slider", "stacked"] {
        let html = markup(serde_json::json!({ "design": design }));
        assert!(!html.contains("style="), "{design}: {html}");
    }
}

#[test]
fn a_grid_shows_four_per_row_twenty_apart_and_two_per_row_on_narrow_windows() {
    let markup = |extra: serde_json::Value| {
        let mut block = serde_json::json!({ "design": "grid", "slides": [{ "src": "a.png", "alt": "A" }] });
        block.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        gallery_markup(&serde_json::from_value(block).expect("a gallery block"))
    };
    let grid = markup(serde_json::json!({}));
    assert!(grid.contains(r#"style="--per-row:4;--narrow-per-row:2;gap:20px""#), "{grid}");
    let three = markup(serde_json::json!({ "slidesPerRow": 3, "padding": 12 }));
    assert!(three.contains(r#"style="--per-row:3;--narrow-per-row:2;gap:12px""#), "{three}");
    let one = markup(serde_json::json!({ "slidesPerRow": 1 }));
    assert!(one.contains(r#"style="--per-row:1;--narrow-per-row:1;gap:20px""#), "{one}");
    let css = crate::render::style::CRITICAL_CSS;
    assert!(css.contains("@media (min-width:767px){.gallery--grid{grid-template-columns:repeat(var(--per-row,4)"));
}

#[test]
fn the_video_template_holds_the_first_allowed_iframe_of_the_embed() {
    let block: VideoBlock = serde_json::from_value(serde_json::json!({
        "title": "Clip", "url": "https://video.example/1",
        "html": r#"<div><iframe src="https://player.vimeo.com/e/1?a=1&amp;b=2" width="640" height="360"></iframe></div>"#
    }))
    .expect("a video block");
    let allow = EmbedAllowList::default();
    let html = video(&block, &allow).into_string();
    assert!(
        html.contains(r#"<template class="video-embed"><iframe src="https://player.vimeo.com/e/1?a=1&amp;b=2" title="Clip" width="640" height="360""#),
        "{html}"
    );
    for refused in [
        r#"<iframe src="http://player.vimeo.com/1"></iframe>"#,
        r#"<iframe src="https://player.example/1"></iframe>"#,
        r#"<iframe src="https://vimeo.com.evil.example/1"></iframe>"#,
        "<p>no frame</p>",
        "",
    ] {
        let plain: VideoBlock =
            serde_json::from_value(serde_json::json!({ "title": "Clip", "html": refused })).expect("a video block");
        let html = video(&plain, &allow).into_string();
        assert!(!html.contains("template") && !html.contains("iframe"), "{refused}: {html}");
    }
    let extended = EmbedAllowList::new(&["player.example".into()]);
    let other: VideoBlock = serde_json::from_value(serde_json::json!({
        "title": "Clip", "html": r#"<iframe src="https://player.example/1"></iframe>"#
    }))
    .expect("a video block");
    assert!(video(&other, &extended).into_string().contains(r#"<iframe src="https://player.example/1""#));
}

#[test]
fn an_object_embed_is_rebuilt_with_safe_attributes() {
    let block: VideoBlock = serde_json::from_value(serde_json::json!({
        "title": "Old clip",
        "html": r#"<object data="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="425" height="344"><embed src="https://www.youtube.com/v/a" type="application/x-shockwave-flash"></object>"#
    }))
    .expect("a video block");
    let html = video(&block, &EmbedAllowList::default()).into_string();
    assert!(
        html.contains(r#"<template class="video-embed"><object data="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="425" height="344" title="Old clip"><embed src="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="425" height="344"></object></template>"#),
        "{html}"
    );
    let hostile: VideoBlock = serde_json::from_value(serde_json::json!({
        "title": "Clip",
        "html": r#"<object data="https://www.youtube.com/v/a"><embed src="https://evil.example/x"></object>"#
    }))
    .expect("a video block");
    assert!(!video(&hostile, &EmbedAllowList::default()).into_string().contains("<object"));
}

#[test]
fn a_map_without_a_marker_links_to_its_centre_with_the_address() {
    let block: MapBlock = serde_json::from_value(serde_json::json!({
        "addressTitle": "Veranda", "addressLine1": "12 Linden Street", "addressCountry": "United States"
    }))
    .expect("a map block");
    let html = map(&block, &MapSettings::default()).into_string();
    assert!(
        html.contains(
            r#"href="https://www.openstreetmap.org/?mlat=40.720882&amp;mlon=-74.000988#map=12/40.720882/-74.000988""#
        ),
        "{html}"
    );
    assert!(
        html.contains("<address><strong>Veranda</strong><br>12 Linden Street<br>United States</address>"),
        "{html}"
    );
    assert!(html.contains(">View Veranda on OpenStreetMap</a>"), "{html}");
    let marked: MapBlock =
        serde_json::from_value(serde_json::json!({ "markerLat": 51.5, "markerLng": -0.12, "mapZoom": 15 }))
            .expect("a map block");
    let html = map(&marked, &MapSettings::default()).into_string();
    assert!(html.contains("?mlat=51.5&amp;mlon=-0.12#map=15/51.5/-0.12"), "{html}");
    assert!(html.contains("View this place on OpenStreetMap"), "{html}");
    assert!(
        html.contains(r#"<div class="map" data-tile-url="https://tile.openstreetmap.org/{z}/{x}/{y}.png""#),
        "{html}"
    );
    assert!(!html.contains("data-google-maps-key") && !html.contains("data-language"), "{html}");
    assert!(!html.contains("data-satellite-tile-url") && !html.contains("data-terrain-tile-url"), "{html}");
    let looks = MapSettings {
        satellite_tile_url: Some("https://imagery.example/{z}/{y}/{x}.jpg".into()),
        label_overlay_url: Some("https://labels.example/{z}/{x}/{y}.png".into()),
        terrain_tile_url: Some("https://relief.example/{z}/{x}/{y}.png".into()),
        unlabelled_tile_url: Some("https://plain.example/{z}/{x}/{y}.png".into()),
        ..MapSettings::default()
    };
    let html = map(&marked, &looks).into_string();
    assert!(
        html.contains(concat!(
            r#"data-satellite-tile-url="https://imagery.example/{z}/{y}/{x}.jpg" "#,
            r#"data-label-overlay-url="https://labels.example/{z}/{x}/{y}.png" "#,
            r#"data-terrain-tile-url="https://relief.example/{z}/{x}/{y}.png" "#,
            r#"data-unlabelled-tile-url="https://plain.example/{z}/{x}/{y}.png""#
        )),
        "{html}"
    );
    let google = MapSettings {
        google_maps_api_key: Some("k-1".into()),
        language: Some("fr".into()),
        region: Some("CA".into()),
        ..MapSettings::default()
    };
    let html = map(&marked, &google).into_string();
    assert!(html.contains(r#"data-google-maps-key="k-1" data-language="fr" data-region="CA""#), "{html}");
    let blank =
        MapSettings { google_maps_api_key: Some("  ".into()), language: Some("fr".into()), ..MapSettings::default() };
    let html = map(&marked, &blank).into_string();
    assert!(!html.contains("data-google-maps-key") && !html.contains("data-language"), "{html}");
}

#[test]
fn an_embed_shows_its_cleaned_code_with_every_iframe_sandboxed() {
    let block = EmbedBlock {
        html: veranda_actors::site::sanitize::embed_block(
            r#"<iframe src="https://maps.example/embed?x=1&amp;y=2" onload="alert(1)" width="600"></iframe><script>alert(2)</script>"#,
        ),
        title: "Map".into(),
    };
    let html = embed(&block).into_string();
    assert_eq!(
        html,
        format!(
            r#"<iframe src="https://maps.example/embed?x=1&amp;y=2" title="Map" loading="lazy" sandbox="{EMBED_SANDBOX}" allowfullscreen></iframe>"#
        )
    );
    assert!(!EMBED_SANDBOX.contains("allow-top-navigation "), "no navigation of the page without a click");
    // Code with more than the iframe is shown as the loader cleaned it.
    let code =
        r#"<iframe src="https://maps.example/e" title="Map"></iframe><p>Two doors down.</p><script>x()</script>"#;
    let block = EmbedBlock { html: veranda_actors::site::sanitize::embed_block(code), title: "Map".into() };
    assert_eq!(
        embed(&block).into_string(),
        format!(
            r#"<div class="embed-code"><iframe src="https://maps.example/e" title="Map" sandbox="{EMBED_SANDBOX}"></iframe><p>Two doors down.</p></div>"#
        )
    );
    let plain = EmbedBlock {
        html: veranda_actors::site::sanitize::embed_block(r#"<iframe src="http://x.example/"></iframe>"#),
        title: "Map".into(),
    };
    assert_eq!(embed(&plain).into_string(), r#"<p class="notice">Map</p>"#);
}

#[test]
fn image_dimensions_parse() {
    assert_eq!(dimensions(Some("1600x900")), Some((1600, 900)));
    assert_eq!(dimensions(Some("big")), None);
    assert_eq!(dimensions(None), None);
}
