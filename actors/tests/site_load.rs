//! The demo site (`config/sites/demo`) loads clean and exercises every block kind,
//! gallery design, form field kind, page type and product type other tests rely on.

use std::collections::BTreeSet;
use std::path::PathBuf;

use veranda_actors::domain::enums::{GalleryDesign, ProductType, PublicationState};
use veranda_actors::site::blocks::FieldKind;
use veranda_actors::site::{Access, Block, BlockData, BlockKind, Resolved, Site};

fn demo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo")
}

fn demo() -> Site {
    match Site::load(demo_dir()) {
        Ok(site) => site,
        Err(problems) => panic!("the demo site has problems:\n{problems}"),
    }
}

/// Every block of every page and item.
fn all_blocks(site: &Site) -> Vec<&Block> {
    let pages = site.pages.iter().flat_map(|p| p.blocks.iter());
    let items = site.collections.iter().flat_map(|c| c.items.iter()).flat_map(|i| i.blocks.iter());
    pages.chain(items).collect()
}

fn name_of<T: serde::Serialize>(value: T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

#[test]
fn the_demo_site_loads_without_problems() {
    let site = demo();
    assert_eq!(site.settings.website.base_url, "http://127.0.0.1:8080");
    assert!(site.settings.cookie_banner.is_cookie_banner_enabled);
    assert!(site.settings.announcement_bar.enabled);
    assert!(site.settings.mobile_info_bar.enabled);
    assert!(site.settings.comments.comments_enabled);
    assert_ne!(site.settings.popup_overlay.style, "none");
    assert!(!site.navigation.main.is_empty());
}

#[test]
fn the_demo_site_uses_every_block_kind_and_gallery_design() {
    let site = demo();
    let blocks = all_blocks(&site);
    let kinds: BTreeSet<&str> = blocks.iter().map(|b| b.kind().name()).collect();
    for kind in BlockKind::ALL {
        assert!(kinds.contains(kind.name()), "no {} block in the demo site", kind.name());
    }
    let designs: BTreeSet<String> = blocks
        .iter()
        .filter_map(|b| match &b.data {
            BlockData::Gallery(g) => Some(name_of(g.design)),
            _ => None,
        })
        .collect();
    let every = [
        GalleryDesign::Grid,
        GalleryDesign::Stacked,
        GalleryDesign::Slider,
        GalleryDesign::Slideshow,
        GalleryDesign::Autogrid,
        GalleryDesign::Autocolumns,
        GalleryDesign::Autorows,
        GalleryDesign::Carousel,
        GalleryDesign::List,
    ];
    for design in every {
        assert!(designs.contains(&name_of(design)), "no {} gallery", name_of(design));
    }
}

#[test]
fn the_urls_other_tests_rely_on_resolve() {
    let site = demo();
    for url in
        ["/", "/about", "/contact", "/gallery-designs", "/menu", "/music", "/support", "/cart", "/members", "/private"]
    {
        assert!(matches!(site.resolve(url), Some(Resolved::Page(_))), "{url} is not a page");
    }
    for url in ["/gallery", "/blog", "/events", "/shop"] {
        assert!(matches!(site.resolve(url), Some(Resolved::Collection(_))), "{url} is not a collection");
    }
    assert!(matches!(site.resolve("/shop/house-blend"), Some(Resolved::Item(..))));
    let Some(Resolved::Page(members)) = site.resolve("/members") else { panic!("/members is a page") };
    assert_eq!(members.access, Access::Members);
    let Some(Resolved::Page(private)) = site.resolve("/private") else { panic!("/private is a page") };
    assert_eq!(private.access, Access::Password);
    assert!(private.password_hash.as_deref().is_some_and(|h| h.starts_with("$argon2id$")));
}

#[test]
fn the_contact_page_has_a_form_with_every_field_kind_and_a_newsletter() {
    let site = demo();
    let Some(Resolved::Page(contact)) = site.resolve("/contact") else { panic!("/contact is a page") };
    let form = contact
        .blocks
        .iter()
        .find_map(|b| match &b.data {
            BlockData::Form(f) if f.form_id == "contact" => Some(f),
            _ => None,
        })
        .expect("a form with formId contact");
    let kinds: BTreeSet<String> = form.fields.iter().map(|f| name_of(f.kind)).collect();
    let every = [
        "text", "textarea", "email", "number", "website", "currency", "password", "twitter", "date", "time", "name",
        "address", "phone", "section", "radio", "checkbox", "select", "likert", "hidden",
    ];
    for kind in every {
        assert!(kinds.contains(kind), "the contact form has no {kind} field");
    }
    let email = form.fields.iter().find(|f| f.id == "email").expect("an email field with id email");
    assert!(email.required && email.kind == FieldKind::Email);
    assert!(form.fields.iter().any(|f| f.kind == FieldKind::Textarea && f.max_length.is_some_and(|m| m > 0)));
    assert!(contact.blocks.iter().any(|b| b.kind() == BlockKind::Newsletter));
}

#[test]
fn the_blog_has_published_posts_newest_first_and_a_hidden_draft() {
    let site = demo();
    let blog = site.collection("blog").expect("a blog collection");
    let published: Vec<_> = blog.items.iter().filter(|i| i.state == PublicationState::Published).collect();
    assert!(published.len() >= 3);
    assert!(published.iter().all(|i| !i.categories.is_empty() && !i.tags.is_empty()));
    let dates: Vec<&str> = blog.items.iter().map(|i| i.published_on.as_str()).collect();
    let mut newest_first = dates.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, newest_first);
    assert!(blog.items.iter().any(|i| i.url_id == "draft-post" && i.state == PublicationState::Draft));
    assert!(site.resolve("/blog/draft-post").is_none(), "drafts are not found");
    assert!(site.resolve("/blog/sourdough-starter").is_some());
}

