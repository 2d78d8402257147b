//! Published pages: content links (a url id plus filters), the search page, and the
//! page types a visitor can reach (lock screen, members only, not found, logout landing).
//! Shared by the routes that answer with a page (the route table, the cart page, sign-in
//! and unlock), so no route imports another.
//!
//! ## Layout
//!
//! - `html`: HTML responses (compressed, ETag, no-store) and plain-text refusals.
//! - `crumb`: crumbs for pages that post plain HTML forms.
//! - `unlock`: password pages' gate and lock screen.

pub mod crumb;
pub mod html;
pub mod unlock;

use crate::security::cookies::{cookie_decoded, cookie_value, site_cookie};
use std::collections::BTreeMap;

use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use veranda_actors::accounts::SessionRecord;
use veranda_actors::domain::enums::PageType;
use veranda_actors::site::{Access, Resolved, Site};

use crate::edge::method;
use crate::page_cache::{CachedPage, Lookup, PageKey};
use crate::page_context::{self, ContextInput, VisitorIds};
use crate::render::{render_page_with, AnnouncementId, PageBody, PageView, ANNOUNCEMENT_COOKIE};
use crate::security::crumb::{crumb_set_cookie, CRUMB_COOKIE};
use crate::security::owner_redirect::{self, Decision, RedirectInput, NOREDIRECT_COOKIE};
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// Query parameters that change behaviour and are never content filters.
const BEHAVIOUR_PARAMS: [&str; 5] = ["noredirect", "logout", "nomotion", "sqsscreenshot", "crumb"];

/// Campaign and click-id parameters that links from ads, social sites and mailings add:
/// read by the page's scripts (ad pixels, landing telemetry), never content filters.
const TRACKING_PARAMS: [&str; 11] =
    ["fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "igshid", "ttclid", "twclid", "mc_cid", "mc_eid"];

/// The filters a collection applies (`matches_filters`); a link with any other is not cached.
const FILTER_NAMES: [&str; 4] = ["category", "tag", "author", "month"];

/// Whether `name` is a campaign or click-id parameter.
fn is_tracking(name: &str) -> bool {
    name.starts_with("utm_") || TRACKING_PARAMS.contains(&name)
}

/// A content link split into its url id (the path) and its filters (the query).
#[derive(Debug, PartialEq, Eq)]
pub struct ContentLink {
    /// The path, normalised.
    pub url_id: String,
    /// Query parameters other than the behaviour parameters.
    pub filters: BTreeMap<String, String>,
}

impl ContentLink {
    /// Splits a path and raw query string. Undecodable query pairs are dropped.
    pub fn parse(path: &str, query: &str) -> ContentLink {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
        let filters = pairs
            .into_iter()
            .filter(|(k, _)| !k.is_empty() && !BEHAVIOUR_PARAMS.contains(&k.as_str()) && !is_tracking(k))
            .take(16)
            .collect();
        ContentLink { url_id: veranda_actors::site::site_path(path), filters }
    }
}

/// Any published page (the default service).
pub async fn show(req: HttpRequest, state: web::Data<AppState>, session: CurrentSession) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return method::page_method_not_allowed();
    }
    // Which site and header are shown, read before the site itself: a page rendered from
    // an older site is then never kept under a newer generation.
    let generations = Generations::now(&state);
    // The site as edited: the loaded site with the stored content edits applied.
    let site = &state.services.site.current();
    let link = ContentLink::parse(req.path(), req.query_string());
    let redirect = redirect_decision(&req, site, session.0.as_ref());
    if let Decision::Redirect(location) = &redirect {
        return HttpResponse::Found().insert_header((header::LOCATION, location.clone())).finish();
    }
    let logout_dialog = link.url_id == "/" && query_flag(&req, "logout", "true");
    let mut response = match site.resolve(&link.url_id) {
        None => not_found(&req, &state),
        Some(resolved) => view(&req, &state, resolved, link, session.0.as_ref(), logout_dialog, generations),
    };
    if redirect == Decision::ServeAndRemember {
        let cookie = site_cookie(NOREDIRECT_COOKIE, "1").http_only(true).finish();
        let _ = response.add_cookie(&cookie);
    }
    response
}

