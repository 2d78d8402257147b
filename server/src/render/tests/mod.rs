//! Rendering tests: every block kind's element and data, forms and their labels, the
//! document head, the page-context script, and the text of every gate page.

mod fixture;
mod pages;

use veranda_actors::domain::enums::PageType;
use veranda_actors::domain::islands::IslandKind;
use veranda_actors::site::BlockKind;

use crate::render::PageBody;
use fixture::{attr, has_flag, render, site, tags};

fn home() -> String {
    let site = site("Veranda Café");
    render(&site, PageType::Page, "/", "Veranda Café", PageBody::Page(&site.pages[0]), false)
}

#[test]
fn every_block_kind_has_its_element_with_id_type_and_json_that_parses_back() {
    let site = site("Veranda Café");
    let html = render(&site, PageType::Page, "/", "Veranda Café", PageBody::Page(&site.pages[0]), false);
    let sections = tags(&html, "section");
    for block in &site.pages[0].blocks {
        let kind = block.kind();
        let id = format!("block-{}", block.id);
        let tag = sections
            .iter()
            .find(|t| attr(t, "id").as_deref() == Some(id.as_str()))
            .unwrap_or_else(|| panic!("no element for the {} block", kind.name()));
        assert_eq!(attr(tag, "data-block-type").as_deref(), Some(kind.name()));
        assert_eq!(attr(tag, "class"), Some(format!("block block--{}", kind.name())));
        let json = attr(tag, "data-block-json").unwrap_or_else(|| panic!("{} has no data-block-json", kind.name()));
        let parsed: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{} data-block-json: {e}", kind.name()));
        let expected = serde_json::to_value(&block.data).unwrap_or_default();
        assert_eq!(parsed, expected, "{} data round-trips", kind.name());
        assert_eq!(attr(tag, "data-island").as_deref(), kind.island().map(IslandKind::name), "{}", kind.name());
    }
    assert_eq!(site.pages[0].blocks.len(), BlockKind::ALL.len());
}

#[test]
fn only_blocks_that_run_a_script_are_marked_as_islands() {
    let html = home();
    let plain = ["text", "image", "audio", "embed", "donation-button", "calendar", "chart", "tour-dates", "product"];
    let mut marked = Vec::new();
    for tag in tags(&html, "section") {
        let Some(kind) = attr(tag, "data-block-type") else { continue };
        let island = attr(tag, "data-island");
        if plain.contains(&kind.as_str()) {
            assert_eq!(island, None, "{kind} is complete as server HTML");
        } else {
            assert_eq!(island.as_deref(), Some(kind.as_str()), "{kind}");
            marked.push(kind);
        }
    }
    marked.sort();
    let expected = [
        "accordion",
        "button",
        "cart",
        "form",
        "gallery",
        "map",
        "marquee",
        "member-area",
        "menu-tabs",
        "newsletter",
        "restaurant-booking",
        "scaled-text",
        "search",
        "social-sharing",
        "summary",
        "video",
    ];
    assert_eq!(marked, expected);
}

#[test]
fn every_form_input_has_a_label() {
    let html = home();
    let mut checked = 0;
    for name in ["input", "select", "textarea"] {
        for tag in tags(&html, name) {
            let kind = attr(tag, "type").unwrap_or_default();
            if kind == "hidden" || kind == "submit" {
                continue;
            }
            let id = attr(tag, "id").unwrap_or_else(|| panic!("control without id: {tag}"));
            assert!(html.contains(&format!("<label for=\"{id}\"")), "no label for {id}");
            checked += 1;
        }
    }
    // 19 fields: multi-part ones count each part, likert 2 questions × 5.
    assert!(checked > 40, "only {checked} controls checked");
}

