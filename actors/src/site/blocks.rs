//! Blocks: the content units of a page, one data struct per block kind.
//!
//! In a site file a block is a `[[blocks]]` table with `kind`, `id` and the kind's own
//! fields. Rendered, it becomes an element with `id="block-<id>"`,
//! `data-block-type="<kind>"` and the kind's data serialised into `data-block-json`.
//! Field names follow the spec's block data (camelCase, and the gallery's own
//! hyphenated names).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::domain::enums::GalleryDesign;

/// Every block kind a page can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum BlockKind {
    Text,
    Image,
    Video,
    Embed,
    Map,
    Form,
    Newsletter,
    DonationButton,
    Accordion,
    Marquee,
    ScaledText,
    Button,
    MemberArea,
    Summary,
    Gallery,
    Audio,
    Calendar,
    Chart,
    Search,
    TourDates,
    RestaurantBooking,
    MenuTabs,
    SocialSharing,
    Product,
    Cart,
}

impl BlockKind {
    /// Every kind, in declaration order.
    pub const ALL: [BlockKind; 25] = [
        BlockKind::Text, BlockKind::Image, BlockKind::Video, BlockKind::Embed, BlockKind::Map,
        BlockKind::Form, BlockKind::Newsletter, BlockKind::DonationButton, BlockKind::Accordion,
        BlockKind::Marquee, BlockKind::ScaledText, BlockKind::Button, BlockKind::MemberArea,
        BlockKind::Summary, BlockKind::Gallery, BlockKind::Audio, BlockKind::Calendar,
        BlockKind::Chart, BlockKind::Search, BlockKind::TourDates, BlockKind::RestaurantBooking,
        BlockKind::MenuTabs, BlockKind::SocialSharing, BlockKind::Product, BlockKind::Cart,
    ];

    /// The kebab-case name used in site files and in `data-block-type`.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Text => "text",
            BlockKind::Image => "image",
            BlockKind::Video => "video",
            BlockKind::Embed => "embed",
            BlockKind::Map => "map",
            BlockKind::Form => "form",
            BlockKind::Newsletter => "newsletter",
            BlockKind::DonationButton => "donation-button",
            BlockKind::Accordion => "accordion",
            BlockKind::Marquee => "marquee",
            BlockKind::ScaledText => "scaled-text",
            BlockKind::Button => "button",
            BlockKind::MemberArea => "member-area",
            BlockKind::Summary => "summary",
            BlockKind::Gallery => "gallery",
            BlockKind::Audio => "audio",
            BlockKind::Calendar => "calendar",
            BlockKind::Chart => "chart",
            BlockKind::Search => "search",
            BlockKind::TourDates => "tour-dates",
            BlockKind::RestaurantBooking => "restaurant-booking",
            BlockKind::MenuTabs => "menu-tabs",
            BlockKind::SocialSharing => "social-sharing",
            BlockKind::Product => "product",
            BlockKind::Cart => "cart",
        }
    }

    /// The kind with this name, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the loader hydrates this kind with an island (a lazy chunk).
    /// Kinds that are complete as server HTML return false.
    pub fn needs_island(self) -> bool {
        !matches!(self, BlockKind::Text | BlockKind::Image | BlockKind::Audio | BlockKind::ScaledText)
    }
}

/// One block of a page.
#[derive(Debug, Clone, Serialize)]
pub struct Block {
    /// 24 lowercase alphanumerics, unique in the site; the element id is `block-<id>`.
    pub id: String,
    /// The block's data, which also says its kind.
    pub data: BlockData,
}

impl Block {
    /// The block's kind.
    pub fn kind(&self) -> BlockKind {
        self.data.kind()
    }
}

macro_rules! block_data {
    ($( $variant:ident($ty:ident) ),+ $(,)?) => {
        /// The data of a block, by kind.
        #[derive(Debug, Clone, Serialize)]
        #[serde(untagged)]
        pub enum BlockData {
            $( $variant($ty) ),+
        }

        impl BlockData {
            /// The kind of block this data belongs to.
            pub fn kind(&self) -> BlockKind {
                match self { $( BlockData::$variant(_) => BlockKind::$variant ),+ }
            }

            /// Parses the fields of a block of `kind` (everything but `kind` and `id`).
            pub fn parse(kind: BlockKind, fields: toml::Value) -> Result<Self, toml::de::Error> {
                Ok(match kind { $( BlockKind::$variant => BlockData::$variant(fields.try_into()?) ),+ })
            }

            /// TypeScript declarations of every block's data type.
            pub fn ts_declarations() -> Vec<String> {
                vec![ $( <$ty as TS>::decl(&ts_rs::Config::default()) ),+ ]
            }
        }
    };
}

