//! A site built in code with one block of every kind, a blog, an events collection and
//! a store, and small helpers to read attributes back out of rendered HTML.

use serde_json::{json, Value};
use veranda_actors::domain::enums::{CollectionViewMode, ItemType, PageType, PublicationState};
use veranda_actors::site::{Access, Block, BlockData, BlockKind, Collection, CollectionKind, Item, Page, Site};

use crate::assets::Assets;
use crate::page_context::{self, ContextInput};
use crate::render::{render_page, PageBody, PageView};

/// The data of one block of `kind`, from JSON in the site-file shape.
fn data(kind: BlockKind) -> BlockData {
    let fields = match kind {
        BlockKind::Text => json!({ "html": "<h1>Welcome</h1><p>Porch <em>season</em>.</p>" }),
        BlockKind::Image => {
            json!({ "src": "porch.jpg", "alt": "A porch at dusk", "caption": "Our porch", "imageDimensions": "1600x900" })
        }
        BlockKind::Video => {
            json!({ "html": "<iframe src=\"https://www.youtube.com/embed/abc\"></iframe>", "providerName": "YouTube",
            "title": "Porch tour", "url": "https://www.youtube.com/watch?v=abc", "thumbnail": "tour.jpg" })
        }
        BlockKind::Embed => {
            json!({ "html": "<iframe src=\"https://example.org/widget\"></iframe>", "title": "Weather widget" })
        }
        BlockKind::Map => {
            json!({ "addressTitle": "Veranda Café", "addressLine1": "1 Main St", "addressCountry": "USA" })
        }
        BlockKind::Form => json!({ "formId": "contact", "title": "Contact us", "fields": [
            { "id": "name", "type": "name", "title": "Name", "required": true, "description": "Your full name" },
            { "id": "email", "type": "email", "title": "Email", "required": true },
            { "id": "msg", "type": "textarea", "title": "Message", "maxLength": 500 },
            { "id": "site", "type": "website", "title": "Website" },
            { "id": "n", "type": "number", "title": "Guests" },
            { "id": "tip", "type": "currency", "title": "Tip", "currencySymbol": "$" },
            { "id": "pw", "type": "password", "title": "Password" },
            { "id": "tw", "type": "twitter", "title": "Twitter" },
            { "id": "txt", "type": "text", "title": "Subject" },
            { "id": "when", "type": "date", "title": "Date", "required": true },
            { "id": "at", "type": "time", "title": "Time" },
            { "id": "addr", "type": "address", "title": "Address" },
            { "id": "tel", "type": "phone", "title": "Phone", "showCountryCode": true },
            { "id": "sec", "type": "section", "title": "More", "underline": true },
            { "id": "pick", "type": "radio", "title": "Seating", "options": ["Inside", "Porch"], "required": true },
            { "id": "extras", "type": "checkbox", "title": "Extras", "options": ["Cake", "Candles"] },
            { "id": "size", "type": "select", "title": "Party size", "options": ["2", "4"] },
            { "id": "rate", "type": "likert", "title": "Your visit", "options": ["Food was good", "Staff were kind"] },
            { "id": "src", "type": "hidden", "key": "utm_source", "value": "site" }
        ]}),
        BlockKind::Newsletter => {
            json!({ "formId": "news", "title": "Newsletter", "description": "Monthly.", "mailingList": "main" })
        }
        BlockKind::DonationButton => {
            json!({ "donatePageId": "abcdefabcdefabcdefabcdef", "suggestedAmountsCents": [1000, 250000] })
        }
        BlockKind::Accordion => {
            json!({ "accordionItems": [ { "title": "Hours", "html": "<p>9–5</p>" }, { "title": "Parking", "html": "<p>Street</p>" } ],
            "isFirstItemExpanded": true })
        }
        BlockKind::Marquee => json!({ "text": "Fresh lemonade today" }),
        BlockKind::ScaledText => json!({ "text": "Big words", "level": 2 }),
        BlockKind::Button => {
            json!({ "buttonText": "Book now", "clickthroughUrl": "https://example.com/book", "newWindow": true })
        }
        BlockKind::MemberArea => json!({ "title": "Join the club", "pricingOptions": [
            { "label": "Monthly", "priceCents": 500, "billingPeriod": "monthly" },
            { "label": "Yearly", "priceCents": 5000, "billingPeriod": "yearly" } ] }),
        BlockKind::Summary => json!({ "collection": "blog", "headerText": "Latest posts" }),
        BlockKind::Gallery => {
            json!({ "design": "slideshow", "slides": [ { "src": "a.jpg", "alt": "First" }, { "src": "b.jpg", "caption": "Second" } ] })
        }
        BlockKind::Audio => json!({ "src": "song one.mp3", "title": "Song One", "author": "The Porch" }),
        BlockKind::Calendar => json!({ "collection": "events" }),
        BlockKind::Chart => json!({ "chartType": "bar", "title": "Visitors", "labels": ["Jan", "Feb"],
            "series": [ { "name": "2026", "values": [10.0, 12.5] } ] }),
        BlockKind::Search => json!({ "placeholder": "Find…" }),
        BlockKind::TourDates => {
            json!({ "artist": "The Porch", "dates": [ { "date": "2026-07-01", "venue": "Hall", "city": "Oslo", "ticketUrl": "https://t.example/1" } ] })
        }
        BlockKind::RestaurantBooking => {
            json!({ "provider": "opentable", "restaurantId": "123", "restaurantName": "Veranda", "phone": "+1 555 0100" })
        }
        BlockKind::MenuTabs => {
            json!({ "tabs": [ { "title": "Lunch", "items": [ { "name": "Soup", "price": "8", "description": "Daily" } ] },
            { "title": "Dinner", "items": [ { "name": "Pie", "price": "12" } ] } ] })
        }
        BlockKind::SocialSharing => json!({ "services": ["facebook", "x", "email"] }),
        BlockKind::Product => json!({ "product": "shop/porch-swing" }),
        BlockKind::Cart => json!({}),
    };
    match from_json(kind, fields) {
        Some(d) => d,
        None => panic!("fixture data for {} must parse", kind.name()),
    }
}

