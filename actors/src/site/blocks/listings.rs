//! Blocks that list things: summary, gallery, audio, calendar, chart, search, tour dates,
//! restaurant booking, menu tabs, social sharing.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{default_auto, yes, SnapPoints, SwipeBoundaries};
use crate::domain::enums::GalleryDesign;

/// A summary of a collection's items (the server renders it from the collection).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SummaryBlock {
    /// The collection summarised, by its folder name.
    pub collection: String,
    /// wall, carousel, list or grid.
    #[serde(default = "default_summary_design")]
    pub design: String,
    /// Heading.
    #[serde(default)]
    pub header_text: String,
    /// How many items.
    #[serde(default = "default_page_size")]
    pub page_size: u32,
    /// 'Auto' or a ratio such as '1.5'.
    #[serde(default = "default_auto")]
    pub image_aspect_ratio: String,
    /// Show titles.
    #[serde(default = "yes")]
    pub show_title: bool,
    /// Show excerpts.
    #[serde(default = "yes")]
    pub show_excerpt: bool,
    /// Only items with this category.
    #[serde(default)]
    #[ts(optional)]
    pub filter_category: Option<String>,
}

fn default_summary_design() -> String {
    "list".into()
}
fn default_page_size() -> u32 {
    6
}

/// One slide of a gallery.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GallerySlide {
    /// Image under `images/`.
    pub src: String,
    /// Alternative text.
    #[serde(default)]
    pub alt: String,
    /// Caption (the lightbox meta).
    #[serde(default)]
    pub caption: String,
    /// Slide id for gallery history.
    #[serde(default)]
    pub slide_id: String,
    /// Slide url for gallery history.
    #[serde(default)]
    #[ts(optional)]
    pub slide_url: Option<String>,
    /// Click-through url.
    #[serde(default)]
    #[ts(optional)]
    pub click_through_url: Option<String>,
    /// Focal point `x,y`.
    #[serde(default)]
    #[ts(optional)]
    pub focal_point: Option<String>,
    /// `widthxheight` of the image; read from the file at load when not given, so pages
    /// reserve the slide's space before the image arrives.
    #[serde(default)]
    #[ts(optional)]
    pub image_dimensions: Option<String>,
    /// Makes this a video slide: the embed (an iframe from an allowed provider, as a video
    /// block's `html`); the slide's image is the video's poster.
    #[serde(default)]
    #[ts(optional)]
    pub video_html: Option<String>,
    /// The video's player address, set by the site loader from `video_html` once its
    /// provider is allowed; never read from a site's files nor written to the page's data.
    #[serde(skip)]
    pub video_src: Option<String>,
}

