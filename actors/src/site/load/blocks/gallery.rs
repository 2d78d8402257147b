//! A gallery block's checks: its slides (files, alternative text, links, video embeds) and
//! the spec's gallery block data (001 §3), each value in its range.

use super::super::rules::MAX_GALLERY_SLIDES;
use super::Loader;
use crate::site::blocks::{
    snap_percent, GalleryBlock, SnapPoints, GALLERY_ACTIVE_CLICK_BEHAVIORS, GALLERY_CLICK_BEHAVIORS,
    GALLERY_COLUMN_BEHAVIORS, INVALID_VIDEO_EMBED, NO_SNAP_POINTS,
};

/// A gallery's `columnWidth` given as a string of digits (`"300"`) becomes that number
/// (001 §5: "strings parsed as integer"); any other string is left for the block's own
/// reading to refuse.
pub(super) fn read_whole_numbers(table: &mut toml::Table) {
    if let Some(toml::Value::String(text)) = table.get("columnWidth") {
        if let Ok(n) = text.trim().parse::<u32>() {
            table.insert("columnWidth".into(), toml::Value::Integer(i64::from(n)));
        }
    }
}

impl Loader {
    /// Checks the gallery at `path` of `file`, reading each slide's image size when the slide
    /// does not give it and keeping each video slide's player address.
    pub(super) fn check_gallery(&mut self, file: &str, path: &str, gallery: &mut GalleryBlock) {
        let at = |field: &str| format!("{path}.{field}");
        if gallery.slides.is_empty() {
            self.problems.add(file, at("slides"), "needs at least one slide");
        }
        if gallery.slides.len() > MAX_GALLERY_SLIDES {
            let message =
                format!("has {} slides; a gallery may have at most {MAX_GALLERY_SLIDES}", gallery.slides.len());
            self.problems.add(file, at("slides"), message);
        }
        let click = gallery.click_behavior.as_deref();
        self.one_of(file, &at("clickBehavior"), click, &GALLERY_CLICK_BEHAVIORS);
        let active = gallery.active_slide_click_behavior.as_deref();
        self.one_of(file, &at("activeSlideClickBehavior"), active, &GALLERY_ACTIVE_CLICK_BEHAVIORS);
        self.one_of(file, &at("behavior"), gallery.behavior.as_deref(), &GALLERY_COLUMN_BEHAVIORS);
        self.check_gallery_sizes(file, path, gallery);
        self.check_snap_points(file, &at("snapPoints"), gallery.snap_points.as_ref());
        for (i, slide) in gallery.slides.iter_mut().enumerate() {
            self.check_file(file, &format!("{path}.slides[{i}].src"), "images", &slide.src);
            if slide.image_dimensions.is_none() {
                slide.image_dimensions = self.image_size(&slide.src).map(|(w, h)| format!("{w}x{h}"));
            }
            self.require_alt(file, &format!("{path}.slides[{i}].alt"), &slide.alt);
            let link = slide.click_through_url.as_deref();
            self.check_link(file, &format!("{path}.slides[{i}].clickThroughUrl"), link);
            if let Some(html) = slide.video_html.take() {
                let field = format!("{path}.slides[{i}].videoHtml");
                slide.video_src = self.slide_video(file, &field, &html, link.is_some());
                slide.video_html = Some(crate::site::sanitize::embed(&html));
            }
        }
    }

    /// `imageAspectRatio` is 'Auto' or a positive ratio; `listImageSize` a percentage of 1 to
    /// 100; a thumbnail strip's height is at least 1 px.
    fn check_gallery_sizes(&mut self, file: &str, path: &str, gallery: &GalleryBlock) {
        let ratio = gallery.image_aspect_ratio.trim();
        let positive = ratio.parse::<f64>().is_ok_and(|r| r.is_finite() && r > 0.0);
        if !ratio.eq_ignore_ascii_case("auto") && !positive {
            let message = format!("'{ratio}' must be 'Auto' or a positive ratio such as 1.5");
            self.problems.add(file, format!("{path}.imageAspectRatio"), message);
        }
        if let Some(size) = gallery.list_image_size.filter(|s| !(1..=100).contains(s)) {
            let message = format!("{size} must be a percentage from 1 to 100");
            self.problems.add(file, format!("{path}.listImageSize"), message);
        }
        if gallery.thumbnail_strip_height == Some(0) {
            self.problems.add(file, format!("{path}.thumbnail-strip-height"), "must be at least 1 (px)");
        }
    }

    /// A newSwipe slideshow's `snapPoints` is `none` or a list of percentages from 0% to 100%
    /// (001 §5: "snapPoints end with % or be none"); its `boundaries` are checked as they are
    /// read (each end none, hard or inertial).
    fn check_snap_points(&mut self, file: &str, field: &str, points: Option<&SnapPoints>) {
        match points {
            None => {}
            Some(SnapPoints::Named(word)) if word == NO_SNAP_POINTS => {}
            Some(SnapPoints::Named(word)) => {
                let message =
                    format!("'{word}' must be {NO_SNAP_POINTS} or a list of percentages such as [\"0%\", \"50%\"]");
                self.problems.add(file, field, message);
            }
            Some(SnapPoints::At(list)) => {
                for (i, point) in list.iter().enumerate().filter(|(_, p)| snap_percent(p).is_none()) {
                    let message = format!("'{point}' must be a percentage from 0% to 100%, such as \"50%\"");
                    self.problems.add(file, format!("{field}[{i}]"), message);
                }
            }
        }
    }

    /// The player address of a gallery video slide's embed: an iframe from an allowed
    /// provider, on a slide without a click-through link (the video is what a click plays).
    fn slide_video(&mut self, file: &str, field: &str, html: &str, linked: bool) -> Option<String> {
        use crate::site::embeds::{not_allowed_message, video_embed, EmbedRefusal, VideoEmbed};
        if linked {
            self.problems.add(file, field, "a video slide cannot also have a clickThroughUrl");
        }
        match video_embed(html, &self.embeds) {
            Ok(VideoEmbed::Iframe { src, .. }) => return Some(src),
            Ok(VideoEmbed::Object { .. }) => self.problems.add(file, field, "a video slide needs an iframe embed"),
            Err(EmbedRefusal::Invalid) => self.problems.add(file, field, INVALID_VIDEO_EMBED),
            Err(EmbedRefusal::NotAllowed(src)) => self.problems.add(file, field, not_allowed_message(&src)),
        }
        None
    }
}

#[cfg(test)]
mod tests;
