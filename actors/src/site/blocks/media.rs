//! Text and media blocks: text, image, video, embed, map.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::yes;

/// Headings and paragraphs. `html` is sanitised when the site is loaded.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextBlock {
    /// Rich text (headings, paragraphs, lists, links, emphasis).
    pub html: String,
}

/// An image from the site's `images/` folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageBlock {
    /// Path under `images/`, e.g. `porch.jpg`.
    pub src: String,
    /// Alternative text; required unless the image is decorative.
    #[serde(default)]
    pub alt: String,
    /// Caption shown under the image.
    #[serde(default)]
    #[ts(optional)]
    pub caption: Option<String>,
    /// `widthxheight` of the original (filled in from the file when omitted).
    #[serde(default)]
    #[ts(optional)]
    pub image_dimensions: Option<String>,
    /// Focal point `x,y` in fractions; default `0.5,0.5`.
    #[serde(default)]
    #[ts(optional)]
    pub focal_point: Option<String>,
    /// cover, contain or none.
    #[serde(default)]
    #[ts(optional)]
    pub crop_mode: Option<String>,
    /// left, center or right.
    #[serde(default)]
    #[ts(optional)]
    pub alignment: Option<String>,
    /// Link followed when the image is clicked.
    #[serde(default)]
    #[ts(optional)]
    pub click_through_url: Option<String>,
    /// Opens the image in the lightbox when clicked.
    #[serde(default)]
    pub lightbox: bool,
    /// Scales the width the image is loaded at (1 when not given; 0 or more), e.g. 0.5 for
    /// an image that may look softer, 1.5 for one that is zoomed into.
    #[serde(default)]
    #[ts(optional)]
    pub size_adjustment: Option<f64>,
    /// The lowest device pixel ratio the image is loaded for (a 1x screen may still get 2x).
    #[serde(default)]
    #[ts(optional)]
    pub dpr_min: Option<f64>,
    /// The highest device pixel ratio the image is loaded for (a 3x phone may get 2x).
    #[serde(default)]
    #[ts(optional)]
    pub dpr_max: Option<f64>,
    /// How a width is asked of the server: `queryString` (`photo.jpg?format=750w`, the
    /// default) or `filename` (`photo.jpg/750w`), for caches that ignore query strings.
    #[serde(default)]
    #[ts(optional)]
    pub size_format: Option<String>,
    /// Gives the image a `srcset` of every ladder width, so the browser picks one for its
    /// screen (before and without the script) instead of the image loader measuring it.
    #[serde(default)]
    pub srcset: bool,
    /// A shape mask (one of [`IMAGE_SHAPE_NAMES`](super::IMAGE_SHAPE_NAMES)): the image fills a
    /// frame of the shape's proportions, cropped around its focal point and clipped to the shape.
    #[serde(default)]
    #[ts(optional)]
    pub shape: Option<String>,
}

/// The size formats of an image (spec 001 §3): the width in the query string or in the
/// file name.
pub const IMAGE_SIZE_FORMATS: [&str; 2] = ["queryString", "filename"];

/// An embedded video (provider iframe) or a file from `files/`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VideoBlock {
    /// Embed HTML (an iframe or object, see [`video_embed_type`]); sanitised when the site
    /// is loaded, so only https iframes reach the page.
    #[serde(default)]
    pub html: String,
    /// The provider's name, e.g. YouTube, Vimeo, self.
    #[serde(default)]
    pub provider_name: String,
    /// Title for assistive technology and for visitors without JavaScript.
    pub title: String,
    /// Link to the video, shown when JavaScript is off.
    #[serde(default)]
    #[ts(optional)]
    pub url: Option<String>,
    /// Poster image under `images/`.
    #[serde(default)]
    #[ts(optional)]
    pub thumbnail: Option<String>,
    /// none, fit or fill.
    #[serde(default)]
    #[ts(optional)]
    pub mode: Option<String>,
    /// Shows a play overlay over the poster until clicked.
    #[serde(default = "yes")]
    pub overlay: bool,
    /// Starts playing on its own (off under `nomotion=true` and reduced motion).
    #[serde(default)]
    pub autoplay: bool,
}

