//! Builds the page context (spec 000 §3) of one published view.
//!
//! Everything in it is the same for every visitor of a cached page except [`VisitorIds`],
//! the only part read from the visitor's cookies: pages the cache shares carry none.

use std::collections::BTreeMap;

use actix_web::HttpRequest;
use veranda_actors::accounts::SessionRecord;
use veranda_actors::context::*;
use veranda_actors::domain::enums::PageType;
use veranda_actors::forms::config::RECAPTCHA_SCRIPT_URL;
use veranda_actors::site::{Collection, Item, Site};
use veranda_actors::telemetry::cookie::VisitorId;
use veranda_actors::telemetry::session_ids::{ANALYTICS_ID_COOKIE, SESSION_ID_COOKIE};

use crate::query::encode_query;
use crate::settings::PageSettings;

/// The marketing id cookie (spec 001 §9: a session cookie made on a campaign landing).
pub const MARKETING_ID_COOKIE: &str = "SS_MID";

/// The visitor's analytics, marketing and session ids (spec 001 §3), as their cookies
/// (`SS_ANALYTICS_ID`, `SS_MID`, `SS_SESSION_ID`) bring them. Only well-formed word/dash ids
/// are kept, and none under a restrictive cookie policy without `ss_cookieAllowed=true`
/// (the rule the census applies before it stores or sets them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VisitorIds {
    /// `SS_ANALYTICS_ID`.
    pub analytics: Option<String>,
    /// `SS_MID`.
    pub marketing: Option<String>,
    /// `SS_SESSION_ID`.
    pub session: Option<String>,
}

impl VisitorIds {
    /// The ids `req` brings for `site`.
    pub fn of(req: &HttpRequest, site: &Site) -> VisitorIds {
        if !crate::security::cookies::identifiers_allowed(req, site) {
            return VisitorIds::default();
        }
        let id = |name: &str| {
            let cookie = req.cookie(name)?;
            VisitorId::parse(cookie.value()).ok().map(|id| id.as_str().to_string())
        };
        VisitorIds {
            analytics: id(ANALYTICS_ID_COOKIE),
            marketing: id(MARKETING_ID_COOKIE),
            session: id(SESSION_ID_COOKIE),
        }
    }
}

/// What the view shows, for the context's page and collection fields.
pub struct ContextInput<'a> {
    /// Page type.
    pub page_type: PageType,
    /// The request path.
    pub path: &'a str,
    /// Document title.
    pub title: String,
    /// Page id, for standalone pages.
    pub page_id: Option<&'a str>,
    /// The collection, on collection and item views.
    pub collection: Option<&'a Collection>,
    /// The item, on item views.
    pub item: Option<&'a Item>,
    /// Content-link filters.
    pub filters: BTreeMap<String, String>,
    /// The signed-in session.
    pub session: Option<&'a SessionRecord>,
    /// The visitor's ids: [`VisitorIds::default`] for a page the cache shares.
    pub visitor: VisitorIds,
    /// Where fonts and the comment-count script load from (`[pages]` of `veranda.toml`).
    pub services: &'a PageSettings,
}

