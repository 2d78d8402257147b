//! The document around the body, the page-context script, and every page body.

use std::collections::BTreeMap;

use veranda_actors::domain::enums::PageType;
use veranda_actors::site::SearchHit;

use super::fixture::{attr, render, site, tags};
use crate::assets::Assets;
use crate::page_context::{self, ContextInput};
use crate::render::{render_page, PageBody, PageView};

/// The text between the page-context script's tags.
fn page_context_json(html: &str) -> &str {
    let open = "<script id=\"page-context\" type=\"application/json\">";
    let start = html.find(open).expect("page-context script") + open.len();
    let end = html[start..].find("</script>").expect("closed script") + start;
    &html[start..end]
}

#[test]
fn the_head_has_language_meta_title_canonical_styles_context_and_loader() {
    let site = site("Veranda Café");
    let html = render(&site, PageType::Page, "/", "Welcome", PageBody::Page(&site.pages[0]), false);
    assert!(html.starts_with("<!DOCTYPE html><html lang=\"en-GB\"><head><meta charset=\"utf-8\">"));
    assert!(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
    assert!(html.contains("<title>Welcome · Veranda Café</title>"));
    assert!(html.contains("<meta name=\"description\" content=\"Welcome to the porch.\">"));
    assert!(html.contains("<link rel=\"canonical\" href=\"https://porch.example/\">"));
    assert!(html.contains("<style>") && html.contains("prefers-reduced-motion"));
    assert!(html.contains("<link rel=\"stylesheet\" href=\"/assets/loader-abc.css\">"));
    assert!(html.contains("<script type=\"module\" src=\"/assets/loader-abc.js\"></script>"));
    let context: serde_json::Value = serde_json::from_str(page_context_json(&html)).expect("context is JSON");
    assert_eq!(context["pageTitle"], "Welcome");
    assert_eq!(context["pageType"], 2);
}

#[test]
fn no_loader_script_is_linked_when_the_client_is_not_built() {
    let site = site("Veranda");
    let context = page_context::build(
        &site,
        ContextInput {
            page_type: PageType::NotFound,
            path: "/x",
            title: "Page Not Found".into(),
            page_id: None,
            collection: None,
            item: None,
            filters: BTreeMap::new(),
            session: None,
            visitor: Default::default(),
            services: &Default::default(),
        },
    );
    let assets = Assets::default();
    let html = render_page(&PageView {
        site: &site,
        context: &context,
        assets: &assets,
        body: PageBody::NotFound,
        logout_dialog: false,
        dismissed_announcement: None,
    });
    assert_eq!(html.matches("<script").count(), 1, "only the page context");
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
}

#[test]
fn a_hostile_title_cannot_break_out_of_the_page_context_script() {
    let evil = "</script><script>alert(1)</script>\u{2028}&";
    let site = site(evil);
    let html = render(&site, PageType::Page, "/", evil, PageBody::Page(&site.pages[0]), false);
    assert!(!html.contains("<script>alert(1)"), "the title must not open a script element");
    // Only the page context and the loader are script elements.
    assert_eq!(tags(&html, "script").len(), 2);
    let json = page_context_json(&html);
    assert!(!json.contains('<') && !json.contains('\u{2028}'));
    let context: serde_json::Value = serde_json::from_str(json).expect("escaped context still parses");
    assert_eq!(context["pageTitle"], evil);
    assert_eq!(context["website"]["siteTitle"], evil);
}

#[test]
fn the_layout_has_skip_link_navigation_announcement_and_footer() {
    let site = site("Veranda");
    let html = render(&site, PageType::Page, "/", "Veranda", PageBody::Page(&site.pages[0]), false);
    assert!(html.contains("<a class=\"skip-link\" href=\"#main\">Skip to content</a>"));
    assert!(html.contains("<main id=\"main\" tabindex=\"-1\">"));
    assert!(html.contains("<a href=\"/\" aria-current=\"page\">Home</a>"));
    assert!(html.contains("<a href=\"/blog\">Blog</a>"));
    assert!(!html.contains("javascript:"), "unsafe navigation links are dropped");
    assert!(html.contains("<a href=\"/hours\">Open late on Fridays</a>"));
    assert!(html.contains("<nav aria-label=\"Footer\"><ul><li><a href=\"/contact\">Contact</a>"));
    assert!(html.contains("© Veranda Café"));
    assert!(!html.contains("<dialog"), "no logout dialog unless asked");
}

#[test]
fn gate_pages_say_their_spec_text_verbatim() {
    let site = site("Veranda");
    let locked = render(
        &site,
        PageType::LockScreen,
        "/secret",
        "Secret",
        PageBody::LockScreen { title: "Secret".into(), crumb: "c.s".into(), error: None },
        false,
    );
    assert!(locked.contains("<p>This page is locked</p>"));
    let form = tags(&locked, "form").into_iter().find(|t| t.contains("lock-form")).expect("password form");
    assert_eq!(attr(form, "method").as_deref(), Some("post"));
    assert_eq!(attr(form, "action").as_deref(), Some("/secret"));
    assert!(locked.contains("<label for=\"page-password\">Password</label>"));

    let members = render(
        &site,
        PageType::ProtectedContent,
        "/club",
        "Club",
        PageBody::MembersOnly { title: "Club".into() },
        false,
    );
    assert!(members.contains("<p>This page available only site members</p>"));
    assert!(members.contains("href=\"/account/login?returnUrl=%2Fclub\""));

    let denied = render(
        &site,
        PageType::MemberAreaAccessDenied,
        "/club",
        "Club",
        PageBody::MemberAreaDenied { title: "Club".into() },
        false,
    );
    assert!(denied.contains("does not have access to this member area"));

    let missing = render(&site, PageType::NotFound, "/nope", "Page Not Found", PageBody::NotFound, false);
    assert!(missing.contains("<h1>Page Not Found</h1>"));
    assert!(missing.contains("<a href=\"/\">Go to the home page</a>"));
}

#[test]
fn the_logout_landing_shows_an_open_information_dialog() {
    let site = site("Veranda");
    let html = render(&site, PageType::Page, "/", "Veranda", PageBody::Page(&site.pages[0]), true);
    let dialog = tags(&html, "dialog").into_iter().next().expect("dialog");
    assert!(dialog.contains(" open"));
    let labelled_by = attr(dialog, "aria-labelledby").expect("labelled");
    assert!(html.contains(&format!("<h2 id=\"{labelled_by}\">Logout Successful</h2>")));
    assert!(html.contains(">You have been successfully logged out.</p>"));
    assert!(html.contains("<form method=\"dialog\"><button type=\"submit\" autofocus>Close</button></form>"));
}

#[test]
fn collections_list_items_and_say_how_they_are_filtered() {
    let site = site("Veranda");
    let blog = &site.collections[0];
    let all: Vec<_> = blog.items.iter().collect();
    let html = render(
        &site,
        PageType::MainContent,
        "/blog",
        "The blog",
        PageBody::Collection { collection: blog, items: all },
        false,
    );
    assert!(html.contains("<a href=\"/blog/first-post\">First post</a>"));
    // Post dates are relative times (refreshed in the browser; the server writes the date).
    assert!(html.contains("<time datetime=\"2026-03-14\" data-relative>March 14, 2026</time>"));
    assert!(!html.contains("Draft post"), "unpublished items never show");
    assert!(!html.contains("Filtered by"));

    let context = page_context::build(
        &site,
        ContextInput {
            page_type: PageType::MainContent,
            path: "/blog",
            title: "The blog".into(),
            page_id: None,
            collection: Some(blog),
            item: None,
            filters: BTreeMap::from([("category".to_string(), "Knitting".to_string())]),
            session: None,
            visitor: Default::default(),
            services: &Default::default(),
        },
    );
    let assets = Assets::default();
    let body = PageBody::Collection { collection: blog, items: Vec::new() };
    let html = render_page(&PageView {
        site: &site,
        context: &context,
        assets: &assets,
        body,
        logout_dialog: false,
        dismissed_announcement: None,
    });
    assert!(html.contains("Filtered by category: Knitting. <a href=\"/blog\">Clear filters</a>"));
    assert!(html.contains("No items match these filters."));

    let shop = &site.collections[2];
    let html = render(
        &site,
        PageType::MainContent,
        "/shop",
        "The shop",
        PageBody::Collection { collection: shop, items: shop.items.iter().collect() },
        false,
    );
    assert!(html.contains("from $1,299.00") && html.contains("$9.99"));
    assert_eq!(html.matches("<span class=\"sold-out\">Sold out</span>").count(), 1, "only the swing is sold out");
}

#[test]
fn items_show_their_details_body_and_product() {
    let site = site("Veranda");
    let events = &site.collections[1];
    let html = render(
        &site,
        PageType::ContentItem,
        "/events/summer",
        "Summer party",
        PageBody::Item { collection: events, item: &events.items[1] },
        false,
    );
    assert!(html.contains("<h1>Summer party</h1>"));
    assert!(html.contains("<time datetime=\"2099-07-04T18:00\">July 4, 2099, 6:00 PM</time>"));
    assert!(html.contains("<dd>The porch</dd>"));
    assert!(html.contains("<p>Body text.</p>"));

    let shop = &site.collections[2];
    let html = render(
        &site,
        PageType::ContentItem,
        "/shop/porch-swing",
        "Porch swing",
        PageBody::Item { collection: shop, item: &shop.items[0] },
        false,
    );
    assert!(html.contains("<td>$1,499.00</td>") && html.contains("<td>Sold out</td>"));
    let ebook = render(
        &site,
        PageType::ContentItem,
        "/shop/ebook",
        "Porch e-book",
        PageBody::Item { collection: shop, item: &shop.items[1] },
        false,
    );
    assert!(ebook.contains("$9.99") && !ebook.contains("class=\"sold-out\""), "digital goods never sell out");
}

#[test]
fn search_pages_show_the_query_and_its_results() {
    let site = site("Veranda");
    let none = render(
        &site,
        PageType::Search,
        "/search",
        "Search",
        PageBody::Search { query: "zzz<b>".into(), collection: None, hits: vec![] },
        false,
    );
    // maud writes the quotation marks as `&quot;`; visitors read `No results for "zzz<b>"`.
    assert!(none.contains("No results for &quot;zzz&lt;b&gt;&quot;"));
    assert!(none.contains("<label for=\"search-query\">Search this site</label>"));
    assert!(none.contains("value=\"zzz&lt;b&gt;\""));
    let hits =
        vec![SearchHit { title: "First post".into(), url: "/blog/first-post".into(), excerpt: "Hello porch.".into() }];
    let some = render(
        &site,
        PageType::Search,
        "/search",
        "Search",
        PageBody::Search { query: "porch".into(), collection: None, hits },
        false,
    );
    assert!(some.contains("<li><a href=\"/blog/first-post\">First post</a><p>Hello porch.</p></li>"));
}
