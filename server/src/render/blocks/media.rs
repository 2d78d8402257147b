//! Media blocks: image, video, embed, map, gallery and audio. Embed code is never
//! injected as written: an `<iframe>` with an https source is rebuilt from its source
//! URL, anything else is left to the island.

use maud::{html, Markup, PreEscaped};
use veranda_actors::site::blocks::{AudioBlock, EmbedBlock, GalleryBlock, ImageBlock, MapBlock, VideoBlock};
use veranda_actors::site::embeds::attribute;
use veranda_actors::site::embeds::{video_embed, EmbedAllowList, VideoEmbed};
use veranda_actors::site::sanitize::EMBED_SANDBOX;
use veranda_actors::site::settings::MapSettings;

use crate::render::util::{file_url, image_url, safe_href};

/// `widthxheight` as two numbers.
fn dimensions(text: Option<&str>) -> Option<(u32, u32)> {
    let (w, h) = text?.trim().split_once(['x', 'X'])?;
    Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
}

/// The width served before the loader picks one (and to visitors without JavaScript).
const FALLBACK_WIDTH: u32 = 750;

/// `url` at [`FALLBACK_WIDTH`] of the size ladder (the original when it is narrower).
fn fallback_url(url: &str) -> String {
    format!("{url}?format={FALLBACK_WIDTH}w")
}

/// A figure with a lazily loaded image, its caption, and its link when it has one.
pub fn image(d: &ImageBlock) -> Markup {
    let (width, height) = dimensions(d.image_dimensions.as_deref()).unzip();
    let full = image_url(&d.src);
    let link = d
        .click_through_url
        .as_deref()
        .and_then(safe_href)
        .map(str::to_string)
        .or_else(|| d.lightbox.then(|| full.clone()));
    // The lightbox opens on the image's own link only (a click-through link is followed).
    let boxed = d.lightbox && link.as_deref() == Some(full.as_str());
    let img = html! {
        img src=(fallback_url(&full)) data-src=(full) data-image-dimensions=[d.image_dimensions.as_deref()]
            data-image-focal-point=[d.focal_point.as_deref()] data-crop-mode=[d.crop_mode.as_deref()]
            data-alignment=[d.alignment.as_deref()] alt=(d.alt) loading="lazy" decoding="async" width=[width] height=[height];
    };
    html! {
        figure class={ "align-" (d.alignment.as_deref().unwrap_or("center")) } data-lightbox-set[boxed] {
            @match &link {
                Some(href) => a href=(href) data-lightbox[boxed] { (img) },
                None => (img),
            }
            @if let Some(caption) = d.caption.as_deref().filter(|c| !c.trim().is_empty()) {
                figcaption { (caption) }
            }
        }
    }
}

/// The `src` of `html` when it is exactly one `<iframe>` whose source is https.
pub fn https_iframe_src(html: &str) -> Option<String> {
    let html = html.trim();
    let lower = html.to_ascii_lowercase();
    if !lower.starts_with("<iframe") || !lower.ends_with("</iframe>") {
        return None;
    }
    let tag_end = html.find('>')?;
    let tag = html.get(7..tag_end)?;
    let between = lower.get(tag_end + 1..lower.len() - "</iframe>".len())?;
    if tag.contains('<') || !between.trim().is_empty() || !tag.starts_with(char::is_whitespace) {
        return None;
    }
    let src = attribute(tag, "src")?;
    let ok = src.starts_with("https://")
        && src.len() > "https://".len()
        && !src.chars().any(|c| c.is_whitespace() || c.is_control() || "\"'<>`\\".contains(c));
    ok.then_some(src)
}

/// Poster, title and link; the provider's iframe, or object with its embed (rebuilt from
/// its address, with safe attributes only, when the provider is on the site's allow-list),
/// waits in a `<template>` for the video island, which adds the play overlay.
pub fn video(d: &VideoBlock, allow: &EmbedAllowList) -> Markup {
    let link = d.url.as_deref().and_then(safe_href);
    let provider =
        if d.provider_name.trim().is_empty() || d.provider_name == "self" { None } else { Some(&d.provider_name) };
    let poster =
        d.thumbnail.as_deref().map(|t| html! { img class="video-poster" src=(image_url(t)) alt="" loading="lazy"; });
    html! {
        figure class="video" {
            @match link {
                Some(href) => a href=(href) { (poster.unwrap_or_default()) span class="video-title" { "Watch “" (d.title) "”" @if let Some(p) = provider { " on " (p) } } },
                None => { (poster.unwrap_or_default()) },
            }
            @if link.is_none() { figcaption { (d.title) } }
            @match video_embed(&d.html, allow) {
                Ok(VideoEmbed::Iframe { src, width, height }) => template class="video-embed" {
                    iframe src=(src) title=(d.title) width=[width] height=[height]
                        allow="autoplay; fullscreen; picture-in-picture; encrypted-media" allowfullscreen {}
                },
                Ok(VideoEmbed::Object { src, media_type, width, height }) => template class="video-embed" {
                    object data=(src) type=[media_type.as_deref()] width=[width] height=[height] title=(d.title) {
                        embed src=(src) type=[media_type.as_deref()] width=[width] height=[height];
                    }
                },
                Err(_) => {},
            }
        }
    }
}