#[test]
fn events_are_sorted_by_start() {
    let site = demo();
    let events = site.collection("events").expect("an events collection");
    assert!(events.items.len() >= 2);
    let starts: Vec<String> =
        events.items.iter().map(|i| i.event.as_ref().expect("event details").start.clone()).collect();
    let mut sorted = starts.clone();
    sorted.sort();
    assert_eq!(starts, sorted);
}

#[test]
fn the_shop_has_every_product_type_a_sold_out_product_and_generated_skus() {
    let site = demo();
    let shop = site.collection("shop").expect("a shop collection");
    let products: Vec<_> = shop.items.iter().filter_map(|i| i.product.as_ref()).collect();
    for kind in [ProductType::Physical, ProductType::Digital, ProductType::Service, ProductType::GiftCard] {
        assert!(products.iter().any(|p| p.product_type == kind), "no {kind} product");
    }
    assert!(products.iter().any(|p| p.product_type == ProductType::Physical && p.variants.len() > 1));
    let sold_out = |p: &&veranda_actors::site::Product| p.variants.iter().all(|v| !v.unlimited && v.qty_in_stock == 0);
    assert!(products.iter().any(|p| p.product_type == ProductType::Physical && sold_out(p)));
    let skus: Vec<&str> = products.iter().flat_map(|p| p.variants.iter().map(|v| v.sku.as_str())).collect();
    let generated = skus.iter().find(|s| s.starts_with("SQ")).expect("a variant with a generated SKU");
    assert_eq!(generated.len(), 9);
    assert!(generated[2..].bytes().all(|b| b.is_ascii_digit()));
    let again = demo();
    let shop_again = again.collection("shop").expect("a shop collection");
    let skus_again: Vec<&str> = shop_again
        .items
        .iter()
        .filter_map(|i| i.product.as_ref())
        .flat_map(|p| p.variants.iter().map(|v| v.sku.as_str()))
        .collect();
    assert_eq!(skus, skus_again, "reloading gives the same SKUs");
}

#[test]
fn product_blocks_name_real_products() {
    let site = demo();
    for block in all_blocks(&site) {
        if let BlockData::Product(product) = &block.data {
            assert!(site.product(&product.product).is_some(), "{} is not found", product.product);
        }
    }
}

#[test]
fn published_urls_list_public_pages_collections_and_published_items_only() {
    let site = demo();
    let urls = site.published_urls();
    for url in [
        "/",
        "/about",
        "/contact",
        "/blog",
        "/blog/sourdough-starter",
        "/events",
        "/shop",
        "/shop/gift-card",
        "/gallery/porch",
    ] {
        assert!(urls.iter().any(|u| u == url), "{url} is missing from {urls:?}");
    }
    for url in ["/members", "/private", "/blog/draft-post"] {
        assert!(!urls.iter().any(|u| u == url), "{url} must not be published");
    }
    for url in &urls {
        assert!(site.resolve(url).is_some(), "{url} does not resolve");
    }
}

#[test]
fn search_finds_published_public_content_only() {
    let site = demo();
    let hits = site.search("Sourdough", None);
    assert!(hits.iter().any(|h| h.url == "/blog/sourdough-starter"), "{hits:?}");
    assert!(hits.iter().all(|h| h.url != "/blog/draft-post" && h.url != "/members"), "{hits:?}");
    assert!(site.search("galette", None).is_empty(), "the draft post is not searchable");
    assert!(site.search("cardamom step", None).is_empty(), "the members page is not searchable");
    let both = site.search("roast monday", None);
    assert!(both.iter().any(|h| h.url == "/blog/roasting-our-own"), "{both:?}");
    assert!(both.iter().all(|h| !h.excerpt.contains('<')), "excerpts are plain text");
}
