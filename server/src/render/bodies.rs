//! The main content of each page type: pages, collection lists, items, search, and the
//! gate pages (not found, lock screen, members only, member area denied).

use std::collections::BTreeMap;

use maud::{html, Markup, PreEscaped};
use veranda_actors::domain::enums::{CollectionViewMode, PublicationState};
use veranda_actors::site::{BlockData, Collection, Item, Page, SearchHit};

use super::blocks::{self, item_card, product_details, BlockCtx};
use super::util::{encode_query, human_date, image_url};
use super::{PageBody, PageView};

/// Where the members-only page sends visitors to log in (the loader opens its login
/// prompt on `data-action="login"` links; without JavaScript the link is followed).
pub const LOGIN_PATH: &str = "/account/login";

/// The meta description of a view.
pub fn description(view: &PageView<'_>) -> String {
    let text = match &view.body {
        PageBody::Page(p) => p.description.as_str(),
        PageBody::Collection { collection, .. } => collection.description.as_str(),
        PageBody::Item { item, .. } => item.excerpt.as_str(),
        _ => "",
    };
    let text = if text.trim().is_empty() { view.site.settings.website.description.as_str() } else { text };
    text.trim().to_string()
}

/// The content of `<main>`.
pub fn body(view: &PageView<'_>, ctx: &BlockCtx<'_>) -> Markup {
    match &view.body {
        PageBody::Page(page) => page_body(ctx, page),
        PageBody::Collection { collection, items } => collection_body(ctx, collection, items, &view.context.filters),
        PageBody::Item { collection, item } => {
            let settings = &view.context.website_settings;
            let comments = Comments {
                thread: settings.comment_thread_script_url.is_some(),
                link: settings.comment_count_script_url.is_some() || settings.comment_thread_script_url.is_some(),
            };
            item_body(ctx, collection, item, comments)
        }
        PageBody::Search { query, collection, hits } => search_body(query, collection.as_deref(), hits),
        PageBody::NotFound => html! {
            h1 { "Page Not Found" }
            p { "The page you are looking for does not exist or has moved." }
            p { a href="/" { "Go to the home page" } }
        },
        PageBody::LockScreen { title, crumb, error } => {
            super::auth_pages::lock_screen(&ctx.page_path, title, crumb, *error)
        }
        PageBody::Login(login) => super::auth_pages::login(login),
        PageBody::MembersOnly { title } => html! {
            h1 { (title) }
            p { "This page available only site members" }
            p { a class="button" data-action="login" href={ (LOGIN_PATH) "?returnUrl=" (encode_query(&ctx.page_path)) } { "Log in" } }
        },
        PageBody::MemberAreaDenied { title } => html! {
            h1 { (title) }
            p { "Your account does not have access to this member area." }
            p { a href="/" { "Go to the home page" } }
        },
    }
}

/// Whether the page's own blocks already give it a top-level heading.
fn has_h1(page: &Page) -> bool {
    page.blocks.iter().any(|b| match &b.data {
        BlockData::Text(t) => t.html.to_ascii_lowercase().contains("<h1"),
        BlockData::ScaledText(t) => t.level == 1,
        _ => false,
    })
}

fn page_body(ctx: &BlockCtx<'_>, page: &Page) -> Markup {
    html! {
        @if !has_h1(page) { h1 class="page-title" { (page.title) } }
        (blocks::blocks(ctx, &page.blocks))
    }
}

fn collection_body(
    ctx: &BlockCtx<'_>,
    collection: &Collection,
    items: &[&Item],
    filters: &BTreeMap<String, String>,
) -> Markup {
    let items: Vec<&Item> = items.iter().copied().filter(|i| i.state == PublicationState::Published).collect();
    let grid = collection.view_mode != CollectionViewMode::List;
    let filtered_by = filters.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ");
    html! {
        h1 { (collection.title) }
        @if !collection.description.trim().is_empty() { p { (collection.description) } }
        @if !filters.is_empty() {
            p class="filters" { "Filtered by " (filtered_by) ". " a href=(collection.url) { "Clear filters" } }
        }
        @if items.is_empty() {
            p class="muted" {
                @if filters.is_empty() { "Nothing here yet." } @else { "No items match these filters." }
            }
        } @else {
            ul class={ "items " @if grid { "items--grid" } @else { "items--list" } } {
                @for item in &items { (item_card(ctx, collection, item, 2, true, true)) }
            }
        }
    }
}