/// The page context of a view. The captcha script is Google's; a server with its own
/// `[forms] recaptcha_script_url` sets it after (see `pages`).
pub fn build(site: &Site, input: ContextInput<'_>) -> PageContext {
    let s = &site.settings;
    let w = &s.website;
    let cookie = &s.cookie_banner;
    PageContext {
        website: WebsiteContext {
            id: w.id.clone(),
            base_url: w.base_url.clone(),
            developer_mode: w.developer_mode,
            cloneable: w.cloneable,
            typekit_id: w.typekit_id.clone(),
            site_title: w.title.clone(),
            language: w.locale.clone(),
        },
        website_settings: WebsiteSettingsContext {
            disqus_shortname: s.comments.disqus_shortname.clone(),
            comments_enabled: s.comments.comments_enabled,
            comment_count_script_url: comment_script(site, &input.services.comment_count_script_url),
            comment_thread_script_url: comment_script(site, &input.services.comment_thread_script_url),
            popup_overlay_settings: s.popup_overlay.clone(),
            mobile_info_bar_settings: s.mobile_info_bar.clone(),
            pinterest_overlay_options: PinterestOverlayOptions { mode: "disabled".into() },
            cookie_settings: CookieSettingsContext {
                is_cookie_banner_enabled: cookie.is_cookie_banner_enabled,
                cookie_banner_text: cookie.cookie_banner_text.clone(),
                cookie_banner_cta_text: cookie.cookie_banner_cta_text.clone(),
                cookie_banner_opt_out_cta_text: cookie.cookie_banner_opt_out_cta_text.clone(),
                cookie_banner_cta_variant: cookie.cookie_banner_cta_variant.map(|v| json_name(&v)),
                cookie_banner_variant: cookie.cookie_banner_variant.map(|v| json_name(&v)),
                cookie_banner_theme: cookie.cookie_banner_theme.map(|v| json_name(&v)),
                cookie_banner_accept_type: cookie.cookie_banner_accept_type.map(|v| json_name(&v)),
                cookie_banner_position: cookie.cookie_banner_position.clone(),
                is_analytics_cookies_disabled: cookie.is_restrictive_cookie_policy_enabled,
                is_activity_log_enabled: !cookie.is_visitor_data_restricted,
                is_restrictive_cookie_policy_absolute: cookie.is_restrictive_cookie_policy_absolute,
            },
            ss_badge_type: w.ss_badge_type,
            store_settings: StoreSettingsContext { selected_currency: s.store.selected_currency.clone() },
            announcement_bar_settings: s.announcement_bar.clone(),
            captcha_settings: s.captcha.clone(),
            captcha_script_url: RECAPTCHA_SCRIPT_URL.to_string(),
            use_escape_key_to_login: s.use_escape_key_to_login,
        },
        authenticated_account: input.session.map(|s| AccountContext { id: s.account_id.clone() }),
        website_roles: input.session.map(|s| s.roles.iter().map(|r| (r.id(), true)).collect()).unwrap_or_default(),
        template_id: w.template_id.clone(),
        template_version: w.template_version.clone(),
        template_installation: TemplateInstallation {
            template_website: TemplateWebsite { id: w.template_id.clone(), identifier: w.template_identifier.clone() },
        },
        page_type: input.page_type,
        collection_id: input.collection.map(|c| c.id.clone()),
        collection: input.collection.map(|c| CollectionContext {
            title: c.title.clone(),
            kind: c.kind.type_id(),
            permission_type: c.access.permission_type(),
        }),
        item_id: input.item.map(|i| i.id.clone()),
        item: input.item.map(|i| ItemContext { title: i.title.clone(), record_type: i.record_type }),
        demo_collections: Vec::new(),
        rollups: BTreeMap::new(),
        google_fonts: w.google_fonts.iter().map(|f| GoogleFont { include_name: f.clone() }).collect(),
        typekit_fonts: w
            .typekit_fonts
            .iter()
            .map(|f| TypekitFont { id: f.id.clone(), variations: f.variations.clone() })
            .collect(),
        font_stylesheets: font_stylesheets(site, input.services),
        show_announcement_bar: s.announcement_bar.enabled || input.session.is_some(),
        access_permissions: input.session.map(SessionRecord::access_permissions).unwrap_or_default(),
        app_domain: w.app_domain.clone(),
        page_id: input.item.map(|i| i.id.clone()).or_else(|| input.page_id.map(str::to_string)),
        page_title: input.title,
        page_path: input.path.to_string(),
        filters: input.filters,
        features: s.features.clone(),
        analytics_enabled: analytics_enabled(site, input.page_type, input.path, input.session),
        analytics_id: input.visitor.analytics,
        marketing_id: input.visitor.marketing,
        session_id: input.visitor.session,
    }
}

/// The site's font stylesheets: its Google families in one request to `[pages]
/// google_fonts_url` (`?family=A|B:400,700&display=swap`, the CSS API every
/// Google-compatible mirror answers), then its Typekit kit's stylesheet. A site naming no
/// fonts, or a server with the service's address empty, links none.
pub fn font_stylesheets(site: &Site, services: &PageSettings) -> Vec<String> {
    let w = &site.settings.website;
    let mut out = Vec::new();
    if !w.google_fonts.is_empty() && !services.google_fonts_url.is_empty() {
        let families: Vec<String> =
            w.google_fonts.iter().map(|name| encode_query(name.trim()).replace("%20", "+")).collect();
        out.push(format!("{}?family={}&display=swap", services.google_fonts_url, families.join("%7C")));
    }
    if let Some(kit) = w.typekit_id.as_deref().filter(|_| !services.typekit_url.is_empty()) {
        out.push(services.typekit_url.replace("{kit}", kit));
    }
    out
}

/// One comment script (`[pages] comment_count_script_url` or `comment_thread_script_url`) of a
/// site with comments on and a short name, `{shortname}` replaced; none when `template` is empty.
pub fn comment_script(site: &Site, template: &str) -> Option<String> {
    let comments = &site.settings.comments;
    let name = comments.disqus_shortname.as_deref().map(str::trim).filter(|n| !n.is_empty())?;
    (comments.comments_enabled && !template.is_empty()).then(|| template.replace("{shortname}", name))
}

/// Spec 000 §6: analytics are recorded only with no signed-in account or one whose only
/// role is viewer, never under `/config`, never on not-found, lock-screen or
/// member-area-denied pages, and never when disabled for the site.
pub fn analytics_enabled(site: &Site, page_type: PageType, path: &str, session: Option<&SessionRecord>) -> bool {
    let config_area = path == "/config" || path.starts_with("/config/");
    !site.settings.analytics_disabled
        && !page_type.suppresses_analytics()
        && !config_area
        && session.is_none_or(SessionRecord::analytics_allowed)
}

/// The serde name of a string enum value (e.g. `BAR`).
fn json_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}