/// An embed block: a lone https iframe rebuilt with the block's title (for assistive
/// technology) and the sandbox; any other code as the site loader left it (sanitised, its
/// iframes sandboxed, see [`EMBED_SANDBOX`]); the title when nothing is left.
pub fn embed(d: &EmbedBlock) -> Markup {
    html! {
        @match https_iframe_src(&d.html) {
            Some(src) => iframe src=(src) title=(d.title) loading="lazy" sandbox=(EMBED_SANDBOX) allowfullscreen {},
            None if !d.html.trim().is_empty() => div class="embed-code" { (PreEscaped(&d.html)) },
            None => p class="notice" { (d.title) },
        }
    }
}

/// The address and a link to OpenStreetMap at the marker (or the centre): what a visitor
/// reads without JavaScript, or when the map cannot load. The wrapper carries the site's
/// map settings for the map island (tile addresses, attribution, and a Google Maps key with
/// language and region when one is set).
pub fn map(d: &MapBlock, settings: &MapSettings) -> Markup {
    let lat = d.marker_lat.unwrap_or(d.map_lat);
    let lng = d.marker_lng.unwrap_or(d.map_lng);
    let href = format!("https://www.openstreetmap.org/?mlat={lat}&mlon={lng}#map={}/{lat}/{lng}", d.map_zoom);
    let place = if d.address_title.trim().is_empty() { "this place" } else { d.address_title.as_str() };
    let key = settings.google_key();
    html! {
        div class="map" data-tile-url=(settings.tile_url) data-tile-attribution=(settings.tile_attribution)
            data-satellite-tile-url=[settings.satellite_tile_url.as_deref()]
            data-label-overlay-url=[settings.label_overlay_url.as_deref()]
            data-terrain-tile-url=[settings.terrain_tile_url.as_deref()]
            data-unlabelled-tile-url=[settings.unlabelled_tile_url.as_deref()]
            data-google-maps-key=[key] data-language=[key.and(settings.language.as_deref())]
            data-region=[key.and(settings.region.as_deref())] {
            div class="map-fallback" {
                address {
                    @if !d.address_title.is_empty() { strong { (d.address_title) } br; }
                    @if !d.address_line1.is_empty() { (d.address_line1) br; }
                    @if !d.address_line2.is_empty() { (d.address_line2) br; }
                    @if !d.address_country.is_empty() { (d.address_country) }
                }
                p { a href=(href) rel="noopener" { "View " (place) " on OpenStreetMap" } }
            }
        }
    }
}

