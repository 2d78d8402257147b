//! Text and layout blocks: text, accordion, marquee, scaled text, button, chart, search,
//! restaurant booking and social sharing.

use maud::{html, Markup, PreEscaped};
use veranda_actors::site::blocks::{
    AccordionBlock, ButtonBlock, ChartBlock, MarqueeBlock, RestaurantBookingBlock, ScaledTextBlock, SearchBlock,
    SocialSharingBlock, TextBlock,
};

use super::BlockCtx;
use crate::render::util::{encode_path, encode_query, safe_href};

/// Rich text, sanitised when the site was loaded.
pub fn text(d: &TextBlock) -> Markup {
    html! { div class="text" { (PreEscaped(&d.html)) } }
}

/// Native `<details>` elements; the first starts open when `isFirstItemExpanded`.
pub fn accordion(d: &AccordionBlock) -> Markup {
    html! {
        @if !d.description.trim().is_empty() { p { (d.description) } }
        @for (i, item) in d.accordion_items.iter().enumerate() {
            details open[i == 0 && d.is_first_item_expanded] {
                summary { (item.title) }
                div class="accordion-panel" { (PreEscaped(&item.html)) }
            }
        }
    }
}

/// The marquee's text, still (the island animates it when motion is allowed).
pub fn marquee(d: &MarqueeBlock) -> Markup {
    html! { p class="marquee" { (d.text) } }
}

/// The longest scaled text the stylesheet sizes to one line before the island measures it:
/// at the spec's 11 px floor it still fits a 320 px phone (about 0.6 em a character).
pub const FIT_BEFORE_PAINT_MAX_CHARS: usize = 48;

/// A heading of level 1–4, or a paragraph. A text of at most [`FIT_BEFORE_PAINT_MAX_CHARS`]
/// carries its length (`--chars`), from which the stylesheet sizes it to about one line of its
/// block, so the island's exact fit does not move the page; a longer one wraps until fitted.
pub fn scaled_text(d: &ScaledTextBlock) -> Markup {
    let chars = d.text.chars().count();
    let fit = (1..=FIT_BEFORE_PAINT_MAX_CHARS).contains(&chars).then(|| format!("--chars:{chars}"));
    html! {
        @match d.level {
            1 => h1 class="scaled-text" style=[fit] { (d.text) },
            2 => h2 class="scaled-text" style=[fit] { (d.text) },
            3 => h3 class="scaled-text" style=[fit] { (d.text) },
            4 => h4 class="scaled-text" style=[fit] { (d.text) },
            _ => p class="scaled-text" style=[fit] { (d.text) },
        }
    }
}

/// A real link styled as a button.
pub fn button(d: &ButtonBlock) -> Markup {
    html! {
        p class={ "align-" (d.alignment) } {
            @match safe_href(&d.clickthrough_url) {
                Some(href) => {
                    a class={ "button button--" (d.size) } href=(href)
                        target=[d.new_window.then_some("_blank")] rel=[d.new_window.then_some("noopener")] {
                        (d.button_text)
                        @if d.new_window { span class="visually-hidden" { " (opens in a new window)" } }
                    }
                }
                None => span class={ "button button--" (d.size) } { (d.button_text) },
            }
        }
    }
}

/// The chart's data as a table captioned with its title.
pub fn chart(d: &ChartBlock) -> Markup {
    html! {
        table class={ "chart chart--" (d.chart_type) } {
            caption { (d.title) }
            thead {
                tr {
                    th scope="col" { "Series" }
                    @for label in &d.labels { th scope="col" { (label) } }
                }
            }
            tbody {
                @for series in &d.series {
                    tr {
                        th scope="row" { (series.name) }
                        @for i in 0..d.labels.len() {
                            td { @if let Some(v) = series.values.get(i) { (v) } }
                        }
                    }
                }
            }
        }
    }
}

/// A GET form to `/search`.
pub fn search(block_id: &str, d: &SearchBlock) -> Markup {
    let input_id = format!("search-{block_id}");
    html! {
        form role="search" method="get" action="/search" {
            label for=(input_id) { "Search this site" }
            input id=(input_id) type="search" name="q" placeholder=(d.placeholder) maxlength="200";
            @if let Some(collection) = d.collection.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
                input type="hidden" name="collection" value=(collection);
            }
            " "
            button type="submit" { "Search" }
        }
    }
}