block_data! {
    Text(TextBlock),
    Image(ImageBlock),
    Video(VideoBlock),
    Embed(EmbedBlock),
    Map(MapBlock),
    Form(FormBlock),
    Newsletter(NewsletterBlock),
    DonationButton(DonationButtonBlock),
    Accordion(AccordionBlock),
    Marquee(MarqueeBlock),
    ScaledText(ScaledTextBlock),
    Button(ButtonBlock),
    MemberArea(MemberAreaBlock),
    Summary(SummaryBlock),
    Gallery(GalleryBlock),
    Audio(AudioBlock),
    Calendar(CalendarBlock),
    Chart(ChartBlock),
    Search(SearchBlock),
    TourDates(TourDatesBlock),
    RestaurantBooking(RestaurantBookingBlock),
    MenuTabs(MenuTabsBlock),
    SocialSharing(SocialSharingBlock),
    Product(ProductBlock),
    Cart(CartBlock),
}

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
}

/// An embedded video (provider iframe) or a file from `files/`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VideoBlock {
    /// Embed HTML (an iframe or object), validated by the video island.
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

fn yes() -> bool {
    true
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

/// A form field kind (spec 000 §3 "Form builder field kinds").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum FieldKind {
    Text,
    Textarea,
    Email,
    Number,
    Website,
    Currency,
    Password,
    Twitter,
    Date,
    Time,
    Name,
    Address,
    Phone,
    Section,
    Radio,
    Checkbox,
    Select,
    Likert,
    Hidden,
}

/// One field of a form.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormField {
    /// Field id, unique in the form; the key of the submitted `form` map.
    pub id: String,
    /// Field kind.
    #[serde(rename = "type")]
    pub kind: FieldKind,
    /// Label shown to visitors.
    #[serde(default)]
    pub title: String,
    /// Help text under the label.
    #[serde(default)]
    pub description: String,
    /// Placeholder text.
    #[serde(default)]
    pub placeholder: String,
    /// Whether a value is required.
    #[serde(default)]
    pub required: bool,
    /// Options of radio, checkbox, select; questions of likert.
    #[serde(default)]
    pub options: Vec<String>,
    /// Textarea maximum length (0: no limit).
    #[serde(default)]
    #[ts(optional)]
    pub max_length: Option<i64>,
    /// Currency symbol of a currency field.
    #[serde(default)]
    #[ts(optional)]
    pub currency_symbol: Option<String>,
    /// Phone fields: show the country code part.
    #[serde(default)]
    pub show_country_code: bool,
    /// Section: draw an underline.
    #[serde(default)]
    pub underline: bool,
    /// Hidden fields: the query parameter name.
    #[serde(default)]
    #[ts(optional)]
    pub key: Option<String>,
    /// Hidden fields: the default value.
    #[serde(default)]
    #[ts(optional)]
    pub value: Option<String>,
}

/// A form (spec 000 §3, §4).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormBlock {
    /// Form id, unique in the site (`formId` of the save call).
    pub form_id: String,
    /// Heading above the fields.
    #[serde(default)]
    pub title: String,
    /// The fields, in order.
    pub fields: Vec<FormField>,
    /// Submit button text.
    #[serde(default = "default_submit")]
    pub submit_button_text: String,
    /// Text shown after a successful submission.
    #[serde(default = "default_success")]
    pub success_message: String,
    /// Optional HTML shown after the success text (sanitised).
    #[serde(default)]
    pub post_submit_html: String,
    /// Same-site path visitors are sent to after success, instead of the message.
    #[serde(default)]
    #[ts(optional)]
    pub success_redirect: Option<String>,
    /// Whether the form asks for a captcha.
    #[serde(default)]
    pub captcha: bool,
    /// Disclaimer text shown above the submit button.
    #[serde(default)]
    pub disclaimer: String,
}

fn default_submit() -> String {
    "Submit".into()
}
fn default_success() -> String {
    "Thank you!".into()
}

/// A newsletter sign-up (a one-field form that adds to a mailing list).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewsletterBlock {
    /// Form id (`formId` of the save call).
    pub form_id: String,
    /// Heading.
    pub title: String,
    /// Text under the heading.
    #[serde(default)]
    pub description: String,
    /// Name of the mailing list addresses are added to.
    pub mailing_list: String,
    /// Submit button text.
    #[serde(default = "default_signup")]
    pub submit_button_text: String,
    /// Text shown after signing up.
    #[serde(default = "default_success")]
    pub success_message: String,
    /// Whether the form asks for a captcha.
    #[serde(default)]
    pub captcha: bool,
}