/// Every slide as a figure linking to the full image (or its click-through), for every design.
///
/// The designs that need no script are laid out here with inline styles over the critical
/// stylesheet's `.gallery` grid, with the 001 §9 defaults:
/// - `autogrid`: equal cells, as many columns at least `columnWidth` (250) px wide as fit
///   (the "min" behaviour: the count is rounded down), `gutter` 0;
/// - `autocolumns`: the same columns, but slides flow down them at their own heights;
/// - `autorows`: rows 250 px high whose slides keep their proportions and share the row's
///   width, `gutter` 20;
/// - `list`: one slide per row, full width, captions below, `gutter` 20 between slides.
///
/// Grid keeps the stylesheet's responsive grid; the moving designs are laid out by the
/// gallery island.
pub fn gallery(d: &GalleryBlock) -> Markup {
    use veranda_actors::domain::enums::GalleryDesign;
    let design = serde_json::to_value(d.design).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let count = d.slides.len();
    let column = d.column_width.filter(|w| *w > 0).unwrap_or(250);
    let (list_style, item_style, image_style) = match d.design {
        GalleryDesign::Autogrid => {
            let gap = d.gutter.unwrap_or(0);
            (
                Some(format!("grid-template-columns:repeat(auto-fill,minmax(min({column}px,100%),1fr));gap:{gap}px")),
                None,
                None,
            )
        }
        GalleryDesign::Autocolumns => {
            let gap = d.gutter.unwrap_or(0);
            (
                Some(format!("display:block;columns:{column}px;column-gap:{gap}px")),
                Some(format!("break-inside:avoid;margin-bottom:{gap}px")),
                None,
            )
        }
        GalleryDesign::Autorows => {
            let gap = d.gutter.unwrap_or(20);
            (
                Some(format!("display:flex;flex-wrap:wrap;gap:{gap}px")),
                Some("flex:1 1 auto;min-width:8rem".to_string()),
                Some("height:250px;width:100%"),
            )
        }
        GalleryDesign::List => {
            let gap = d.gutter.unwrap_or(20);
            (Some(format!("grid-template-columns:minmax(0,1fr);gap:{gap}px")), None, None)
        }
        _ => (None, None, None),
    };
    html! {
        ul class={ "gallery gallery--" (design) } style=[list_style] data-lightbox-set[d.lightbox]
            data-lightbox-theme=[d.lightbox.then_some(if d.lightbox_theme == "light" { "light" } else { "dark" })] {
            @for (i, slide) in d.slides.iter().enumerate() {
                @let through = slide.click_through_url.as_deref().and_then(safe_href);
                @let size = dimensions(slide.image_dimensions.as_deref());
                li style=[item_style.as_deref()] {
                    figure {
                        a href=(through.map(str::to_string).unwrap_or_else(|| image_url(&slide.src)))
                            data-lightbox[d.lightbox && through.is_none()] {
                            img src=(fallback_url(&image_url(&slide.src))) data-src=(image_url(&slide.src))
                                data-image-focal-point=[slide.focal_point.as_deref()] alt=(slide.alt) loading="lazy" decoding="async"
                                width=[size.map(|s| s.0)] height=[size.map(|s| s.1)] style=[image_style];
                            @if slide.alt.trim().is_empty() {
                                span class="visually-hidden" { "Image " (i + 1) " of " (count) }
                            }
                        }
                        @if !slide.caption.trim().is_empty() { figcaption { (slide.caption) } }
                    }
                }
            }
        }
    }
}

/// A native audio player with the track's title and a download link.
pub fn audio(d: &AudioBlock) -> Markup {
    let src = file_url(&d.src);
    html! {
        figure class="audio" {
            figcaption { (d.title) @if !d.author.trim().is_empty() { " — " (d.author) } }
            audio controls preload="none" src=(src) {
                a href=(src) { "Download " (d.title) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
        assert!(
            html.contains("data-lightbox-set") && html.contains(r#"<a href="/images/a.png" data-lightbox>"#),
            "{html}"
        );
    }

    fn gallery_markup(d: &GalleryBlock) -> String {
        gallery(d).into_string()
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
        assert_eq!(columns.matches(r#"<li style="break-inside:avoid;margin-bottom:0px">"#).count(), 2, "{columns}");
        let rows = markup(serde_json::json!({ "design": "autorows" }));
        assert!(rows.contains(r#"style="display:flex;flex-wrap:wrap;gap:20px""#), "{rows}");
        assert_eq!(rows.matches(r#"style="height:250px;width:100%""#).count(), 2, "{rows}");
        let list = markup(serde_json::json!({ "design": "list", "gutter": 30 }));
        assert!(
            list.contains(r#"class="gallery gallery--list" style="grid-template-columns:minmax(0,1fr);gap:30px""#),
            "{list}"
        );
        for design in ["grid", "slideshow", "carousel", "slider", "stacked"] {
            let html = markup(serde_json::json!({ "design": design }));
            assert!(!html.contains("style="), "{design}: {html}");
        }
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
            html.contains(r#"href="https://www.openstreetmap.org/?mlat=40.720882&amp;mlon=-74.000988#map=12/40.720882/-74.000988""#),
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
        let blank = MapSettings {
            google_maps_api_key: Some("  ".into()),
            language: Some("fr".into()),
            ..MapSettings::default()
        };
        let html = map(&marked, &blank).into_string();
        assert!(!html.contains("data-google-maps-key") && !html.contains("data-language"), "{html}");
    }

    #[test]
    fn an_embed_keeps_its_https_iframe_sandboxed_and_nothing_else() {
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
}