/// What a video's embed HTML holds (spec 001 §3 "Video embed": iframe, object or invalid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VideoEmbedType {
    /// An `<iframe>`, at the top or nested inside other elements.
    Iframe,
    /// An `<object>` with an `<embed>` inside it.
    Object,
    /// Missing html, an object without an embed, or neither element.
    Invalid,
}

/// The message for a video whose embed is [`VideoEmbedType::Invalid`] (spec 001 §8).
pub const INVALID_VIDEO_EMBED: &str = "Invalid video embed.";

/// The embed type of `html` (spec 001 §5 "Embed type"): the first `<iframe>` or
/// `<object>` element decides, wherever it is nested; an object counts only with an
/// `<embed>` before its closing tag; missing html is invalid.
pub fn video_embed_type(html: &str) -> VideoEmbedType {
    let lower = html.to_ascii_lowercase();
    let opens = |name: &str| {
        lower.match_indices(name).map(|(i, _)| i).find(|&i| {
            lower[i + name.len()..].chars().next().is_some_and(|c| c == '>' || c == '/' || c.is_ascii_whitespace())
        })
    };
    match (opens("<iframe"), opens("<object")) {
        (Some(iframe), object) if object.is_none_or(|o| iframe < o) => VideoEmbedType::Iframe,
        (_, Some(object)) => {
            let inside = &lower[object..];
            let inside = inside.find("</object").map_or(inside, |end| &inside[..end]);
            let has_embed = inside.match_indices("<embed").any(|(i, _)| {
                inside[i + 6..].chars().next().is_some_and(|c| c == '>' || c == '/' || c.is_ascii_whitespace())
            });
            if has_embed {
                VideoEmbedType::Object
            } else {
                VideoEmbedType::Invalid
            }
        }
        _ => VideoEmbedType::Invalid,
    }
}

/// Arbitrary embedded HTML (sanitised, iframes kept only with https sources).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmbedBlock {
    /// The embed code.
    pub html: String,
    /// Title for assistive technology.
    pub title: String,
}

/// Video modes (spec 001 §5).
pub const VIDEO_MODES: [&str; 3] = ["none", "fit", "fill"];

/// The six map styles and their style ids (spec 001 §3 "Map widget").
pub const MAP_STYLES: [(&str, u8); 6] =
    [("Original", 1), ("Grayscale", 2), ("Satellite", 3), ("MinimalLight", 4), ("MinimalDark", 5), ("MinimalBlue", 6)];

/// A map with a marker (spec 001 §3 "Map widget").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapBlock {
    /// Centre latitude (default 40.720882).
    #[serde(default = "default_map_lat")]
    pub map_lat: f64,
    /// Centre longitude (default -74.000988).
    #[serde(default = "default_map_lng")]
    pub map_lng: f64,
    /// Marker latitude; null means the centre.
    #[serde(default)]
    pub marker_lat: Option<f64>,
    /// Marker longitude; null means the centre.
    #[serde(default)]
    pub marker_lng: Option<f64>,
    /// Zoom level (default 12).
    #[serde(default = "default_map_zoom")]
    pub map_zoom: u8,
    /// Name of the place.
    #[serde(default)]
    pub address_title: String,
    /// First address line.
    #[serde(default)]
    pub address_line1: String,
    /// Second address line.
    #[serde(default)]
    pub address_line2: String,
    /// Country.
    #[serde(default)]
    pub address_country: String,
    /// One of the six styles; default Grayscale.
    #[serde(default = "default_map_style")]
    pub style: String,
    /// Show place labels.
    #[serde(default = "yes")]
    pub show_labels: bool,
    /// Show terrain.
    #[serde(default)]
    pub show_terrain: bool,
    /// Map can be dragged.
    #[serde(default = "yes")]
    pub draggable: bool,
    /// Mouse wheel zooms.
    #[serde(default)]
    pub scrollwheel: bool,
    /// Show zoom controls.
    #[serde(default = "yes")]
    pub show_controls: bool,
    /// Hide every default control of the map (`disableDefaultUI`).
    #[serde(default, rename = "disableDefaultUI")]
    pub disable_default_ui: bool,
    /// The marker can be dragged.
    #[serde(default)]
    pub marker_draggable: bool,
    /// A click on the marker follows the place's link.
    #[serde(default)]
    pub link_on_click: bool,
    /// The map view config's location (001 §3): the location fields, nested. Folded into
    /// the flat fields when the site is loaded (a flat field wins), so never written out.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub location: Option<MapLocation>,
    /// The map view config's `ui` (001 §3): showControls, showTerrain, showLabels, style.
    /// Folded like `location`.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub ui: Option<MapUi>,
}

