//! Blocks that list things: summaries of a collection, the events calendar, tour dates
//! and restaurant menus; and the item card shared with collection pages.

use std::collections::BTreeMap;

use maud::{html, Markup};
use veranda_actors::domain::islands::IslandKind;
use veranda_actors::site::blocks::{CalendarBlock, MenuTabsBlock, SummaryBlock, TourDatesBlock};
use veranda_actors::site::{Collection, Item};

use super::commerce::{product_price, quick_view_json};
use super::BlockCtx;
use crate::render::util::{human_date, human_month, image_url, safe_href};

/// An item in a list: image, title link, date, price (products) and excerpt. `level` is
/// the heading level (2 or 3). A product that can be added to the cart makes the card
/// the `quick-view` island's root, with the product's data.
pub fn item_card(
    ctx: &BlockCtx<'_>,
    collection: &Collection,
    item: &Item,
    level: u8,
    show_title: bool,
    show_excerpt: bool,
) -> Markup {
    let href = collection.item_url(item);
    let title = html! { a href=(href) { (item.title) } };
    let quick_view = quick_view_json(ctx, collection, item);
    html! {
        li {
            article class="item-card" data-island=[quick_view.is_some().then_some(IslandKind::QuickView.name())] data-block-json=[quick_view] {
                @if let Some(image) = &item.image {
                    a href=(href) tabindex="-1" aria-hidden="true" { img src=(image_url(image)) alt="" loading="lazy" width=[item.image_size.map(|s| s.0)] height=[item.image_size.map(|s| s.1)]; }
                }
                @if show_title {
                    @if level <= 2 { h2 { (title) } } @else { h3 { (title) } }
                } @else {
                    p { (title) }
                }
                @if !item.published_on.is_empty() {
                    p class="meta" { time datetime=(item.published_on) data-relative { (human_date(&item.published_on)) } }
                }
                @if let Some(product) = &item.product { (product_price(ctx, product)) }
                @if show_excerpt && !item.excerpt.trim().is_empty() { p { (item.excerpt) } }
            }
        }
    }
}

/// The named collection's published items (filtered by category, up to the page size).
pub fn summary(ctx: &BlockCtx<'_>, d: &SummaryBlock) -> Markup {
    let collection = ctx.site.collection(&d.collection);
    let items: Vec<&Item> = collection
        .map(|c| {
            c.published_items()
                .filter(|i| {
                    d.filter_category
                        .as_ref()
                        .is_none_or(|cat| i.categories.iter().any(|c| c.eq_ignore_ascii_case(cat)))
                })
                .take(d.page_size as usize)
                .collect()
        })
        .unwrap_or_default();
    let grid = matches!(d.design.as_str(), "grid" | "wall" | "carousel");
    html! {
        @if !d.header_text.trim().is_empty() { h2 { (d.header_text) } }
        @match collection {
            Some(c) if !items.is_empty() => {
                ul class={ "items summary--" (d.design) @if grid { " items--grid" } } {
                    @for item in &items { (item_card(ctx, c, item, 3, d.show_title, d.show_excerpt)) }
                }
                p { a href=(c.url) { "View all in " (c.title) } }
            },
            _ => p class="muted" { "Nothing to show yet." },
        }
    }
}

/// Upcoming events of the collection, grouped by month.
pub fn calendar(ctx: &BlockCtx<'_>, d: &CalendarBlock) -> Markup {
    let Some(collection) = ctx.site.collection(&d.collection) else {
        return html! { p class="muted" { "No upcoming events." } };
    };
    let mut upcoming: Vec<(&Item, &str)> = collection
        .published_items()
        .filter_map(|i| i.event.as_ref().map(|e| (i, e.start.as_str())))
        .filter(|(_, start)| start.get(..10).unwrap_or(start) >= ctx.today.as_str())
        .collect();
    upcoming.sort_by_key(|(_, start)| *start);
    let mut months: BTreeMap<&str, Vec<(&Item, &str)>> = BTreeMap::new();
    for (item, start) in upcoming {
        months.entry(start.get(..7).unwrap_or(start)).or_default().push((item, start));
    }
    html! {
        h2 { "Upcoming events" }
        @if months.is_empty() { p class="muted" { "No upcoming events." } }
        @for (month, events) in &months {
            h3 { (human_month(month)) }
            ul {
                @for (item, start) in events {
                    li {
                        a href=(collection.item_url(item)) { (item.title) }
                        " — " time datetime=(start) { (human_date(start)) }
                    }
                }
            }
        }
    }
}

/// The artist's dates, each with a `<time>`, venue, city and ticket link.
pub fn tour_dates(d: &TourDatesBlock) -> Markup {
    html! {
        h2 { (d.artist) " on tour" }
        @if d.dates.is_empty() { p class="muted" { "No dates announced." } }
        ul class="tour-dates" {
            @for date in &d.dates {
                li {
                    time datetime=(date.date) { (human_date(&date.date)) }
                    " — " (date.venue) ", " (date.city)
                    @if let Some(href) = date.ticket_url.as_deref().and_then(safe_href) {
                        " " a href=(href) rel="noopener" { "Tickets" span class="visually-hidden" { " for " (date.venue) } }
                    }
                }
            }
        }
    }
}

/// Every tab as a heading with its dishes (the island turns them into tabs).
pub fn menu_tabs(d: &MenuTabsBlock) -> Markup {
    html! {
        @for tab in &d.tabs {
            div class="menu-tab" {
                h3 { (tab.title) }
                ul {
                    @for dish in &tab.items {
                        li {
                            strong { (dish.name) }
                            @if !dish.price.trim().is_empty() { " — " span class="price" { (dish.price) } }
                            @if !dish.description.trim().is_empty() { br; span class="muted" { (dish.description) } }
                        }
                    }
                }
            }
        }
    }
}
