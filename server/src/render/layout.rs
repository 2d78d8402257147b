//! The document around a page body: head (meta, canonical link, inline stylesheet, page
//! context, loader), skip link, announcement bar, header with the main navigation,
//! footer, and the logout information dialog.

use maud::{html, Markup, PreEscaped, DOCTYPE};
use veranda_actors::domain::islands::IslandKind;
use veranda_actors::site::content::NavLink;
use veranda_actors::site::settings::{BlockAnimation, HeaderFooter, MobileInfoBarSettings};
use veranda_actors::site::{Block, BlockData, Site};

use super::announcement::announcement_bar;
use super::blocks::{self, BlockCtx};
use super::util::{encode_query, safe_href, script_json};
use super::{bodies, style, PageBody, PageView};

/// `website.baseUrl` joined with a site path.
pub fn canonical_url(site: &Site, path: &str) -> String {
    format!("{}{}", site.settings.website.base_url.trim_end_matches('/'), path)
}

/// The full document, with `header_footer` (the site's texts as last edited) in the
/// header and footer.
pub fn document(view: &PageView<'_>, ctx: &BlockCtx<'_>, header_footer: &HeaderFooter) -> Markup {
    let website = &view.site.settings.website;
    let page_title = view.context.page_title.trim();
    let title = if page_title.is_empty() || page_title == website.title {
        website.title.clone()
    } else {
        format!("{page_title} · {}", website.title)
    };
    let description = bodies::description(view);
    let indexable = matches!(view.body, PageBody::Page(_) | PageBody::Collection { .. } | PageBody::Item { .. });
    html! {
        (DOCTYPE)
        html lang=(website.locale) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                @if !description.is_empty() { meta name="description" content=(description); }
                @if indexable {
                    link rel="canonical" href=(ctx.page_url);
                } @else {
                    meta name="robots" content="noindex";
                }
                style { (PreEscaped(style::TOKENS)) (PreEscaped(style::CRITICAL_CSS)) }
                @for css in &view.assets.loader_css { link rel="stylesheet" href=(css); }
                (font_links(&view.context.font_stylesheets))
                script id="page-context" type="application/json" { (PreEscaped(script_json(view.context))) }
                @if let Some(js) = &view.assets.loader_js { script type="module" src=(js) {} }
            }
            body class={ "page-type-" (view.context.page_type.name()) }
                data-block-animation=[block_animation(view.site)]
                data-block-animation-duration=[block_animation(view.site).map(|_| view.site.settings.block_animations.duration_seconds)] {
                a class="skip-link" href="#main" { "Skip to content" }
                (announcement_bar(&view.site.settings.announcement_bar, view.dismissed_announcement.as_ref()))
                (header(view.site, header_footer, &view.context.page_path, view.context.authenticated_account.is_some()))
                main id="main" tabindex="-1" { (bodies::body(view, ctx)) }
                (footer(view.site, header_footer, &view.context.page_path))
                (mobile_info_bar(&view.site.settings.mobile_info_bar))
                (popup_overlay_form(view.site, ctx))
                @if view.logout_dialog { (logout_dialog()) }
            }
        }
    }
}

/// The site's font stylesheets, fetched early without holding up the page or its scripts:
/// preloaded, then made stylesheets by the loader (`client/src/loader/fonts.ts`); without
/// scripts, plain stylesheets.
fn font_links(stylesheets: &[String]) -> Markup {
    html! {
        @if !stylesheets.is_empty() {
            @for href in stylesheets { link rel="preload" as="style" href=(href) data-font-stylesheet; }
            noscript { @for href in stylesheets { link rel="stylesheet" href=(href); } }
        }
    }
}

/// The site's block animation, when it has one: the loader animates blocks into view.
fn block_animation(site: &Site) -> Option<&'static str> {
    let style = site.settings.block_animations.style;
    (style != BlockAnimation::None).then_some(style.name())
}

