//! Blocks: the wrapping element every block gets (`id`, kind, data JSON, island name)
//! and the dispatch to one renderer per kind. Renderers are grouped by area:
//! [`content`] (text and layout), [`listings`] (summaries, calendars, menus, dates),
//! [`media`] (images, video, maps, audio), [`forms`] (forms and newsletters, with
//! [`fields`]) and [`commerce`] (products, cart, donations, memberships).

mod commerce;
mod content;
mod fields;
mod forms;
mod listings;
mod media;

use maud::{html, Markup};
use veranda_actors::domain::islands::IslandKind;
use veranda_actors::site::{Block, BlockData, Site};

pub use commerce::product_details;
pub use listings::item_card;

/// What block renderers need beyond the block itself.
pub struct BlockCtx<'a> {
    /// The site (collections for summaries, calendars and products; the store currency).
    pub site: &'a Site,
    /// Absolute URL of the page being rendered (share links).
    pub page_url: String,
    /// Path of the page being rendered.
    pub page_path: String,
    /// Today as `YYYY-MM-DD` (calendars list upcoming events).
    pub today: String,
    /// The slide key a gallery deep link names (`<page>/<slide>`, spec 001 §2): the gallery
    /// with history enabled that has that slide shows it current.
    pub linked_slide: Option<String>,
}

impl BlockCtx<'_> {
    /// The store currency code.
    pub fn currency(&self) -> &str {
        &self.site.settings.store.selected_currency
    }
}

/// Every block, in order.
pub fn blocks(ctx: &BlockCtx<'_>, blocks: &[Block]) -> Markup {
    html! { @for b in blocks { (block(ctx, b)) } }
}

/// One block: `<section id="block-<id>" class="block block--<kind>" data-block-type
/// data-block-json [data-island]>` around the kind's own HTML.
pub fn block(ctx: &BlockCtx<'_>, block: &Block) -> Markup {
    let kind = block.kind();
    let json = serde_json::to_string(&block.data).unwrap_or_else(|_| "{}".to_string());
    html! {
        section id={ "block-" (block.id) } class={ "block block--" (kind.name()) }
            data-block-type=(kind.name()) data-block-json=(json)
            data-island=[kind.island().map(IslandKind::name)] {
            (inner(ctx, block))
        }
    }
}

/// A block's own HTML, without the wrapping element (what widget rendering answers).
pub fn block_content(ctx: &BlockCtx<'_>, block: &Block) -> Markup {
    inner(ctx, block)
}

fn inner(ctx: &BlockCtx<'_>, block: &Block) -> Markup {
    let id = block.id.as_str();
    match &block.data {
        BlockData::Text(d) => content::text(d),
        BlockData::Image(d) => media::image(d),
        BlockData::Video(d) => media::video(d, &ctx.site.settings.embed_allow_list()),
        BlockData::Embed(d) => media::embed(d),
        BlockData::Map(d) => media::map(d, &ctx.site.settings.maps),
        BlockData::Form(d) => forms::form(id, d),
        BlockData::Newsletter(d) => forms::newsletter(id, d),
        BlockData::DonationButton(d) => commerce::donation_button(ctx, d),
        BlockData::Accordion(d) => content::accordion(d),
        BlockData::Marquee(d) => content::marquee(d),
        BlockData::ScaledText(d) => content::scaled_text(d),
        BlockData::Button(d) => content::button(d),
        BlockData::MemberArea(d) => commerce::member_area(ctx, id, d),
        BlockData::Summary(d) => listings::summary(ctx, d),
        BlockData::Gallery(d) => media::gallery(d, ctx.linked_slide.as_deref()),
        BlockData::Audio(d) => media::audio(d),
        BlockData::Calendar(d) => listings::calendar(ctx, d),
        BlockData::Chart(d) => content::chart(d),
        BlockData::Search(d) => content::search(id, d),
        BlockData::TourDates(d) => listings::tour_dates(d),
        BlockData::RestaurantBooking(d) => content::restaurant_booking(d),
        BlockData::MenuTabs(d) => listings::menu_tabs(d),
        BlockData::SocialSharing(d) => content::social_sharing(ctx, d),
        BlockData::Product(d) => commerce::product(ctx, d),
        BlockData::Cart(d) => commerce::cart(d),
    }
}