/// The search page, `/search?q=…`.
pub async fn search(req: HttpRequest, state: web::Data<AppState>, session: CurrentSession) -> HttpResponse {
    let site = &state.services.site.current();
    if let Decision::Redirect(location) = redirect_decision(&req, site, session.0.as_ref()) {
        return HttpResponse::Found().insert_header((header::LOCATION, location)).finish();
    }
    let params = web::Query::<BTreeMap<String, String>>::from_query(req.query_string()).map(|q| q.into_inner());
    let params = params.unwrap_or_default();
    let query: String = params.get("q").cloned().unwrap_or_default().chars().take(200).collect();
    // A search block's `collection` (a folder name) limits the results to its items.
    let collection = params.get("collection").map(|c| c.trim().to_string()).filter(|c| !c.is_empty());
    let hits = if query.trim().is_empty() { Vec::new() } else { site.search(&query, collection.as_deref()) };
    let title = if query.is_empty() { "Search".to_string() } else { format!("Search: {query}") };
    respond(
        &req,
        &state,
        StatusCode::OK,
        PageType::Search,
        "/search",
        title,
        None,
        None,
        None,
        BTreeMap::new(),
        session.0.as_ref(),
        PageBody::Search { query, collection, hits },
        false,
    )
}

/// The not-found page (HTTP 404, page type 100).
pub fn not_found(req: &HttpRequest, state: &AppState) -> HttpResponse {
    let session = CurrentSession::of(req);
    respond(
        req,
        state,
        StatusCode::NOT_FOUND,
        PageType::NotFound,
        req.path(),
        "Page Not Found".into(),
        None,
        None,
        None,
        BTreeMap::new(),
        session.0.as_ref(),
        PageBody::NotFound,
        false,
    )
}

/// The edit generations of the site and of its header and footer.
#[derive(Debug, Clone, Copy)]
struct Generations {
    site: u64,
    header_footer: u64,
}

impl Generations {
    fn now(state: &AppState) -> Generations {
        Generations {
            site: state.services.site.generation(),
            header_footer: state.services.streams.site_edits.header_footer_generation(),
        }
    }
}

