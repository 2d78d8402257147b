//! The document around a page body: head (meta, canonical link, inline stylesheet, page
//! context, loader), skip link, announcement bar, header with the main navigation,
//! footer, and the logout information dialog.

use maud::{html, Markup, PreEscaped, DOCTYPE};
use veranda_actors::site::content::NavLink;
use veranda_actors::site::Site;

use super::blocks::BlockCtx;
use super::util::{safe_href, script_json};
use super::{bodies, style, PageBody, PageView};

/// `website.baseUrl` joined with a site path.
pub fn canonical_url(site: &Site, path: &str) -> String {
    format!("{}{}", site.settings.website.base_url.trim_end_matches('/'), path)
}

/// The full document.
pub fn document(view: &PageView<'_>, ctx: &BlockCtx<'_>) -> Markup {
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
                style { (PreEscaped(style::CRITICAL_CSS)) }
                @for css in &view.assets.loader_css { link rel="stylesheet" href=(css); }
                script id="page-context" type="application/json" { (PreEscaped(script_json(view.context))) }
                @if let Some(js) = &view.assets.loader_js { script type="module" src=(js) {} }
            }
            body class={ "page-type-" (view.context.page_type.name()) } {
                a class="skip-link" href="#main" { "Skip to content" }
                (announcement_bar(view.site))
                (header(view.site, &view.context.page_path, view.context.authenticated_account.is_some()))
                main id="main" tabindex="-1" { (bodies::body(view, ctx)) }
                (footer(view.site, &view.context.page_path))
                @if view.logout_dialog { (logout_dialog()) }
            }
        }
    }
}

fn announcement_bar(site: &Site) -> Markup {
    let bar = &site.settings.announcement_bar;
    html! {
        @if bar.enabled && !bar.text.trim().is_empty() {
            aside class="announcement-bar" aria-label="Announcement" {
                @match bar.url.as_deref().and_then(safe_href) {
                    Some(href) => a href=(href) { (bar.text) },
                    None => (bar.text),
                }
            }
        }
    }
}

/// The site header; for a signed-in visitor it carries the logout control, hidden until
/// the page's script (which performs the logout) unhides it.
fn header(site: &Site, current: &str, signed_in: bool) -> Markup {
    let s = &site.settings;
    html! {
        header class="site-header" {
            div {
                a class="site-title" href="/" { (s.website.title) }
                @if !s.header_footer.header.trim().is_empty() { p { (s.header_footer.header) } }
            }
            @if !site.navigation.main.is_empty() {
                nav aria-label="Main" { (nav_list(&site.navigation.main, current)) }
            }
            @if signed_in { button type="button" class="logout-button" data-action="logout" hidden { "Log out" } }
        }
    }
}

fn footer(site: &Site, current: &str) -> Markup {
    let s = &site.settings;
    html! {
        footer class="site-footer" {
            @if !site.navigation.footer.is_empty() {
                nav aria-label="Footer" { (nav_list(&site.navigation.footer, current)) }
            }
            @if !s.header_footer.footer.trim().is_empty() { p { (s.header_footer.footer) } }
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
    use super::is_current;

    #[test]
    fn navigation_marks_only_the_current_path() {
        assert!(is_current("/about/", "/about"));
        assert!(is_current("/", "/"));
        assert!(is_current("/blog?category=x", "/blog"));
        assert!(!is_current("/blog", "/about"));
        assert!(!is_current("https://example.com/about", "/about"));
    }
}
