//! The page context (spec 000 §3 "Page context"): the JSON every published page embeds
//! in `<script id="page-context" type="application/json">` for the loader and islands.
//!
//! Field names are the spec's. Decisions where the spec says "not shown":
//! - `websiteRoles` is "the website roles map" (spec 001 §6): each contributor role id the
//!   signed-in account holds on this site, as a key, maps to `true` (`{"10": true}` for a
//!   viewer); empty for visitors, members and an owner without contributor roles.
//! - `analyticsId`, `marketingId` and `sessionId` (spec 001 §3) are the visitor's
//!   `SS_ANALYTICS_ID`, `SS_MID` and `SS_SESSION_ID`, filled by the server only in pages
//!   rendered for that visitor alone (never in a page the cache shares), and by the loader
//!   from the cookies (see `docs/analytics.md`).
//! - `fontStylesheets` are the addresses of the site's font stylesheets (Google families and
//!   the Typekit kit) on the server's font services; `websiteSettings.commentCountScriptUrl`
//!   the comment-count script of a site with comments and a short name.
//! - `rollups` maps a module name to its `js` and `css` URLs (hashed, long-cached).
//! - `collection.permissionType`: 1 public, 2 password, 3 members.
//! - `cookieSettings` is the component naming form (`isAnalyticsCookiesDisabled`,
//!   `isActivityLogEnabled`), mapped from the API form in `site.toml`.

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;

use crate::site::settings::{
    AnnouncementBarSettings, CaptchaSettings, FeatureFlag, MobileInfoBarSettings, PopupOverlaySettings,
};

/// The page context.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageContext {
    /// The website.
    pub website: WebsiteContext,
    /// Website settings the runtime reads.
    pub website_settings: WebsiteSettingsContext,
    /// The signed-in account, if any.
    pub authenticated_account: Option<AccountContext>,
    /// The website roles map: role id → `true` for each role of the signed-in account on
    /// this site (empty for visitors and members).
    #[ts(type = "Partial<Record<ContributorRole, boolean>>")]
    pub website_roles: BTreeMap<u16, bool>,
    /// Template id.
    pub template_id: String,
    /// Template version.
    pub template_version: String,
    /// Template installation.
    pub template_installation: TemplateInstallation,
    /// Page type id.
    #[ts(type = "PageType")]
    pub page_type: crate::domain::enums::PageType,
    /// Collection id, on collection and item pages.
    pub collection_id: Option<String>,
    /// The collection, on collection and item pages.
    pub collection: Option<CollectionContext>,
    /// Item id, on item pages.
    pub item_id: Option<String>,
    /// The item, on item pages.
    pub item: Option<ItemContext>,
    /// Demo collections (none on a self-hosted site).
    pub demo_collections: Vec<String>,
    /// Script and stylesheet groups by module name.
    pub rollups: BTreeMap<String, Rollup>,
    /// Google font families.
    pub google_fonts: Vec<GoogleFont>,
    /// Typekit fonts.
    pub typekit_fonts: Vec<TypekitFont>,
    /// Stylesheets of the fonts above on the server's font services (none without fonts).
    pub font_stylesheets: Vec<String>,
    /// Whether the announcement bar is shown.
    pub show_announcement_bar: bool,
    /// Permission ids of the signed-in account.
    pub access_permissions: Vec<u16>,
    /// Domain of the configuration area.
    pub app_domain: String,
    /// Page id (pages) or item id (items), for census payloads.
    pub page_id: Option<String>,
    /// Document title.
    pub page_title: String,
    /// Path of this page.
    pub page_path: String,
    /// The filters of a content link's query string.
    pub filters: BTreeMap<String, String>,
    /// Feature flags and A/B tests from the site settings.
    #[ts(type = "Record<string, unknown>")]
    pub features: BTreeMap<String, FeatureFlag>,
    /// Whether visitor analytics may be recorded on this view (spec 000 §6).
    pub analytics_enabled: bool,
    /// The visitor's `SS_ANALYTICS_ID`, when the server knows it for this page alone.
    pub analytics_id: Option<String>,
    /// The visitor's marketing id, `SS_MID`, likewise.
    pub marketing_id: Option<String>,
    /// The visitor's `SS_SESSION_ID`, likewise.
    pub session_id: Option<String>,
}