fn view(
    req: &HttpRequest,
    state: &AppState,
    resolved: Resolved<'_>,
    link: ContentLink,
    session: Option<&SessionRecord>,
    logout_dialog: bool,
    generations: Generations,
) -> HttpResponse {
    let path = link.url_id.as_str();
    let access = resolved.access();
    let title = match resolved {
        Resolved::Page(p) => p.title.clone(),
        Resolved::Collection(c) => c.title.clone(),
        Resolved::Item(_, i) => i.title.clone(),
    };
    let (collection, item, page_id) = match resolved {
        Resolved::Page(p) => (None, None, Some(p.id.as_str())),
        Resolved::Collection(c) => (Some(c), None, None),
        Resolved::Item(c, i) => (Some(c), Some(i), None),
    };
    // The same gate the telemetry recording rules read, so the page context and the
    // server agree on whether this view is recorded.
    let unlocked = access == Access::Password && unlock::unlocked(req, state, resolved);
    let gate = access.gate(session, unlocked).map(|page_type| {
        let body = match page_type {
            PageType::LockScreen => unlock::lock_screen(req, state, title.clone(), None),
            PageType::MemberAreaAccessDenied => PageBody::MemberAreaDenied { title: title.clone() },
            _ => PageBody::MembersOnly { title: title.clone() },
        };
        (page_type, body)
    });
    let gated = gate.is_some();
    let (status, page_type, body) = match gate {
        Some((page_type, body)) => {
            let status =
                if page_type == PageType::MemberAreaAccessDenied { StatusCode::FORBIDDEN } else { StatusCode::OK };
            (status, page_type, body)
        }
        None => match resolved {
            Resolved::Page(p) => {
                let page_type = if p.splash { PageType::SplashPage } else { PageType::Page };
                (StatusCode::OK, page_type, PageBody::Page(p))
            }
            Resolved::Collection(c) => {
                let items = c.items.iter().filter(|i| matches_filters(i, &link.filters)).collect();
                (StatusCode::OK, PageType::MainContent, PageBody::Collection { collection: c, items })
            }
            Resolved::Item(c, i) => (StatusCode::OK, PageType::ContentItem, PageBody::Item { collection: c, item: i }),
        },
    };
    let parts = PageParts {
        page_type,
        path,
        title,
        page_id,
        collection,
        item,
        filters: link.filters,
        session,
        body,
        logout_dialog,
    };
    // The same page for every visitor who is not signed in and closed the same announcement.
    let shared = access == Access::Public
        && !gated
        && session.is_none()
        && state.page_cache.enabled()
        && parts.filters.keys().all(|name| FILTER_NAMES.contains(&name.as_str()));
    if !shared {
        Lookup::Bypass.count();
        return answer(req, state, status, parts);
    }
    let key = PageKey {
        site: generations.site,
        header_footer: generations.header_footer,
        day: time::OffsetDateTime::now_utc().date(),
        url_id: link.url_id.clone(),
        filters: parts.filters.clone(),
        // Closing an announcement that is no longer shown changes nothing: one key for all.
        dismissed_announcement: dismissed_announcement(req)
            .filter(|id| *id == AnnouncementId::of(&state.services.site.current().settings.announcement_bar.text))
            .map(|id| id.as_str().to_string()),
        logout_dialog,
    };
    let page = match state.page_cache.get(&key) {
        Some(page) => {
            Lookup::Hit.count();
            page
        }
        None => {
            Lookup::Miss.count();
            // Shared by every visitor of the key: no visitor's ids.
            let body = markup(req, state, parts, VisitorIds::default());
            state.page_cache.insert(key.clone(), CachedPage::new(status, body))
        }
    };
    let response = html::send(req, page.status, &page.tags, page.body.identity().len(), |coding| {
        state.page_cache.body(&key, &page, coding)
    });
    with_crumb(req, state, response)
}

/// Whether an item passes a content link's filters (`category`, `tag`, `author`, `month`).
/// Unknown filter names do not filter.
fn matches_filters(item: &veranda_actors::site::Item, filters: &BTreeMap<String, String>) -> bool {
    filters.iter().all(|(name, value)| match name.as_str() {
        "category" => item.categories.iter().any(|c| c.eq_ignore_ascii_case(value)),
        "tag" => item.tags.iter().any(|t| t.eq_ignore_ascii_case(value)),
        "author" => item.author.eq_ignore_ascii_case(value),
        "month" => item.published_on.starts_with(value.as_str()),
        _ => true,
    }) && item.state == veranda_actors::domain::enums::PublicationState::Published
}

/// What a page shows and for whom: everything its HTML is made from.
struct PageParts<'a> {
    page_type: PageType,
    path: &'a str,
    title: String,
    page_id: Option<&'a str>,
    collection: Option<&'a veranda_actors::site::Collection>,
    item: Option<&'a veranda_actors::site::Item>,
    filters: BTreeMap<String, String>,
    session: Option<&'a SessionRecord>,
    body: PageBody<'a>,
    logout_dialog: bool,
}

/// Renders a page for this request alone.
#[allow(clippy::too_many_arguments)]
pub fn respond(
    req: &HttpRequest,
    state: &AppState,
    status: StatusCode,
    page_type: PageType,
    path: &str,
    title: String,
    page_id: Option<&str>,
    collection: Option<&veranda_actors::site::Collection>,
    item: Option<&veranda_actors::site::Item>,
    filters: BTreeMap<String, String>,
    session: Option<&SessionRecord>,
    body: PageBody<'_>,
    logout_dialog: bool,
) -> HttpResponse {
    let parts = PageParts { page_type, path, title, page_id, collection, item, filters, session, body, logout_dialog };
    answer(req, state, status, parts)
}

/// Renders `parts` and answers with it.
fn answer(req: &HttpRequest, state: &AppState, status: StatusCode, parts: PageParts<'_>) -> HttpResponse {
    let visitor = VisitorIds::of(req, &state.services.site.current());
    with_crumb(req, state, html::page(req, status, markup(req, state, parts, visitor)))
}

