//! Media blocks: image, video, embed, map, gallery and audio. Embed code is never
//! injected as written: an `<iframe>` with an https source is rebuilt from its source
//! URL, anything else is left to the island.

use maud::{html, Markup, PreEscaped};
use veranda_actors::site::blocks::{
    placeholder_percent, shape_proportion, AudioBlock, EmbedBlock, GalleryBlock, ImageBlock, MapBlock, VideoBlock,
};
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
    sized_url(url, FALLBACK_WIDTH, false)
}

/// `url` at `width` of the size ladder, in the image's size format (001 §3): the query
/// string (`?format=750w`) or the file name (`/750w` after it).
fn sized_url(url: &str, width: u32, filename: bool) -> String {
    if filename {
        format!("{url}/{width}w")
    } else {
        format!("{url}?format={width}w")
    }
}

/// Every ladder width of `url`, narrowest first, as a `srcset`.
fn ladder_srcset(url: &str, filename: bool) -> String {
    let mut widths = crate::media::ladder::SIZE_LADDER;
    widths.sort_unstable();
    widths.iter().map(|w| format!("{} {w}w", sized_url(url, *w, filename))).collect::<Vec<_>>().join(", ")
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
    let filename = d.size_format.as_deref() == Some("filename");
    // With a srcset the browser picks the width; the image loader then only marks it loaded.
    let srcset = d.srcset.then(|| ladder_srcset(&full, filename));
    let shape = d.shape.as_deref().and_then(|name| Some((name, shape_proportion(name)?)));
    // A shaped image fills its frame around its focal point.
    let position = shape.and(d.focal_point.as_deref()).and_then(object_position);
    let img = html! {
        img src=(sized_url(&full, FALLBACK_WIDTH, filename)) srcset=[srcset.as_deref()] sizes=[d.srcset.then_some("100vw")]
            data-src=(full) data-image-dimensions=[d.image_dimensions.as_deref()]
            data-image-focal-point=[d.focal_point.as_deref()] data-crop-mode=[d.crop_mode.as_deref()]
            data-alignment=[d.alignment.as_deref()] data-size-adjustment=[d.size_adjustment]
            data-dpr-min=[d.dpr_min] data-dpr-max=[d.dpr_max] data-size-format=[d.size_format.as_deref()]
            style=[position] alt=(d.alt) loading="lazy" decoding="async" width=[width] height=[height];
    };
    let img = match shape {
        // The frame's class names the shape (its clip path) and its height for its width
        // (000 §9 shape mask aspect heights), both drawn by the critical stylesheet.
        Some((name, proportion)) => html! {
            span class={ "shape shape--" (proportion.aspect_height()) " shape-" (name) } { (img) }
        },
        None => img,
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

/// `object-position` of a focal point `x,y` (fractions of the width and height).
fn object_position(focal: &str) -> Option<String> {
    let (x, y) = focal.split_once(',')?;
    let fraction = |t: &str| t.trim().parse::<f64>().ok().filter(|v| (0.0..=1.0).contains(v));
    Some(format!("object-position:{}% {}%", fraction(x)? * 100.0, fraction(y)? * 100.0))
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
/// - `grid`: `slidesPerRow` (4) equal columns, `padding` (20) px between cells; under 767 px
///   wide at most 2 per row (the stylesheet's narrow-window rule, see [`grid_style`]).
///
/// The moving designs are laid out by the gallery island.
///
/// Each slide carries the spec's slide attributes (001 §3). A slideshow with a
/// `meta-position` shows captions over the slide at that position. With history enabled,
/// `linked` (the slide key of a deep link, 001 §2) names the slide shown current: its
/// item is `is-current` and the list says which key it was (`data-linked-slide`).
pub fn gallery(d: &GalleryBlock, linked: Option<&str>) -> Markup {
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
                Some("height:250px;width:100%".to_string()),
            )
        }
        GalleryDesign::List => {
            let gap = d.gutter.unwrap_or(20);
            (Some(format!("grid-template-columns:minmax(0,1fr);gap:{gap}px")), None, None)
        }
        GalleryDesign::Grid => (Some(grid_style(d)), None, None),
        _ => (None, None, None),
    };
    // The designs laid out here keep the placeholder; the island keeps it for the others.
    let laid_out = matches!(
        d.design,
        GalleryDesign::Grid | GalleryDesign::Autogrid | GalleryDesign::Autocolumns | GalleryDesign::List
    );
    let figure_style = match d.design {
        GalleryDesign::List => d
            .list_image_size
            .filter(|n| (1..100).contains(n))
            .map(|n| format!("display:grid;grid-template-columns:{n}% minmax(0,1fr);gap:1rem;align-items:start")),
        _ => None,
    };
    let current = linked.and_then(|key| d.linked_slide(key));
    let meta = match d.design {
        GalleryDesign::Slideshow => d.meta_position.as_deref().and_then(meta_position),
        _ => None,
    };
    html! {
        ul class={ "gallery gallery--" (design) } style=[list_style] data-lightbox-set[d.lightbox]
            data-lightbox-theme=[d.lightbox.then_some(if d.lightbox_theme == "light" { "light" } else { "dark" })]
            data-linked-slide=[current.and_then(|i| d.slides[i].history_key())] {
            @for (i, slide) in d.slides.iter().enumerate() {
                @let through = slide.click_through_url.as_deref().and_then(safe_href);
                // A gallery that is not mixed content shows a video slide as its poster,
                // linked to the player: an image to the gallery, no player in the page.
                @let player = slide.video_src.as_deref();
                @let video = player.filter(|_| d.mixed_content);
                @let size = dimensions(slide.image_dimensions.as_deref());
                @let image_style = image_style.clone().or_else(|| laid_out.then(|| placeholder_style(d, size.is_some())).flatten());
                li class=[(current == Some(i)).then_some("is-current")] style=[item_style.as_deref()]
                    data-type=(if video.is_some() { "video" } else { "image" })
                    data-slide-id=[(!slide.slide_id.is_empty()).then_some(slide.slide_id.as_str())]
                    data-slide-url=[slide.slide_url.as_deref()] data-click-through-url=[through]
                    data-image-dimensions=[size.map(|(w, h)| format!("{w}x{h}"))] {
                    figure class=[meta.is_some().then_some("gallery-overlay")] style=[figure_style.as_deref()] {
                        a href=(player.or(through).map(str::to_string).unwrap_or_else(|| image_url(&slide.src)))
                            data-lightbox[d.lightbox && through.is_none() && player.is_none()] {
                            img src=(fallback_url(&image_url(&slide.src))) data-src=(image_url(&slide.src))
                                data-image-focal-point=[slide.focal_point.as_deref()] alt=(slide.alt) loading="lazy" decoding="async"
                                width=[size.map(|s| s.0)] height=[size.map(|s| s.1)] style=[image_style.as_deref()];
                            @if slide.alt.trim().is_empty() {
                                span class="visually-hidden" { "Image " (i + 1) " of " (count) }
                            }
                        }
                        @if let Some(src) = video { (slide_video::player(src, &slide.alt)) }
                        @if !slide.caption.trim().is_empty() {
                            @if let Some(position) = meta {
                                // Reachable by keyboard until the island has measured it: before
                                // then (or without script) a long caption may scroll.
                                figcaption class={ "gallery-meta gallery-meta--" (position) } tabindex="0" role="group"
                                    aria-label={ "Caption of slide " (i + 1) } { (slide.caption) }
                            } @else {
                                figcaption { (slide.caption) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A grid's custom properties for the stylesheet's `.gallery--grid` rule: columns per row
/// on wide windows, per row under 767 px (never more than 2), and the gap.
fn grid_style(d: &GalleryBlock) -> String {
    let per_row = d.slides_per_row.filter(|n| *n > 0).unwrap_or(4);
    let padding = d.padding.unwrap_or(20);
    format!("--per-row:{per_row};--narrow-per-row:{};gap:{padding}px", per_row.min(2))
}

/// The space a slide's image keeps before it loads (001 §9 placeholder): with a ratio
/// `imageAspectRatio`, every image is cropped to 100 ÷ the ratio percent of its width high;
/// with 'Auto', an image of unknown size is 65 % of its width high until it has loaded (an
/// image whose size is known keeps it through its `width` and `height`).
fn placeholder_style(d: &GalleryBlock, sized: bool) -> Option<String> {
    let percent = placeholder_percent(&d.image_aspect_ratio);
    let ratio_given = d.image_aspect_ratio.trim().parse::<f64>().is_ok_and(|r| r.is_finite() && r > 0.0);
    let percent = format!("{percent:.3}");
    let percent = percent.trim_end_matches('0').trim_end_matches('.');
    match (ratio_given, sized) {
        (true, _) => Some(format!("aspect-ratio:100/{percent};height:auto")),
        (false, false) => Some(format!("aspect-ratio:auto 100/{percent}")),
        (false, true) => None,
    }
}

/// The slideshow caption positions (001 §3 `meta-position`); any other value leaves the
/// caption under the slide.
fn meta_position(position: &str) -> Option<&'static str> {
    ["top", "bottom", "top-left", "bottom-left", "top-right", "bottom-right", "center"]
        .into_iter()
        .find(|p| p.eq_ignore_ascii_case(position.trim()))
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

mod slide_video;

#[cfg(test)]
mod video_slide_tests;

#[cfg(test)]
mod gallery_tests;
#[cfg(test)]
mod image_tests;
#[cfg(test)]
mod tests;