/// The element id of the `<template>` holding the popup overlay's form block.
pub const POPUP_OVERLAY_FORM_TEMPLATE: &str = "popup-overlay-form";

/// The block whose form the popup overlay shows (`popupOverlay.formId`), if the site has one.
fn overlay_form_block(site: &Site) -> Option<&Block> {
    let overlay = &site.settings.popup_overlay;
    let form_id = overlay.form_id.as_deref().filter(|_| !overlay.style.trim().eq_ignore_ascii_case("none"))?;
    site.pages.iter().flat_map(|p| p.blocks.iter()).find(|b| match &b.data {
        BlockData::Newsletter(n) => n.form_id == form_id,
        BlockData::Form(f) => f.form_id == form_id,
        _ => false,
    })
}

/// What the overlay's copy of a block puts before the block id, so that the copy's element
/// ids (`block-popup-overlay-<id>`, `newsletter-popup-overlay-<id>-email`, …) never repeat
/// those of the same block shown on the page (the newsletter on `/contact`), and its labels
/// stay tied to its own inputs. The forms runtime sends the block id without it.
pub const POPUP_OVERLAY_ID_PREFIX: &str = "popup-overlay-";

/// The popup overlay's form block, inert in a `<template>` until the overlay opens and
/// mounts it inside its dialog; its ids are those of [`POPUP_OVERLAY_ID_PREFIX`].
fn popup_overlay_form(site: &Site, ctx: &BlockCtx<'_>) -> Markup {
    html! {
        @if let Some(b) = overlay_form_block(site) {
            template id=(POPUP_OVERLAY_FORM_TEMPLATE) { (blocks::block(ctx, &overlay_copy(b))) }
        }
    }
}

/// The block as the overlay shows it: the same data under its own id namespace.
fn overlay_copy(block: &Block) -> Block {
    Block { id: format!("{POPUP_OVERLAY_ID_PREFIX}{}", block.id), data: block.data.clone() }
}

/// The mobile information bar: call, write, find and opening hours, shown by the
/// stylesheet only at widths of 1024 px or less.
fn mobile_info_bar(bar: &MobileInfoBarSettings) -> Markup {
    let given = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
    let (phone, email, address, hours) = (given(&bar.phone), given(&bar.email), given(&bar.address), given(&bar.hours));
    let any = phone.is_some() || email.is_some() || address.is_some() || hours.is_some();
    html! {
        @if bar.enabled && any {
            aside class={ "mobile-info-bar mobile-info-bar--" (bar.style) } aria-label="Contact information" {
                ul {
                    @if let Some(phone) = &phone {
                        li { a href={ "tel:" (phone.replace(|c: char| c.is_whitespace(), "")) } { "Call " (phone) } }
                    }
                    @if let Some(email) = &email { li { a href={ "mailto:" (email) } { "Email " (email) } } }
                    @if let Some(address) = &address {
                        li {
                            a href={ "https://www.google.com/maps/search/?api=1&query=" (encode_query(address)) }
                                rel="noopener" target="_blank" {
                                (address) span class="visually-hidden" { " (map, opens in a new window)" }
                            }
                        }
                    }
                    @if let Some(hours) = &hours { li { "Hours: " (hours) } }
                }
            }
        }
    }
}

/// The site header; for a signed-in visitor it carries the logout control, hidden until
/// the page's script (which performs the logout) unhides it.
fn header(site: &Site, texts: &HeaderFooter, current: &str, signed_in: bool) -> Markup {
    let s = &site.settings;
    html! {
        header class="site-header" {
            div {
                a class="site-title" href="/" { (s.website.title) }
                @if !texts.header.trim().is_empty() { p { (texts.header) } }
            }
            @if !site.navigation.main.is_empty() {
                nav aria-label="Main" { (nav_list(&site.navigation.main, current)) }
            }
            @if sells(site) { (cart_badge()) }
            @if signed_in { button type="button" class="logout-button" data-action="logout" hidden { "Log out" } }
        }
    }
}