/// The announcement the visitor closed (the `ss_announcementBarDismissed` cookie).
fn dismissed_announcement(req: &HttpRequest) -> Option<AnnouncementId> {
    cookie_decoded(req, ANNOUNCEMENT_COOKIE).and_then(|value| AnnouncementId::parse(&value))
}

/// Every page hands out a crumb for the calls it will make, unless it has a good one.
/// The crumb issued for this request, if any, is the one the page's forms carry.
fn with_crumb(req: &HttpRequest, state: &AppState, mut response: HttpResponse) -> HttpResponse {
    let has_crumb = cookie_value(req, CRUMB_COOKIE).is_some_and(|c| state.crumb_key.verifies(req, c));
    if !has_crumb {
        if let Some(value) = crumb_set_cookie(&crumb::issued_or_new(req, state)) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

/// The page's HTML, carrying `visitor`'s ids (none for a page the cache shares).
fn markup(req: &HttpRequest, state: &AppState, parts: PageParts<'_>, visitor: VisitorIds) -> String {
    let PageParts { page_type, path, title, page_id, collection, item, filters, session, body, logout_dialog } = parts;
    let site = state.services.site.current();
    let services = &state.settings.pages;
    let mut context = page_context::build(
        &site,
        ContextInput { page_type, path, title, page_id, collection, item, filters, session, visitor, services },
    );
    context.website_settings.captcha_script_url.clone_from(&state.settings.forms.recaptcha_script_url);
    let dismissed_announcement = dismissed_announcement(req);
    let view =
        PageView { site: &site, context: &context, assets: &state.assets, body, logout_dialog, dismissed_announcement };
    render_page_with(&view, &state.services.streams.site_edits.header_footer())
}

/// `Sec-Fetch-Dest`, named once (a name given as a string is parsed on every lookup).
static SEC_FETCH_DEST: header::HeaderName = header::HeaderName::from_static("sec-fetch-dest");

fn redirect_decision(req: &HttpRequest, site: &Site, session: Option<&SessionRecord>) -> Decision {
    // A page loaded inside a frame (the configuration area's preview) is never redirected.
    let in_frame =
        req.headers().get(&SEC_FETCH_DEST).is_some_and(|v| v.as_bytes() == b"iframe" || v.as_bytes() == b"frame");
    if in_frame {
        return Decision::Serve;
    }
    // Only a signed-in owner's host is compared.
    let host = session.map(|_| crate::security::proxy::ClientInfo::of(req).host).unwrap_or_default();
    let host = host_name(&host);
    owner_redirect::decide(
        &RedirectInput {
            session,
            host,
            noredirect_param: query_has(req, "noredirect"),
            noredirect_cookie: cookie_value(req, NOREDIRECT_COOKIE).is_some(),
            path: req.path(),
            query: req.query_string(),
        },
        &site.settings,
    )
}

/// The host name of a `Host` header value, without the port (IPv6 brackets kept).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        host.split_inclusive(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    }
}

fn query_pairs(req: &HttpRequest) -> Vec<(String, String)> {
    serde_urlencoded::from_str(req.query_string()).unwrap_or_default()
}

fn query_has(req: &HttpRequest, name: &str) -> bool {
    !req.query_string().is_empty() && query_pairs(req).iter().any(|(k, _)| k == name)
}

fn query_flag(req: &HttpRequest, name: &str, value: &str) -> bool {
    !req.query_string().is_empty() && query_pairs(req).iter().any(|(k, v)| k == name && v == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_links_split_into_url_id_and_filters() {
        let link = ContentLink::parse("/blog/", "category=Travel&tag=porch&nomotion=true");
        assert_eq!(link.url_id, "/blog");
        assert_eq!(link.filters.len(), 2);
        assert_eq!(link.filters["category"], "Travel");
    }

    #[test]
    fn host_names_lose_their_port() {
        assert_eq!(host_name("localhost:8080"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:80"), "[::1]");
    }
}