#[test]
fn multi_part_fields_are_fieldsets_with_the_spec_sub_fields() {
    let html = home();
    for (field, parts) in [
        ("name", &["First", "Last"][..]),
        ("addr", &["Line1", "Line2", "City", "State", "Zip", "Country"]),
        ("tel", &["Country", "Areacode", "Prefix", "Line"]),
        ("when", &["Month", "Day", "Year"]),
        ("at", &["Hour", "Minute", "Second", "Ampm"]),
    ] {
        for part in parts {
            assert!(html.contains(&format!("name=\"{field}-{part}\"")), "{field}-{part}");
        }
    }
    let fieldsets = tags(&html, "fieldset");
    assert!(fieldsets.len() >= 8, "name, address, phone, date, time, radio, checkbox, likert");
    // The name field is required and described.
    let first = tags(&html, "input")
        .into_iter()
        .find(|t| attr(t, "name").as_deref() == Some("name-First"))
        .expect("first name input");
    assert!(has_flag(first, "required"));
    let name_set =
        fieldsets.iter().find(|t| attr(t, "id").is_some_and(|i| i.ends_with("-name"))).expect("name fieldset");
    let described = attr(name_set, "aria-describedby").expect("described");
    let desc_id = described.split(' ').next().expect("description id");
    assert!(html.contains(&format!("id=\"{desc_id}\" class=\"field-desc\">Your full name</p>")));
}

#[test]
fn forms_post_to_the_save_call_with_a_hidden_top_error_node() {
    let html = home();
    let forms: Vec<_> =
        tags(&html, "form").into_iter().filter(|t| attr(t, "method").as_deref() == Some("post")).collect();
    assert_eq!(forms.len(), 2, "the form and the newsletter");
    for form in forms {
        assert_eq!(attr(form, "action").as_deref(), Some("/api/form/SaveFormSubmission"));
    }
    assert_eq!(html.matches("<div class=\"form-errors\" role=\"alert\" hidden></div>").count(), 2);
}

#[test]
fn likert_fields_are_tables_of_radios_from_minus_two_to_two() {
    let html = home();
    assert!(html.contains("<th scope=\"col\">Strongly Disagree</th>"));
    assert!(html.contains("<th scope=\"col\">Strongly Agree</th>"));
    let radios: Vec<_> =
        tags(&html, "input").into_iter().filter(|t| attr(t, "name").is_some_and(|n| n.starts_with("rate-"))).collect();
    assert_eq!(radios.len(), 10);
    let values: Vec<String> = radios.iter().take(5).filter_map(|t| attr(t, "value")).collect();
    assert_eq!(values, ["-2", "-1", "0", "1", "2"]);
}

