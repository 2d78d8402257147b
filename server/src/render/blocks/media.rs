//! Media blocks: image, video, embed, map, gallery and audio. Embed code is never
//! injected as written: an `<iframe>` with an https source is rebuilt from its source
//! URL, anything else is left to the island.

use maud::{html, Markup};
use veranda_actors::site::blocks::{AudioBlock, EmbedBlock, GalleryBlock, ImageBlock, MapBlock, VideoBlock};

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

/// The value of attribute `name` in the inside of an opening tag.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut rest = tag.trim_start();
    while !rest.is_empty() {
        let name_end = rest.find(|c: char| c == '=' || c.is_whitespace() || c == '/').unwrap_or(rest.len());
        let attr = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let value = if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (value, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let close = after[1..].find(q)? + 1;
                    (&after[1..close], &after[close + 1..])
                }
                _ => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            rest = remaining.trim_start();
            Some(value)
        } else {
            rest = rest.trim_start_matches('/').trim_start();
            None
        };
        if attr.eq_ignore_ascii_case(name) {
            return value.map(|v| v.replace("&amp;", "&"));
        }
        if name_end == 0 && value.is_none() {
            return None;
        }
    }
    None
}

/// The first `<iframe>` of sanitised embed html: its https source and its width and height.
pub fn first_iframe(html: &str) -> Option<(String, Option<u32>, Option<u32>)> {
    let lower = html.to_ascii_lowercase();
    let start = lower.find("<iframe")?;
    let tag = html.get(start + "<iframe".len()..start + lower[start..].find('>')?)?;
    let src = attribute(tag, "src")?;
    let ok = src.starts_with("https://")
        && src.len() > "https://".len()
        && !src.chars().any(|c| c.is_whitespace() || c.is_control() || "\"'<>`\\".contains(c));
    let number = |name: &str| attribute(tag, name).and_then(|v| v.trim().parse().ok());
    ok.then(|| (src, number("width"), number("height")))
}

/// Poster, title and link; the provider's iframe (rebuilt from its source) waits in a
/// `<template>` for the video island, which adds the play overlay.
pub fn video(d: &VideoBlock) -> Markup {
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
            @if let Some((src, width, height)) = first_iframe(&d.html) {
                template class="video-embed" {
                    iframe src=(src) title=(d.title) width=[width] height=[height]
                        allow="autoplay; fullscreen; picture-in-picture; encrypted-media" allowfullscreen {}
                }
            }
        }
    }
}

/// A rebuilt https iframe, or the title when the code is anything else.
pub fn embed(d: &EmbedBlock) -> Markup {
    html! {
        @match https_iframe_src(&d.html) {
            Some(src) => iframe src=(src) title=(d.title) loading="lazy" {},
            None => p class="notice" { (d.title) },
        }
    }
}

/// The address and a link to OpenStreetMap at the marker (or the centre).
pub fn map(d: &MapBlock) -> Markup {
    let lat = d.marker_lat.unwrap_or(d.map_lat);
    let lng = d.marker_lng.unwrap_or(d.map_lng);
    let href = format!("https://www.openstreetmap.org/?mlat={lat}&mlon={lng}#map={}/{lat}/{lng}", d.map_zoom);
    let place = if d.address_title.trim().is_empty() { "this place" } else { d.address_title.as_str() };
    html! {
        address {
            @if !d.address_title.is_empty() { strong { (d.address_title) } br; }
            @if !d.address_line1.is_empty() { (d.address_line1) br; }
            @if !d.address_line2.is_empty() { (d.address_line2) br; }
            @if !d.address_country.is_empty() { (d.address_country) }
        }
        p { a href=(href) rel="noopener" { "View " (place) " on OpenStreetMap" } }
    }
}

/// Every slide as a figure linking to the full image (or its click-through), for every design.
pub fn gallery(d: &GalleryBlock) -> Markup {
    let design = serde_json::to_value(d.design).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let count = d.slides.len();
    html! {
        ul class={ "gallery gallery--" (design) } data-lightbox-set[d.lightbox]
            data-lightbox-theme=[d.lightbox.then_some(if d.lightbox_theme == "light" { "light" } else { "dark" })] {
            @for (i, slide) in d.slides.iter().enumerate() {
                @let through = slide.click_through_url.as_deref().and_then(safe_href);
                li {
                    figure {
                        a href=(through.map(str::to_string).unwrap_or_else(|| image_url(&slide.src)))
                            data-lightbox[d.lightbox && through.is_none()] {
                            img src=(fallback_url(&image_url(&slide.src))) data-src=(image_url(&slide.src))
                                data-image-focal-point=[slide.focal_point.as_deref()] alt=(slide.alt) loading="lazy" decoding="async";
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
    fn the_video_template_holds_the_first_https_iframe_of_the_embed() {
        let block: VideoBlock = serde_json::from_value(serde_json::json!({
            "title": "Clip", "url": "https://video.example/1",
            "html": r#"<div><iframe src="https://player.example/e/1?a=1&amp;b=2" width="640" height="360"></iframe></div>"#
        }))
        .expect("a video block");
        let html = video(&block).into_string();
        assert!(
            html.contains(r#"<template class="video-embed"><iframe src="https://player.example/e/1?a=1&amp;b=2" title="Clip" width="640" height="360""#),
            "{html}"
        );
        assert_eq!(first_iframe(r#"<iframe src="http://player.example/1"></iframe>"#), None);
        assert_eq!(first_iframe("<p>no frame</p>"), None);
        let plain: VideoBlock =
            serde_json::from_value(serde_json::json!({ "title": "Clip", "html": "" })).expect("a video block");
        assert!(!video(&plain).into_string().contains("template"));
    }

    #[test]
    fn a_map_without_a_marker_links_to_its_centre_with_the_address() {
        let block: MapBlock = serde_json::from_value(serde_json::json!({
            "addressTitle": "Veranda", "addressLine1": "12 Linden Street", "addressCountry": "United States"
        }))
        .expect("a map block");
        let html = map(&block).into_string();
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
        let html = map(&marked).into_string();
        assert!(html.contains("?mlat=51.5&amp;mlon=-0.12#map=15/51.5/-0.12"), "{html}");
        assert!(html.contains("View this place on OpenStreetMap"), "{html}");
    }

    #[test]
    fn image_dimensions_parse() {
        assert_eq!(dimensions(Some("1600x900")), Some((1600, 900)));
        assert_eq!(dimensions(Some("big")), None);
        assert_eq!(dimensions(None), None);
    }
}