/// The `location` of a map view config: the location fields of 001 §3, each optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapLocation {
    /// Centre latitude.
    pub map_lat: Option<f64>,
    /// Centre longitude.
    pub map_lng: Option<f64>,
    /// Marker latitude.
    pub marker_lat: Option<f64>,
    /// Marker longitude.
    pub marker_lng: Option<f64>,
    /// Zoom level.
    pub map_zoom: Option<u8>,
    /// Name of the place.
    pub address_title: Option<String>,
    /// First address line.
    pub address_line1: Option<String>,
    /// Second address line.
    pub address_line2: Option<String>,
    /// Country.
    pub address_country: Option<String>,
}

/// The `ui` of a map view config (001 §3 "Map view config: location and ui {showControls,
/// showTerrain, showLabels, style}"), each optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapUi {
    /// Show zoom controls.
    pub show_controls: Option<bool>,
    /// Show terrain.
    pub show_terrain: Option<bool>,
    /// Show place labels.
    pub show_labels: Option<bool>,
    /// One of the six styles.
    pub style: Option<String>,
}

impl MapBlock {
    /// Moves the view config's values into the flat fields, except where `given` says the
    /// site file set the flat field itself; returns the flat names taken from the config,
    /// each with the config path it came from (e.g. `("style", "ui.style")`).
    pub fn fold_view_config(&mut self, given: impl Fn(&str) -> bool) -> Vec<(&'static str, &'static str)> {
        let mut taken = Vec::new();
        let location = self.location.take().unwrap_or_default();
        let ui = self.ui.take().unwrap_or_default();
        macro_rules! fold {
            ($value:expr, $field:ident, $name:literal, $path:literal, $wrap:expr) => {
                if let Some(value) = $value {
                    if !given($name) {
                        self.$field = $wrap(value);
                        taken.push(($name, $path));
                    }
                }
            };
        }
        fold!(location.map_lat, map_lat, "mapLat", "location.mapLat", |v| v);
        fold!(location.map_lng, map_lng, "mapLng", "location.mapLng", |v| v);
        fold!(location.marker_lat, marker_lat, "markerLat", "location.markerLat", Some);
        fold!(location.marker_lng, marker_lng, "markerLng", "location.markerLng", Some);
        fold!(location.map_zoom, map_zoom, "mapZoom", "location.mapZoom", |v| v);
        fold!(location.address_title, address_title, "addressTitle", "location.addressTitle", |v| v);
        fold!(location.address_line1, address_line1, "addressLine1", "location.addressLine1", |v| v);
        fold!(location.address_line2, address_line2, "addressLine2", "location.addressLine2", |v| v);
        fold!(location.address_country, address_country, "addressCountry", "location.addressCountry", |v| v);
        fold!(ui.show_controls, show_controls, "showControls", "ui.showControls", |v| v);
        fold!(ui.show_terrain, show_terrain, "showTerrain", "ui.showTerrain", |v| v);
        fold!(ui.show_labels, show_labels, "showLabels", "ui.showLabels", |v| v);
        fold!(ui.style, style, "style", "ui.style", |v| v);
        taken
    }
}

fn default_map_lat() -> f64 {
    40.720882
}
fn default_map_lng() -> f64 {
    -74.000988
}
fn default_map_zoom() -> u8 {
    12
}
fn default_map_style() -> String {
    "Grayscale".into()
}