/// The restaurant's name and phone, and a link to book with the provider.
pub fn restaurant_booking(d: &RestaurantBookingBlock) -> Markup {
    let id = d.restaurant_id.trim();
    let link = match d.provider.to_ascii_lowercase().as_str() {
        "opentable" => Some(format!("https://www.opentable.com/restref/client/?rid={}", encode_query(id))),
        "tock" => Some(format!("https://www.exploretock.com/{}", encode_path(id))),
        _ => None,
    };
    html! {
        h2 { "Reserve a table at " (d.restaurant_name) }
        @if let Some(phone) = d.phone.as_deref().filter(|p| !p.trim().is_empty()) {
            p { "Call " a href={ "tel:" (phone.replace(|c: char| c.is_whitespace(), "")) } { (phone) } }
        }
        @if let Some(link) = link {
            p { a class="button" href=(link) rel="noopener" { "Book a table" } }
        }
    }
}

/// The share URL of one service for `page_url`, if the service is known.
fn share_link(service: &str, page_url: &str) -> Option<(&'static str, String)> {
    let u = encode_query(page_url);
    Some(match service.to_ascii_lowercase().as_str() {
        "email" => ("Email", format!("mailto:?body={u}")),
        "facebook" => ("Facebook", format!("https://www.facebook.com/sharer/sharer.php?u={u}")),
        "x" | "twitter" => ("X", format!("https://twitter.com/intent/tweet?url={u}")),
        "linkedin" => ("LinkedIn", format!("https://www.linkedin.com/sharing/share-offsite/?url={u}")),
        "pinterest" => ("Pinterest", format!("https://pinterest.com/pin/create/button/?url={u}")),
        "reddit" => ("Reddit", format!("https://www.reddit.com/submit?url={u}")),
        "tumblr" => ("Tumblr", format!("https://www.tumblr.com/widgets/share/tool?canonicalUrl={u}")),
        _ => return None,
    })
}

/// A share link per configured service, carrying this page's URL, and a link to follow the
/// configured account (the `social-sharing` widget turns it into the provider's follow button).
pub fn social_sharing(ctx: &BlockCtx<'_>, d: &SocialSharingBlock) -> Markup {
    html! {
        nav aria-label="Share this page" {
            ul {
                @for (name, href) in d.services.iter().filter_map(|s| share_link(s, &ctx.page_url)) {
                    li { a href=(href) rel="noopener" target="_blank" { "Share on " (name) span class="visually-hidden" { " (opens in a new window)" } } }
                }
            }
        }
        @if let Some(user) = d.follow_username.as_deref().filter(|u| !u.is_empty()) {
            p class="social-follow" {
                a class="button" href={ "https://x.com/" (encode_path(user)) } rel="noopener" target="_blank" {
                    "Follow @" (user) span class="visually-hidden" { " on X (opens in a new window)" }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{scaled_text, share_link};
    use veranda_actors::site::blocks::ScaledTextBlock;

    #[test]
    fn short_scaled_text_carries_its_length_for_the_stylesheet_and_long_text_wraps_until_fitted() {
        let heading = |text: &str, level| scaled_text(&ScaledTextBlock { text: text.into(), level }).into_string();
        assert_eq!(heading("Good coffee", 1), r#"<h1 class="scaled-text" style="--chars:11">Good coffee</h1>"#);
        assert_eq!(heading("Été", 0), r#"<p class="scaled-text" style="--chars:3">Été</p>"#);
        let long = "a".repeat(49);
        assert_eq!(heading(&long, 2), format!(r#"<h2 class="scaled-text">{long}</h2>"#));
        assert_eq!(heading("", 3), r#"<h3 class="scaled-text"></h3>"#);
    }

    #[test]
    fn share_links_carry_the_encoded_page_url() {
        let (name, href) = share_link("facebook", "https://ex.com/a b?c=d").expect("facebook is known");
        assert_eq!(name, "Facebook");
        assert_eq!(href, "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fex.com%2Fa%20b%3Fc%3Dd");
        assert!(share_link("myspace", "https://ex.com").is_none());
    }
}