/// Where the header's cart link goes: the cart page.
pub const CART_PAGE: &str = "/cart";

/// Whether the site has a cart page and something to put in it.
fn sells(site: &Site) -> bool {
    site.pages.iter().any(|p| p.url == CART_PAGE)
        && site.collections.iter().any(|c| c.items.iter().any(|i| i.product.is_some()))
}

/// The header's link to the cart; the `cart-badge` island adds the item count.
fn cart_badge() -> Markup {
    html! {
        a class="cart-badge" href=(CART_PAGE) data-island=(IslandKind::CartBadge.name()) { "Cart" }
    }
}

fn footer(site: &Site, texts: &HeaderFooter, current: &str) -> Markup {
    html! {
        footer class="site-footer" {
            @if !site.navigation.footer.is_empty() {
                nav aria-label="Footer" { (nav_list(&site.navigation.footer, current)) }
            }
            @if !texts.footer.trim().is_empty() { p { (texts.footer) } }
        }
    }
}

fn nav_list(links: &[NavLink], current: &str) -> Markup {
    html! {
        ul {
            @for link in links {
                @if let Some(href) = safe_href(&link.url) {
                    li {
                        a href=(href) aria-current=[is_current(href, current).then_some("page")] { (link.title) }
                    }
                }
            }
        }
    }
}

/// Whether a navigation link points at the page being shown.
fn is_current(href: &str, current: &str) -> bool {
    href.starts_with('/')
        && !href.starts_with("//")
        && veranda_actors::site::site_path(href.split(['?', '#']).next().unwrap_or(href)) == current
}

/// The information dialog of the logout landing (`/?logout=true`). Open without
/// JavaScript; its close button submits a `method="dialog"` form.
fn logout_dialog() -> Markup {
    html! {
        dialog open class="logout-dialog" aria-labelledby="logout-dialog-title" aria-describedby="logout-dialog-message" {
            h2 id="logout-dialog-title" { "Logout Successful" }
            p id="logout-dialog-message" { "You have been successfully logged out." }
            form method="dialog" { button type="submit" autofocus { "Close" } }
        }
    }
}

#[cfg(test)]
mod tests {
    use veranda_actors::site::settings::MobileInfoBarSettings;

    use super::{is_current, mobile_info_bar};

    #[test]
    fn the_mobile_information_bar_links_phone_email_and_map_and_says_the_hours() {
        let bar: MobileInfoBarSettings = serde_json::from_value(serde_json::json!({
            "enabled": true, "style": "location-hours", "phone": "+1 555 0142", "email": "hi@ex.com",
            "address": "12 Linden St", "hours": "Tue–Sun 7–4"
        }))
        .expect("mobile information bar settings parse");
        let html = mobile_info_bar(&bar).into_string();
        assert!(html.contains("class=\"mobile-info-bar mobile-info-bar--location-hours\""));
        assert!(html.contains("href=\"tel:+15550142\""));
        assert!(html.contains("href=\"mailto:hi@ex.com\""));
        assert!(html.contains("query=12%20Linden%20St"));
        assert!(html.contains("Hours: Tue–Sun 7–4"));
        let off = MobileInfoBarSettings { enabled: false, ..bar.clone() };
        assert!(mobile_info_bar(&off).into_string().is_empty());
        let empty = MobileInfoBarSettings { phone: None, email: None, address: None, hours: Some(" ".into()), ..bar };
        assert!(mobile_info_bar(&empty).into_string().is_empty(), "nothing to show, no bar");
    }

    #[test]
    fn navigation_marks_only_the_current_path() {
        assert!(is_current("/about/", "/about"));
        assert!(is_current("/", "/"));
        assert!(is_current("/blog?category=x", "/blog"));
        assert!(!is_current("/blog", "/about"));
        assert!(!is_current("https://example.com/about", "/about"));
    }
}