/// A gallery (spec 001 §3 "Gallery block data").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct GalleryBlock {
    /// The design; the spec's default design, base (`stacked`), when not given (001 §9).
    #[serde(default = "base_design")]
    pub design: GalleryDesign,
    /// The slides.
    pub slides: Vec<GallerySlide>,
    /// 'Auto' or a ratio (width ÷ height): sets the placeholder an image keeps until it has
    /// loaded, 100 ÷ the ratio percent of its width high (65 % for 'Auto'; 001 §9).
    #[serde(rename = "imageAspectRatio", default = "default_auto")]
    pub image_aspect_ratio: String,
    /// Whether video slides play among the images (true by default); a gallery that says
    /// false shows every slide as an image, a video slide its poster linked to the player.
    #[serde(rename = "mixedContent", default = "yes")]
    pub mixed_content: bool,
    /// A list's image width in percent of the row (1–100; 100 when not given: the caption
    /// under the image, otherwise beside it).
    #[serde(rename = "listImageSize", default)]
    #[ts(optional)]
    pub list_image_size: Option<u32>,
    /// Square thumbnails in a slideshow's strip (true by default); false keeps each image's
    /// proportions (16:9 for a video slide).
    #[serde(rename = "square-thumbs", default = "yes")]
    pub square_thumbs: bool,
    /// A slideshow crops every slide to one frame of the placeholder's proportions
    /// (`imageAspectRatio`) instead of showing each image whole.
    #[serde(rename = "auto-crop", default)]
    pub auto_crop: bool,
    /// Height of a slideshow's thumbnails in px (when not given, they share the strip's
    /// width by `thumbnails-per-row`).
    #[serde(rename = "thumbnail-strip-height", default)]
    #[ts(optional)]
    pub thumbnail_strip_height: Option<u32>,
    /// Space between a slideshow and its thumbnail strip in px (8 when not given).
    #[serde(rename = "thumbnail-strip-margin", default)]
    #[ts(optional)]
    pub thumbnail_strip_margin: Option<u32>,
    /// Slides per row (grid, carousel).
    #[serde(rename = "slidesPerRow", default)]
    #[ts(optional)]
    pub slides_per_row: Option<u32>,
    /// Opens slides in the lightbox.
    #[serde(default = "yes")]
    pub lightbox: bool,
    /// 'light', otherwise dark.
    #[serde(rename = "lightboxTheme", default)]
    pub lightbox_theme: String,
    /// Column width of auto-columns designs: a positive number (in a site file also a string
    /// of digits, read as one when the site is loaded; 001 §5 "strings parsed as integer").
    #[serde(rename = "columnWidth", default)]
    #[ts(optional)]
    pub column_width: Option<u32>,
    /// Gutter in px.
    #[serde(default)]
    #[ts(optional)]
    pub gutter: Option<u32>,
    /// How an autogrid or autocolumns gallery rounds its column count: `min` (the default)
    /// rounds down, `max` up (001 §9: "behaviour min (floor) else ceil").
    #[serde(default)]
    #[ts(optional)]
    pub behavior: Option<String>,
    /// Autoplay.
    #[serde(default)]
    pub autoplay: bool,
    /// Autoplay picks a slide at random, never the current one, instead of the next (the
    /// gallery option `autoplayOptions.randomize`, 001 §3).
    #[serde(rename = "autoplay-randomize", default)]
    pub autoplay_randomize: bool,
    /// Autoplay interval in seconds.
    #[serde(rename = "autoplay-duration", default)]
    #[ts(optional)]
    pub autoplay_duration: Option<f64>,
    /// left, center or right.
    #[serde(rename = "active-alignment", default)]
    #[ts(optional)]
    pub active_alignment: Option<String>,
    /// Thumbnails per row under a slideshow.
    #[serde(rename = "thumbnails-per-row", default)]
    #[ts(optional)]
    pub thumbnails_per_row: Option<u32>,
    /// Show a thumbnail strip.
    #[serde(default)]
    pub thumbnails: bool,
    /// Caption position.
    #[serde(rename = "meta-position", default)]
    #[ts(optional)]
    pub meta_position: Option<String>,
    /// Slideshow transition: fade, ken-burns, scroll, swipe, new-swipe.
    #[serde(default)]
    #[ts(optional)]
    pub transition: Option<String>,
    /// A newSwipe slideshow's boundaries at its first and last slide (none at either end
    /// when not given: the slideshow wraps).
    #[serde(default)]
    #[ts(optional)]
    pub boundaries: Option<SwipeBoundaries>,
    /// Where a released newSwipe drag settles (`none` when not given).
    #[serde(rename = "snapPoints", default)]
    #[ts(optional)]
    pub snap_points: Option<SnapPoints>,
    /// Enables gallery history (deep links to slides).
    #[serde(rename = "historyEnabled", default)]
    pub history_enabled: bool,
    /// Space between grid cells in px (grid; 20 by default).
    #[serde(default)]
    #[ts(optional)]
    pub padding: Option<u32>,
    /// Space between a slider strip's slides in px (slider; 10 by default).
    #[serde(rename = "vSize", default)]
    #[ts(optional)]
    pub v_size: Option<u32>,
    /// What a click on a slideshow slide does: next, previous or side (next by default).
    #[serde(rename = "clickBehavior", default)]
    #[ts(optional)]
    pub click_behavior: Option<String>,
    /// What a click on a slider strip's current slide, or a slideshow's current thumbnail,
    /// does: next, previous or none (next by default).
    #[serde(rename = "activeSlideClickBehavior", default)]
    #[ts(optional)]
    pub active_slide_click_behavior: Option<String>,
}

