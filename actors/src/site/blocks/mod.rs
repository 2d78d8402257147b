//! Blocks: the content units of a page, one data struct per block kind.
//!
//! In a site file a block is a `[[blocks]]` table with `kind`, `id` and the kind's own
//! fields. Rendered, it becomes an element with `id="block-<id>"`,
//! `data-block-type="<kind>"` and the kind's data serialised into `data-block-json`.
//! Field names follow the spec's block data (camelCase, and the gallery's own
//! hyphenated names).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::domain::enums::{GalleryDesign, LayoutVariant};
use crate::domain::islands::IslandKind;

mod commerce;
mod content;
mod forms;
mod listings;
mod media;
mod shapes;
mod swipe;

pub use commerce::*;
pub use content::*;
pub use forms::*;
pub use listings::*;
pub use media::*;
pub use shapes::*;
pub use swipe::*;

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
        BlockKind::Text,
        BlockKind::Image,
        BlockKind::Video,
        BlockKind::Embed,
        BlockKind::Map,
        BlockKind::Form,
        BlockKind::Newsletter,
        BlockKind::DonationButton,
        BlockKind::Accordion,
        BlockKind::Marquee,
        BlockKind::ScaledText,
        BlockKind::Button,
        BlockKind::MemberArea,
        BlockKind::Summary,
        BlockKind::Gallery,
        BlockKind::Audio,
        BlockKind::Calendar,
        BlockKind::Chart,
        BlockKind::Search,
        BlockKind::TourDates,
        BlockKind::RestaurantBooking,
        BlockKind::MenuTabs,
        BlockKind::SocialSharing,
        BlockKind::Product,
        BlockKind::Cart,
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

    /// The island the loader hydrates this kind with, if any. Kinds whose server HTML is
    /// complete have none and are never marked (see [`IslandKind`] for each one's reason).
    pub fn island(self) -> Option<IslandKind> {
        match self {
            BlockKind::Video => Some(IslandKind::Video),
            BlockKind::Map => Some(IslandKind::Map),
            BlockKind::Form => Some(IslandKind::Form),
            BlockKind::Newsletter => Some(IslandKind::Newsletter),
            BlockKind::Accordion => Some(IslandKind::Accordion),
            BlockKind::Marquee => Some(IslandKind::Marquee),
            BlockKind::ScaledText => Some(IslandKind::ScaledText),
            BlockKind::Button => Some(IslandKind::Button),
            BlockKind::MemberArea => Some(IslandKind::MemberArea),
            BlockKind::Summary => Some(IslandKind::Summary),
            BlockKind::Gallery => Some(IslandKind::Gallery),
            BlockKind::RestaurantBooking => Some(IslandKind::RestaurantBooking),
            BlockKind::MenuTabs => Some(IslandKind::MenuTabs),
            BlockKind::SocialSharing => Some(IslandKind::SocialSharing),
            BlockKind::Cart => Some(IslandKind::Cart),
            BlockKind::Search => Some(IslandKind::Search),
            BlockKind::Text
            | BlockKind::Image
            | BlockKind::Audio
            | BlockKind::Embed
            | BlockKind::DonationButton
            | BlockKind::Calendar
            | BlockKind::Chart
            | BlockKind::TourDates
            | BlockKind::Product => None,
        }
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
        /// The data of a block, by kind. Written out as the kind's own fields, plus
        /// `layoutVariant` (the spec's numeric id) for a block whose design has one.
        #[derive(Debug, Clone)]
        pub enum BlockData {
            $( $variant($ty) ),+
        }

        impl Serialize for BlockData {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let layout_variant = self.layout_variant();
                match self { $( BlockData::$variant(data) => WithLayout { data, layout_variant }.serialize(serializer) ),+ }
            }
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
            pub fn ts_declarations(cfg: &ts_rs::Config) -> Vec<String> {
                vec![ $( <$ty as TS>::decl(cfg) ),+ ]
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

/// The field block data carries for the page but never reads: derived from the design.
pub const LAYOUT_VARIANT_FIELD: &str = "layoutVariant";

/// `value` (block data as the page carries it) without the fields derived from the others,
/// as it is read back (a rendering request sends the page's block data).
pub fn without_derived_fields(mut value: serde_json::Value) -> serde_json::Value {
    if let Some(fields) = value.as_object_mut() {
        fields.remove(LAYOUT_VARIANT_FIELD);
    }
    value
}

/// A block's own fields followed by its `layoutVariant`, when it has one.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WithLayout<'a, T: Serialize> {
    /// The kind's data.
    #[serde(flatten)]
    data: &'a T,
    /// The spec's id of the block's layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    layout_variant: Option<LayoutVariant>,
}

impl BlockData {
    /// The spec's layout variant of this block's design (001 §3, ids 1000–1018): a gallery's
    /// slideshow, carousel, grid or stacked design, a summary's design, a chart's type.
    /// Other gallery designs, images (Veranda's image block has no layouts) and
    /// reservation blocks (whose provider is not a layout) have none.
    pub fn layout_variant(&self) -> Option<LayoutVariant> {
        use LayoutVariant as V;
        match self {
            BlockData::Gallery(gallery) => match gallery.design {
                GalleryDesign::Slideshow => Some(V::GallerySlideshow),
                GalleryDesign::Carousel => Some(V::GalleryCarousel),
                GalleryDesign::Grid => Some(V::GalleryGrid),
                GalleryDesign::Stacked => Some(V::GalleryStack),
                GalleryDesign::Slider
                | GalleryDesign::Autogrid
                | GalleryDesign::Autocolumns
                | GalleryDesign::Autorows
                | GalleryDesign::List => None,
            },
            BlockData::Summary(summary) => LayoutVariant::from_name(&format!("summary-{}", summary.design)),
            BlockData::Chart(chart) => LayoutVariant::from_name(&format!("chart-{}", chart.chart_type)),
            _ => None,
        }
    }
}

// Serde defaults shared by the block data structs.

fn yes() -> bool {
    true
}

fn one() -> f64 {
    1.0
}

fn default_auto() -> String {
    "Auto".into()
}

fn default_success() -> String {
    "Thank you!".into()
}

#[cfg(test)]
mod tests {
    use super::BlockKind;
    use crate::domain::islands::IslandKind;

    #[test]
    fn every_island_a_block_kind_maps_to_is_listed() {
        for block in BlockKind::ALL {
            if let Some(island) = block.island() {
                assert!(IslandKind::ALL.contains(&island), "{}", block.name());
                assert_eq!(island.name(), block.name(), "a block's island has the block's name");
            }
        }
    }
}