/// What an item page shows of its comments (comments on and a comment service named).
#[derive(Clone, Copy)]
struct Comments {
    /// A link to the thread, which the comment-count script fills with the count.
    link: bool,
    /// The thread itself, drawn by the thread script (`client/src/loader/comments.ts`).
    thread: bool,
}

/// An item page, with its comment link and thread when `comments` says so.
fn item_body(ctx: &BlockCtx<'_>, collection: &Collection, item: &Item, comments: Comments) -> Markup {
    html! {
        article class="item" {
            h1 { (item.title) }
            @if !item.published_on.is_empty() || !item.author.is_empty() || comments.link {
                p class="meta" {
                    @if !item.published_on.is_empty() { time datetime=(item.published_on) data-relative { (human_date(&item.published_on)) } }
                    @if !item.author.is_empty() { " by " (item.author) }
                    @if comments.link {
                        " · "
                        a class="comment-count" href={ (ctx.page_url) "#disqus_thread" } data-disqus-identifier=(item.id) data-comment-count { "Comments" }
                    }
                }
            }
            @if let Some(image) = &item.image { figure { img src=(image_url(image)) alt="" loading="lazy" width=[item.image_size.map(|s| s.0)] height=[item.image_size.map(|s| s.1)]; } }
            @if let Some(event) = &item.event {
                dl class="event-details" {
                    dt { "Starts" } dd { time datetime=(event.start) { (human_date(&event.start)) } }
                    dt { "Ends" } dd { time datetime=(event.end) { (human_date(&event.end)) } }
                    @if !event.location.trim().is_empty() { dt { "Where" } dd { (event.location) } }
                }
            }
            @if let Some(product) = &item.product { (product_details(ctx, item, product)) }
            div class="text" { (PreEscaped(&item.body_html)) }
            @if !item.categories.is_empty() || !item.tags.is_empty() {
                p class="meta" {
                    @for c in &item.categories { a href={ (collection.url) "?category=" (encode_query(c)) } { (c) } " " }
                    @for t in &item.tags { a href={ (collection.url) "?tag=" (encode_query(t)) } { "#" (t) } " " }
                }
            }
            (blocks::blocks(ctx, &item.blocks))
            @if comments.thread { (comment_thread(ctx, item)) }
            p { a href=(collection.url) { "Back to " (collection.title) } }
        }
    }
}

/// The place of an item's comment thread (`#disqus_thread`, the comment service's own anchor).
/// The thread script fills it where cookies are allowed; otherwise the visitor is offered it.
fn comment_thread(ctx: &BlockCtx<'_>, item: &Item) -> Markup {
    html! {
        section class="comments" aria-labelledby="comments-heading" {
            h2 id="comments-heading" { "Comments" }
            div id="disqus_thread" data-comment-thread data-comment-identifier=(item.id) data-comment-url=(ctx.page_url) {
                p data-comment-offer hidden { "Comments are provided by an outside service that sets its own cookies." }
                button type="button" class="button" data-comment-offer hidden { "Show comments" }
                noscript { p { "Comments need JavaScript." } }
            }
        }
    }
}

fn search_body(query: &str, collection: Option<&str>, hits: &[SearchHit]) -> Markup {
    html! {
        h1 { "Search" }
        form role="search" method="get" action="/search" {
            label for="search-query" { "Search this site" }
            input id="search-query" type="search" name="q" value=(query) maxlength="200";
            @if let Some(collection) = collection {
                input type="hidden" name="collection" value=(collection);
            }
            " "
            button type="submit" { "Search" }
        }
        @if !query.trim().is_empty() {
            @if hits.is_empty() {
                p { "No results for \"" (query) "\"" }
            } @else {
                p class="muted" { (hits.len()) @if hits.len() == 1 { " result" } @else { " results" } " for \u{201c}" (query) "\u{201d}" }
                ol class="search-results" {
                    @for hit in hits {
                        li { a href=(hit.url) { (hit.title) } @if !hit.excerpt.is_empty() { p { (hit.excerpt) } } }
                    }
                }
            }
        }
    }
}