/// Block data from JSON in the site-file shape (the fixture's stand-in for the loader).
fn from_json(kind: BlockKind, v: Value) -> Option<BlockData> {
    use serde_json::from_value as f;
    Some(match kind {
        BlockKind::Text => BlockData::Text(f(v).ok()?),
        BlockKind::Image => BlockData::Image(f(v).ok()?),
        BlockKind::Video => BlockData::Video(f(v).ok()?),
        BlockKind::Embed => BlockData::Embed(f(v).ok()?),
        BlockKind::Map => BlockData::Map(f(v).ok()?),
        BlockKind::Form => BlockData::Form(f(v).ok()?),
        BlockKind::Newsletter => BlockData::Newsletter(f(v).ok()?),
        BlockKind::DonationButton => BlockData::DonationButton(f(v).ok()?),
        BlockKind::Accordion => BlockData::Accordion(f(v).ok()?),
        BlockKind::Marquee => BlockData::Marquee(f(v).ok()?),
        BlockKind::ScaledText => BlockData::ScaledText(f(v).ok()?),
        BlockKind::Button => BlockData::Button(f(v).ok()?),
        BlockKind::MemberArea => BlockData::MemberArea(f(v).ok()?),
        BlockKind::Summary => BlockData::Summary(f(v).ok()?),
        BlockKind::Gallery => BlockData::Gallery(f(v).ok()?),
        BlockKind::Audio => BlockData::Audio(f(v).ok()?),
        BlockKind::Calendar => BlockData::Calendar(f(v).ok()?),
        BlockKind::Chart => BlockData::Chart(f(v).ok()?),
        BlockKind::Search => BlockData::Search(f(v).ok()?),
        BlockKind::TourDates => BlockData::TourDates(f(v).ok()?),
        BlockKind::RestaurantBooking => BlockData::RestaurantBooking(f(v).ok()?),
        BlockKind::MenuTabs => BlockData::MenuTabs(f(v).ok()?),
        BlockKind::SocialSharing => BlockData::SocialSharing(f(v).ok()?),
        BlockKind::Product => BlockData::Product(f(v).ok()?),
        BlockKind::Cart => BlockData::Cart(f(v).ok()?),
    })
}

/// A 24-character id ending in `n`.
pub fn id(n: usize) -> String {
    format!("{:0>24}", format!("b{n}"))
}

fn item(url_id: &str, title: &str, published_on: &str, extra: Value) -> Item {
    let mut value = json!({ "url_id": url_id, "title": title, "published_on": published_on });
    if let (Some(obj), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
        obj.extend(extra.clone());
    }
    let text = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    Item {
        id: format!("{:0>24}", url_id.replace('-', "")),
        url_id: text("url_id"),
        title: text("title"),
        record_type: ItemType::Text,
        state: if text("state") == "draft" { PublicationState::Draft } else { PublicationState::Published },
        published_on: text("published_on"),
        author: "Ada".into(),
        excerpt: text("excerpt"),
        body_html: "<p>Body text.</p>".into(),
        image: value.get("image").and_then(Value::as_str).map(str::to_string),
        image_size: None,
        tags: vec![],
        categories: value.get("category").and_then(Value::as_str).map(|c| vec![c.to_string()]).unwrap_or_default(),
        event: value.get("event").cloned().and_then(|e| serde_json::from_value(e).ok()),
        product: value.get("product").cloned().and_then(|p| serde_json::from_value(p).ok()),
        blocks: vec![],
    }
}

fn collection(name: &str, kind: CollectionKind, items: Vec<Item>) -> Collection {
    Collection {
        id: format!("{:0>24}", name),
        name: name.into(),
        url: format!("/{name}"),
        title: format!("The {name}"),
        kind,
        view_mode: CollectionViewMode::List,
        access: Access::Public,
        description: String::new(),
        items,
    }
}