#[test]
fn blocks_read_well_without_javascript() {
    let html = home();
    // Text passes its sanitised HTML through; other owner text is escaped.
    assert!(html.contains("<h1>Welcome</h1><p>Porch <em>season</em>.</p>"));
    // Image.
    assert!(html.contains("<img src=\"/images/porch.jpg?format=750w\" data-src=\"/images/porch.jpg\""));
    assert!(html.contains("alt=\"A porch at dusk\" loading=\"lazy\" decoding=\"async\" width=\"1600\" height=\"900\">"));
    assert!(html.contains("<figcaption>Our porch</figcaption>"));
    // Video: link and poster; the provider iframe waits in a template.
    assert!(html.contains("href=\"https://www.youtube.com/watch?v=abc\""));
    assert!(html.contains("<template class=\"video-embed\"><iframe src=\"https://www.youtube.com/embed/abc\""));
    // Map: address and OpenStreetMap link at the centre.
    assert!(
        html.contains("https://www.openstreetmap.org/?mlat=40.720882&amp;mlon=-74.000988#map=12/40.720882/-74.000988")
    );
    // Donation, accordion, button.
    // The donation button is a button (Enter or Space, spec 000 §10) submitting a GET form
    // to /checkout/donate?donatePageId=….
    assert!(html.contains(
        "<form class=\"donation-button\" method=\"get\" action=\"/checkout/donate\"><input type=\"hidden\" \
         name=\"donatePageId\" value=\"abcdefabcdefabcdefabcdef\"><button type=\"submit\" class=\"button\">"
    ));
    assert!(html.contains("Suggested amounts: $10.00, $2,500.00"));
    assert!(html.contains("<details open><summary>Hours</summary>"));
    assert!(html.contains("<details><summary>Parking</summary>"));
    assert!(html.contains("href=\"https://example.com/book\" target=\"_blank\" rel=\"noopener\""));
    // Member area: both options.
    assert!(html.contains("$5.00 per month") && html.contains("$50.00 per year"));
    // Gallery: every slide links to its full image.
    assert!(html.contains("<a href=\"/images/a.jpg\" data-lightbox><img src=\"/images/a.jpg?format=750w\""));
    assert!(html.contains("<a href=\"/images/b.jpg\" data-lightbox>"));
    // Audio.
    assert!(html.contains("<audio controls preload=\"none\" src=\"/s/song%20one.mp3\">"));
    // Chart as a table.
    assert!(html.contains("<caption>Visitors</caption>") && html.contains("<td>12.5</td>"));
    // Search, tour dates, booking, menu, sharing.
    assert!(html.contains("action=\"/search\""));
    assert!(html.contains("<time datetime=\"2026-07-01\">July 1, 2026</time>"));
    assert!(html.contains("https://www.opentable.com/restref/client/?rid=123"));
    assert!(html.contains("<h3>Lunch</h3>") && html.contains("<h3>Dinner</h3>"));
    assert!(html.contains("https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fporch.example%2F"));
    // Cart root.
    assert!(html.contains("<div id=\"cart-root\">"));
}

#[test]
fn summaries_show_published_items_and_calendars_upcoming_events_by_month() {
    let html = home();
    assert!(html.contains("<a href=\"/blog/first-post\">First post</a>"));
    assert!(html.contains("Hello porch."));
    assert!(!html.contains("Draft post"));
    assert!(html.contains("<h3>July 2099</h3>"));
    assert!(html.contains("Summer party"));
    assert!(!html.contains("Past party"));
}

#[test]
fn products_show_price_in_store_currency_and_sold_out_when_no_stock() {
    let html = home();
    assert!(html.contains("from $1,299.00"));
    assert!(html.contains("<span class=\"sold-out\">Sold out</span>"));
    let button = tags(&html, "button").into_iter().find(|t| t.contains("add-to-cart")).expect("add-to-cart button");
    assert!(has_flag(button, "disabled"));
}

#[test]
fn member_area_join_buttons_are_submit_buttons_of_a_get_form_to_the_membership_checkout() {
    let html = home();
    let area = tags(&html, "section")
        .into_iter()
        .find(|t| attr(t, "data-block-type").as_deref() == Some("member-area"))
        .and_then(|t| attr(t, "id"))
        .expect("a member area");
    let area_id = area.strip_prefix("block-").expect("block-<id>");
    let form = "<form class=\"member-join\" method=\"get\" action=\"/checkout/join\">";
    let hidden = format!("<input type=\"hidden\" name=\"memberAreaId\" value=\"{area_id}\">");
    assert!(html.contains(&format!("{form}{hidden}")), "{html}");
    let buttons: Vec<&str> =
        tags(&html, "button").into_iter().filter(|t| attr(t, "name").as_deref() == Some("pricingOption")).collect();
    assert_eq!(buttons.len(), 2, "one join button per pricing option");
    for (index, button) in buttons.iter().enumerate() {
        assert_eq!(attr(button, "type").as_deref(), Some("submit"));
        assert_eq!(attr(button, "value"), Some(index.to_string()));
        assert!(!has_flag(button, "disabled"), "{button}");
        assert_eq!(attr(button, "tabindex"), None, "in the tab order");
    }
    assert!(html.contains(">Join</button>"), "the default join text");
    assert!(!html.contains("Joining needs JavaScript."));
}