/// The `website` object.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebsiteContext {
    /// Website id.
    pub id: String,
    /// Public origin.
    pub base_url: String,
    /// Developer mode.
    pub developer_mode: bool,
    /// Cloneable.
    pub cloneable: bool,
    /// Typekit id.
    pub typekit_id: Option<String>,
    /// Site title.
    pub site_title: String,
    /// Locale.
    pub language: String,
}

/// The `websiteSettings` object.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebsiteSettingsContext {
    /// Comment service short name.
    pub disqus_shortname: Option<String>,
    /// Comments on.
    pub comments_enabled: bool,
    /// The comment-count script, when comments are on and a short name is given.
    pub comment_count_script_url: Option<String>,
    /// The script that shows an item's comment thread, when comments are on and a short name is given.
    pub comment_thread_script_url: Option<String>,
    /// Popup overlay settings.
    pub popup_overlay_settings: PopupOverlaySettings,
    /// Mobile information bar settings.
    pub mobile_info_bar_settings: MobileInfoBarSettings,
    /// Pinterest overlay options.
    pub pinterest_overlay_options: PinterestOverlayOptions,
    /// Cookie settings, component naming form.
    pub cookie_settings: CookieSettingsContext,
    /// Site badge type.
    pub ss_badge_type: u8,
    /// Store settings.
    pub store_settings: StoreSettingsContext,
    /// Announcement bar.
    pub announcement_bar_settings: AnnouncementBarSettings,
    /// Captcha settings.
    pub captcha_settings: CaptchaSettings,
    /// Where the reCAPTCHA script loads from (the server's `[forms] recaptcha_script_url`).
    pub captcha_script_url: String,
    /// Escape key opens the login prompt.
    pub use_escape_key_to_login: bool,
}

/// Pinterest overlay options.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PinterestOverlayOptions {
    /// Mode (`disabled` unless configured).
    pub mode: String,
}

/// `storeSettings`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StoreSettingsContext {
    /// Currency code, default USD.
    pub selected_currency: String,
}

/// Cookie banner settings in the component naming form.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CookieSettingsContext {
    /// Whether the banner is enabled.
    pub is_cookie_banner_enabled: bool,
    /// Banner text (empty means the default text).
    pub cookie_banner_text: String,
    /// Accept label.
    pub cookie_banner_cta_text: String,
    /// Decline label.
    pub cookie_banner_opt_out_cta_text: String,
    /// CTA variant as written (normalised by the client).
    pub cookie_banner_cta_variant: Option<String>,
    /// Variant as written.
    pub cookie_banner_variant: Option<String>,
    /// Theme as written.
    pub cookie_banner_theme: Option<String>,
    /// Accept type as written.
    pub cookie_banner_accept_type: Option<String>,
    /// Position as written.
    pub cookie_banner_position: String,
    /// From `isRestrictiveCookiePolicyEnabled`.
    pub is_analytics_cookies_disabled: bool,
    /// The inverse of `isVisitorDataRestricted`.
    pub is_activity_log_enabled: bool,
    /// Restrictive policy is absolute.
    pub is_restrictive_cookie_policy_absolute: bool,
}

/// `authenticatedAccount`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountContext {
    /// Account id.
    pub id: String,
}

/// `templateInstallation`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TemplateInstallation {
    /// The template website.
    pub template_website: TemplateWebsite,
}

/// `templateInstallation.templateWebsite`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TemplateWebsite {
    /// Id.
    pub id: String,
    /// Identifier.
    pub identifier: String,
}

/// `collection`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CollectionContext {
    /// Title.
    pub title: String,
    /// Collection type number.
    #[serde(rename = "type")]
    pub kind: u8,
    /// 1 public, 2 password, 3 members.
    pub permission_type: u8,
}

/// `item`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ItemContext {
    /// Title.
    pub title: String,
    /// Record type id.
    #[ts(type = "ItemType")]
    pub record_type: crate::domain::enums::ItemType,
}

/// One rollup: scripts and stylesheets of a module.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Rollup {
    /// Script URLs.
    pub js: Vec<String>,
    /// Stylesheet URLs.
    pub css: Vec<String>,
}

/// A Google font.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GoogleFont {
    /// Family name as included.
    pub include_name: String,
}

/// A Typekit font.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TypekitFont {
    /// Font id.
    pub id: String,
    /// Variations.
    pub variations: Vec<String>,
}