/// A site with one page holding one block of every kind (in `BlockKind::ALL` order).
pub fn site(title: &str) -> Site {
    let settings = serde_json::from_value(json!({
        "website": { "id": "aaaaaaaaaaaaaaaaaaaaaaaa", "title": title, "baseUrl": "https://porch.example/", "locale": "en-GB",
                     "description": "A site about porches." },
        "announcementBar": { "enabled": true, "text": "Open late on Fridays", "url": "/hours" },
        "headerFooter": { "header": "Since 1999", "footer": "© Veranda Café" }
    }));
    let settings = match settings {
        Ok(s) => s,
        Err(e) => panic!("fixture settings must parse: {e}"),
    };
    let blocks = BlockKind::ALL.iter().enumerate().map(|(n, k)| Block { id: id(n), data: data(*k) }).collect();
    let home = Page {
        id: id(100),
        name: "home".into(),
        url: "/".into(),
        title: title.into(),
        description: "Welcome to the porch.".into(),
        access: Access::Public,
        password_hash: None,
        splash: false,
        blocks,
    };
    let navigation = serde_json::from_value(json!({
        "main": [ { "title": "Home", "url": "/" }, { "title": "Blog", "url": "/blog" }, { "title": "Bad", "url": "javascript:alert(1)" } ],
        "footer": [ { "title": "Contact", "url": "/contact" } ]
    }))
    .unwrap_or_default();
    let blog = collection(
        "blog",
        CollectionKind::Blog,
        vec![
            item(
                "first-post",
                "First post",
                "2026-03-14",
                json!({ "excerpt": "Hello porch.", "image": "p1.jpg", "category": "Travel" }),
            ),
            item("second-post", "Second post", "2026-02-01", json!({ "excerpt": "More porch." })),
            item("draft-post", "Draft post", "2026-04-01", json!({ "state": "draft" })),
        ],
    );
    let events = collection(
        "events",
        CollectionKind::Events,
        vec![
            item(
                "past",
                "Past party",
                "2020-01-01",
                json!({ "event": { "start": "2020-01-02T18:00", "end": "2020-01-02T20:00" } }),
            ),
            item(
                "summer",
                "Summer party",
                "2026-01-01",
                json!({ "event": { "start": "2099-07-04T18:00", "end": "2099-07-04T22:00", "location": "The porch" } }),
            ),
        ],
    );
    let shop = collection(
        "shop",
        CollectionKind::Products,
        vec![
            item(
                "porch-swing",
                "Porch swing",
                "2026-01-01",
                json!({ "product": { "productType": "physical", "variants": [
            { "price": 129900, "qtyInStock": 0 }, { "price": 149900, "qtyInStock": 0 } ] } }),
            ),
            item(
                "ebook",
                "Porch e-book",
                "2026-01-01",
                json!({ "product": { "productType": "digital", "variants": [ { "price": 999 } ] } }),
            ),
        ],
    );
    Site {
        dir: std::path::PathBuf::from("/nonexistent"),
        settings,
        navigation,
        pages: vec![home],
        collections: vec![blog, events, shop],
    }
}

/// Renders `body` of `site` as page type `page_type` at `path`, titled `title`.
pub fn render(site: &Site, page_type: PageType, path: &str, title: &str, body: PageBody<'_>, logout: bool) -> String {
    let context = page_context::build(
        site,
        ContextInput {
            page_type,
            path,
            title: title.to_string(),
            page_id: None,
            collection: None,
            item: None,
            filters: Default::default(),
            session: None,
            visitor: Default::default(),
            services: &Default::default(),
        },
    );
    let assets = Assets {
        loader_js: Some("/assets/loader-abc.js".into()),
        loader_css: vec!["/assets/loader-abc.css".into()],
        ..Assets::default()
    };
    render_page(&PageView {
        site,
        context: &context,
        assets: &assets,
        body,
        logout_dialog: logout,
        dismissed_announcement: None,
    })
}

/// Every opening tag named `name` (`<name ...>`), as written.
pub fn tags<'h>(html: &'h str, name: &str) -> Vec<&'h str> {
    let open = format!("<{name}");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        let end = after.find('>').map_or(rest.len(), |e| start + open.len() + e + 1);
        let boundary = after.chars().next().is_some_and(|c| c == ' ' || c == '>' || c == '/');
        if boundary {
            out.push(&rest[start..end]);
        }
        rest = &rest[start + open.len()..];
    }
    out
}

/// The unescaped value of attribute `name` in an opening tag written by maud (double quotes).
pub fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
}

/// Whether an opening tag carries boolean attribute `name`.
pub fn has_flag(tag: &str, name: &str) -> bool {
    tag.split([' ', '>']).any(|t| t == name || t.starts_with(&format!("{name}=")))
}