fn default_signup() -> String {
    "Sign Up".into()
}

/// A donation button leading to `/checkout/donate?donatePageId=…`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DonationButtonBlock {
    /// The donation page id.
    pub donate_page_id: String,
    /// Button text.
    #[serde(default = "default_donate")]
    pub button_text: String,
    /// Suggested amounts, in cents.
    #[serde(default)]
    pub suggested_amounts_cents: Vec<u64>,
}

fn default_donate() -> String {
    "Donate".into()
}

/// One accordion item.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccordionItem {
    /// The clickable title.
    pub title: String,
    /// The panel's rich text.
    pub html: String,
}

/// An accordion.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccordionBlock {
    /// The items.
    pub accordion_items: Vec<AccordionItem>,
    /// Optional description above the items.
    #[serde(default)]
    pub description: String,
    /// Whether several items may be open at once.
    #[serde(default)]
    pub allow_multiple_open: bool,
    /// Whether the first item starts expanded.
    #[serde(default)]
    pub is_first_item_expanded: bool,
}

/// Scrolling text (spec 001 §3 "Marquee block props").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarqueeBlock {
    /// The text that scrolls.
    pub text: String,
    /// Wave frequency (default 1).
    #[serde(default = "one")]
    pub wave_frequency: f64,
    /// Wave intensity (default 0).
    #[serde(default)]
    pub wave_intensity: f64,
    /// left or right (default left).
    #[serde(default = "default_direction")]
    pub animation_direction: String,
    /// Speed factor (default 1).
    #[serde(default = "one")]
    pub animation_speed: f64,
    /// Pause while hovered (default false).
    #[serde(default)]
    pub paused_on_hover: bool,
}

fn one() -> f64 {
    1.0
}
fn default_direction() -> String {
    "left".into()
}

/// Text that scales to fit its container (minimum font size 11 px).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScaledTextBlock {
    /// The text.
    pub text: String,
    /// Heading level 1–4, or 0 for a paragraph.
    #[serde(default)]
    pub level: u8,
}

/// A button link.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ButtonBlock {
    /// Button text.
    pub button_text: String,
    /// Where it goes.
    pub clickthrough_url: String,
    /// left, center or right.
    #[serde(default = "default_center")]
    pub alignment: String,
    /// small, medium or large.
    #[serde(default = "default_medium")]
    pub size: String,
    /// Opens in a new window.
    #[serde(default)]
    pub new_window: bool,
}

fn default_center() -> String {
    "center".into()
}
fn default_medium() -> String {
    "medium".into()
}

/// One price option of the member access pricing toggle.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PricingOption {
    /// Toggle label, e.g. Monthly.
    pub label: String,
    /// Price in cents.
    pub price_cents: u64,
    /// Billing period: weekly, monthly or yearly.
    pub billing_period: String,
    /// Join button text.
    #[serde(default = "default_join")]
    pub join_text: String,
}

fn default_join() -> String {
    "Join".into()
}

/// A member area: sign-up with a two-option pricing toggle.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberAreaBlock {
    /// Heading.
    pub title: String,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Exactly two price options (left and right).
    pub pricing_options: Vec<PricingOption>,
}

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
fn default_auto() -> String {
    "Auto".into()
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
}

/// A gallery (spec 001 §3 "Gallery block data").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct GalleryBlock {
    /// The design.
    #[serde(default)]
    pub design: GalleryDesign,
    /// The slides.
    pub slides: Vec<GallerySlide>,
    /// 'Auto' or a ratio.
    #[serde(rename = "imageAspectRatio", default = "default_auto")]
    pub image_aspect_ratio: String,
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
    /// Column width of auto-columns designs.
    #[serde(rename = "columnWidth", default)]
    #[ts(optional)]
    pub column_width: Option<u32>,
    /// Gutter in px.
    #[serde(default)]
    #[ts(optional)]
    pub gutter: Option<u32>,
    /// Autoplay.
    #[serde(default)]
    pub autoplay: bool,
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
    /// Enables gallery history (deep links to slides).
    #[serde(rename = "historyEnabled", default)]
    pub history_enabled: bool,
}

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
}

/// A product with quick view and add to cart.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProductBlock {
    /// The product item, as `collection/item` folder and file names.
    pub product: String,
    /// Offer a quick view.
    #[serde(default = "yes")]
    pub quick_view: bool,
}

/// The cart: a full-page cart where the cart root exists, or a badge.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CartBlock {
    /// full (the cart page) or badge.
    #[serde(default = "default_full")]
    pub variant: String,
}

fn default_full() -> String {
    "full".into()
}