fn base_design() -> GalleryDesign {
    GalleryDesign::Stacked
}

/// The placeholder's height in percent of its width for an `imageAspectRatio` (001 §9): 100 ÷
/// the ratio, or 65 for 'Auto' (and for anything that is not a positive ratio).
pub fn placeholder_percent(image_aspect_ratio: &str) -> f64 {
    match image_aspect_ratio.trim().parse::<f64>() {
        Ok(ratio) if ratio.is_finite() && ratio > 0.0 => 100.0 / ratio,
        _ => 65.0,
    }
}

/// Slideshow click behaviours (`clickBehavior`).
pub const GALLERY_CLICK_BEHAVIORS: [&str; 3] = ["next", "previous", "side"];
/// Behaviours of a click on a strip's current slide (`activeSlideClickBehavior`).
pub const GALLERY_ACTIVE_CLICK_BEHAVIORS: [&str; 3] = ["next", "previous", "none"];
/// How an auto-columns gallery rounds its column count (`behavior`): down or up.
pub const GALLERY_COLUMN_BEHAVIORS: [&str; 2] = ["min", "max"];

/// An audio track from `files/`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AudioBlock {
    /// File under `files/`.
    pub src: String,
    /// Track title.
    pub title: String,
    /// Artist.
    #[serde(default)]
    pub author: String,
}

/// A month calendar of an events collection.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CalendarBlock {
    /// The events collection, by folder name.
    pub collection: String,
}

/// A chart from inline data.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChartBlock {
    /// bar, line or pie.
    pub chart_type: String,
    /// Title (also the table caption without JavaScript).
    pub title: String,
    /// Column labels.
    pub labels: Vec<String>,
    /// Named series, one value per label.
    pub series: Vec<ChartSeries>,
}

/// One series of a chart.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChartSeries {
    /// Series name.
    pub name: String,
    /// Values, one per label.
    pub values: Vec<f64>,
}

/// A search box posting to `/search`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchBlock {
    /// Placeholder text.
    #[serde(default = "default_search")]
    pub placeholder: String,
    /// Limit results to one collection, by folder name.
    #[serde(default)]
    #[ts(optional)]
    pub collection: Option<String>,
    /// Show a live preview of results while typing.
    #[serde(default)]
    pub preview: bool,
}

fn default_search() -> String {
    "Search".into()
}

/// One tour date.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TourDate {
    /// ISO date.
    pub date: String,
    /// Venue name.
    pub venue: String,
    /// City.
    pub city: String,
    /// Ticket link.
    #[serde(default)]
    #[ts(optional)]
    pub ticket_url: Option<String>,
}

/// A list of tour dates.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TourDatesBlock {
    /// Artist name.
    pub artist: String,
    /// The dates.
    pub dates: Vec<TourDate>,
}

/// A restaurant reservation widget.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RestaurantBookingBlock {
    /// opentable or tock.
    pub provider: String,
    /// The provider's restaurant id.
    pub restaurant_id: String,
    /// Restaurant name, shown without JavaScript.
    pub restaurant_name: String,
    /// Phone number, shown without JavaScript.
    #[serde(default)]
    #[ts(optional)]
    pub phone: Option<String>,
}

/// One tab of a menu block.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MenuTab {
    /// Tab label.
    pub title: String,
    /// Dishes.
    pub items: Vec<MenuItem>,
}

/// One dish.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MenuItem {
    /// Dish name.
    pub name: String,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Price text, e.g. "12".
    #[serde(default)]
    pub price: String,
}

/// A restaurant menu with tabs.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MenuTabsBlock {
    /// The tabs (one active at a time).
    pub tabs: Vec<MenuTab>,
}

/// Social sharing buttons.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SocialSharingBlock {
    /// Services, e.g. email, facebook, x, linkedin, pinterest.
    pub services: Vec<String>,
    /// An X account to follow (spec 001 §3 "Follow button": username), without the `@`;
    /// the block then also offers a follow button.
    #[serde(default)]
    #[ts(optional)]
    pub follow_username: Option<String>,
}
