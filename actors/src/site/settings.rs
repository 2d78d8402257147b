//! Site settings (`site.toml`): the website, store, cookie banner, popup overlay,
//! announcement bar, mobile information bar, captcha, comments and feature flags.
//!
//! Field names are the spec's own (camelCase), so an owner reading the spec can write
//! the file and the page context carries the same names.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod maps;

pub use maps::{MapSettings, DEFAULT_TILE_URL};

use crate::domain::enums::{
    CookieBannerAcceptType, CookieBannerCtaVariant, CookieBannerTheme, CookieBannerVariant, MeasurementUnit, SiteType,
};

/// Everything in `site.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SiteSettings {
    /// Identity and addresses of the website.
    pub website: WebsiteSettings,
    /// Store currency and measurement system.
    #[serde(default)]
    pub store: StoreSettings,
    /// The cookie consent banner (spec 000 §3 "Cookie banner settings").
    #[serde(default)]
    pub cookie_banner: CookieBannerSettings,
    /// The popup overlay (spec 000 §3 "Popup overlay settings").
    #[serde(default)]
    pub popup_overlay: PopupOverlaySettings,
    /// The announcement bar above the header.
    #[serde(default)]
    pub announcement_bar: AnnouncementBarSettings,
    /// The mobile information bar (shown at 1024 px or less).
    #[serde(default)]
    pub mobile_info_bar: MobileInfoBarSettings,
    /// How blocks enter the page as they scroll into view.
    #[serde(default)]
    pub block_animations: BlockAnimationSettings,
    /// Which captcha forms use.
    #[serde(default)]
    pub captcha: CaptchaSettings,
    /// Comments on collection items.
    #[serde(default)]
    pub comments: CommentSettings,
    /// Header and footer text.
    #[serde(default)]
    pub header_footer: HeaderFooter,
    /// Where forms may send visitors after success.
    #[serde(default)]
    pub forms: FormsSiteSettings,
    /// Which providers video blocks may embed, besides the defaults (`[embeds]`).
    #[serde(default)]
    pub embeds: EmbedSettings,
    /// Map tiles and the optional Google Maps key (`[maps]`).
    #[serde(default)]
    pub maps: MapSettings,
    /// Feature flags and A/B tests, by name.
    #[serde(default)]
    pub features: BTreeMap<String, FeatureFlag>,
    /// Visitor analytics switched off for the whole site.
    #[serde(default)]
    pub analytics_disabled: bool,
    /// Whether the escape key opens the login prompt for visitors.
    #[serde(default)]
    pub use_escape_key_to_login: bool,
}

/// Forms settings of the site (`[forms]`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormsSiteSettings {
    /// Origins (`https://host[:port]`) besides the site's own that a form's
    /// `successRedirect` may lead to; see [`crate::forms::redirect`].
    #[serde(default)]
    pub redirect_allow_list: Vec<String>,
}

/// Embed providers of the site (`[embeds]`): see [`crate::site::embeds`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmbedSettings {
    /// Domains (e.g. `videos.example.com`) whose https addresses, and their subdomains',
    /// video blocks may embed besides the default providers.
    #[serde(default)]
    pub providers: Vec<String>,
}

impl SiteSettings {
    /// The providers this site's video blocks may embed.
    pub fn embed_allow_list(&self) -> crate::site::embeds::EmbedAllowList {
        crate::site::embeds::EmbedAllowList::new(&self.embeds.providers)
    }

    /// Where this site's forms may send visitors after success.
    pub fn redirect_policy(&self) -> crate::site::redirect::RedirectPolicy {
        crate::site::redirect::RedirectPolicy::new(&self.website.base_url, &self.forms.redirect_allow_list)
    }
}

/// The website's identity.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebsiteSettings {
    /// 24 lowercase alphanumerics; the `websiteId` of every payload.
    pub id: String,
    /// Shown in the header and the document title.
    pub title: String,
    /// The public origin, e.g. `https://example.com`; used for owner-redirect checks.
    pub base_url: String,
    /// BCP 47 locale, e.g. `en-US`.
    #[serde(default = "default_locale")]
    pub locale: String,
    /// Site type (classic, cover-page, parking-page, commerce, enterprise).
    #[serde(default = "default_site_type")]
    pub site_type: SiteType,
    /// Developer mode: the owner redirect is skipped.
    #[serde(default)]
    pub developer_mode: bool,
    /// Cloneable site: the owner redirect is skipped.
    #[serde(default)]
    pub cloneable: bool,
    /// Template id carried into the page context and error reports.
    #[serde(default)]
    pub template_id: String,
    /// Template version carried into the page context.
    #[serde(default)]
    pub template_version: String,
    /// Typekit id, when the site uses a font kit.
    #[serde(default)]
    pub typekit_id: Option<String>,
    /// Google font families, loaded by name.
    #[serde(default)]
    pub google_fonts: Vec<String>,
    /// Domain of the configuration area; empty means this host.
    #[serde(default)]
    pub app_domain: String,
    /// The site badge type (0 none).
    #[serde(default)]
    pub ss_badge_type: u8,
    /// Meta description of the site.
    #[serde(default)]
    pub description: String,
}

fn default_locale() -> String {
    "en-US".into()
}
fn default_site_type() -> SiteType {
    SiteType::Classic
}

/// Store settings (`storeSettings` in the page context).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreSettings {
    /// One of the 27 supported currencies; default USD.
    #[serde(default = "default_currency")]
    pub selected_currency: String,
    /// Weight and dimension units.
    #[serde(default = "default_measurement")]
    #[ts(type = "MeasurementUnit")]
    pub measurement_system: MeasurementUnit,
}

impl Default for StoreSettings {
    fn default() -> Self {
        Self { selected_currency: default_currency(), measurement_system: default_measurement() }
    }
}

fn default_currency() -> String {
    "USD".into()
}
fn default_measurement() -> MeasurementUnit {
    MeasurementUnit::Imperial
}

/// The 27 supported store currencies (spec 000 §9).
pub const SUPPORTED_CURRENCIES: [&str; 27] = [
    "EUR", "USD", "AUD", "NOK", "CAD", "NZD", "DKK", "GBP", "HKD", "CHF", "MXN", "SGD", "SEK", "CZK", "ILS", "PHP",
    "RUB", "PLN", "THB", "MYR", "ARS", "BRL", "COP", "IDR", "INR", "JPY", "ZAR",
];

/// Cookie banner settings in the spec's API naming form.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CookieBannerSettings {
    /// Whether the banner is shown at all.
    #[serde(default)]
    pub is_cookie_banner_enabled: bool,
    /// Banner text; empty means the default text.
    #[serde(default)]
    pub cookie_banner_text: String,
    /// Accept label; empty means 'Accept'.
    #[serde(default)]
    pub cookie_banner_cta_text: String,
    /// Decline label; empty means 'Decline'.
    #[serde(default)]
    pub cookie_banner_opt_out_cta_text: String,
    /// TEXT, BUTTON or ICON; anything else becomes ICON when normalised.
    #[serde(default)]
    #[ts(optional)]
    pub cookie_banner_cta_variant: Option<CookieBannerCtaVariant>,
    /// BAR or POPUP; anything else becomes BAR.
    #[serde(default)]
    #[ts(optional)]
    pub cookie_banner_variant: Option<CookieBannerVariant>,
    /// LIGHT or DARK; anything else becomes DARK.
    #[serde(default)]
    #[ts(optional)]
    pub cookie_banner_theme: Option<CookieBannerTheme>,
    /// OPT_IN or OPT_IN_AND_OUT; default OPT_IN.
    #[serde(default)]
    #[ts(optional)]
    pub cookie_banner_accept_type: Option<CookieBannerAcceptType>,
    /// Position name (see spec 000 §5 for how it maps to TOP/BOTTOM or a corner).
    #[serde(default)]
    pub cookie_banner_position: String,
    /// Restrictive policy: analytics cookies are cleared until consent.
    #[serde(default)]
    pub is_restrictive_cookie_policy_enabled: bool,
    /// Restrictive policy applies absolutely.
    #[serde(default)]
    pub is_restrictive_cookie_policy_absolute: bool,
    /// Visitor data restricted (the inverse of the component form's `isActivityLogEnabled`).
    #[serde(default)]
    pub is_visitor_data_restricted: bool,
}

impl Default for CookieBannerSettings {
    fn default() -> Self {
        Self {
            is_cookie_banner_enabled: false,
            cookie_banner_text: String::new(),
            cookie_banner_cta_text: String::new(),
            cookie_banner_opt_out_cta_text: String::new(),
            cookie_banner_cta_variant: None,
            cookie_banner_variant: None,
            cookie_banner_theme: None,
            cookie_banner_accept_type: None,
            cookie_banner_position: String::new(),
            is_restrictive_cookie_policy_enabled: false,
            is_restrictive_cookie_policy_absolute: false,
            is_visitor_data_restricted: false,
        }
    }
}

/// Popup overlay settings.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PopupOverlaySettings {
    /// Style name; `none` hides the overlay.
    #[serde(default = "default_popup_style")]
    pub style: String,
    /// Whether the overlay shows on mobile.
    #[serde(default)]
    pub enable_mobile: bool,
    /// Settings version; a new version shows the overlay again.
    #[serde(default)]
    pub version: u32,
    /// Keep showing until the visitor signs up.
    #[serde(default)]
    pub show_until_signup: bool,
    /// Days before showing again after closing; -1 never again.
    #[serde(default)]
    pub display_frequency: i32,
    /// Overlay heading.
    #[serde(default)]
    pub title: String,
    /// Overlay body text.
    #[serde(default)]
    pub body: String,
    /// Seconds after page load before it shows.
    #[serde(default)]
    pub delay_seconds: u32,
    /// Id of a newsletter form block shown inside the overlay, if any.
    #[serde(default)]
    #[ts(optional)]
    pub form_id: Option<String>,
}

fn default_popup_style() -> String {
    "none".into()
}

impl Default for PopupOverlaySettings {
    fn default() -> Self {
        Self {
            style: default_popup_style(),
            enable_mobile: false,
            version: 0,
            show_until_signup: false,
            display_frequency: 0,
            title: String::new(),
            body: String::new(),
            delay_seconds: 0,
            form_id: None,
        }
    }
}

/// How a block enters the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockAnimation {
    /// No animation.
    #[default]
    None,
    /// Fades in.
    Fade,
    /// Fades in while sliding up.
    Slide,
    /// Fades in while growing to full size.
    Scale,
}

impl BlockAnimation {
    /// The name written in `site.toml` and on the page.
    pub fn name(self) -> &'static str {
        match self {
            BlockAnimation::None => "none",
            BlockAnimation::Fade => "fade",
            BlockAnimation::Slide => "slide",
            BlockAnimation::Scale => "scale",
        }
    }
}

/// Block animations: each block animates once it is seen (off in edit mode and under
/// reduced motion).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BlockAnimationSettings {
    /// The animation every block gets.
    #[serde(default)]
    pub style: BlockAnimation,
    /// Its duration in seconds.
    #[serde(default = "default_animation_seconds")]
    pub duration_seconds: f64,
}

impl Default for BlockAnimationSettings {
    fn default() -> Self {
        BlockAnimationSettings { style: BlockAnimation::None, duration_seconds: default_animation_seconds() }
    }
}

/// The animation default of spec 001 §9: 0.3 s.
fn default_animation_seconds() -> f64 {
    0.3
}

/// The announcement bar.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnnouncementBarSettings {
    /// Whether it shows to visitors (`showAnnouncementBar`).
    #[serde(default)]
    pub enabled: bool,
    /// Its text.
    #[serde(default)]
    pub text: String,
    /// Where clicking it goes, if anywhere.
    #[serde(default)]
    #[ts(optional)]
    pub url: Option<String>,
}

/// The mobile information bar.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MobileInfoBarSettings {
    /// Whether it shows (at widths of 1024 px or less).
    #[serde(default)]
    pub enabled: bool,
    /// Bar style name.
    #[serde(default)]
    pub style: String,
    /// Phone number to call.
    #[serde(default)]
    #[ts(optional)]
    pub phone: Option<String>,
    /// E-mail address to write to.
    #[serde(default)]
    #[ts(optional)]
    pub email: Option<String>,
    /// Postal address for the map link.
    #[serde(default)]
    #[ts(optional)]
    pub address: Option<String>,
    /// Opening hours text.
    #[serde(default)]
    #[ts(optional)]
    pub hours: Option<String>,
}

/// Captcha provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum CaptchaProvider {
    /// The self-hosted proof-of-work captcha.
    #[default]
    Altcha,
    /// reCAPTCHA, verified server-side when a key is configured.
    Recaptcha,
}

/// Captcha settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaptchaSettings {
    /// Which provider forms with a captcha use.
    #[serde(default)]
    pub provider: CaptchaProvider,
    /// The provider's public site key (reCAPTCHA only).
    #[serde(default)]
    #[ts(optional)]
    pub site_key: Option<String>,
}

/// Comment settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CommentSettings {
    /// Whether items show comments.
    #[serde(default)]
    pub comments_enabled: bool,
    /// The comment service short name, if one is used.
    #[serde(default)]
    #[ts(optional)]
    pub disqus_shortname: Option<String>,
}

/// Site header and footer (`/api/site-header-footer`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HeaderFooter {
    /// Plain text shown under the site title.
    #[serde(default)]
    pub header: String,
    /// Plain text shown in the footer.
    #[serde(default)]
    pub footer: String,
}

/// A feature flag: a typed value, or an A/B test with variants.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum FeatureFlag {
    /// On or off.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// An A/B test: variants with their share of visitors.
    Experiment {
        /// Variant name to share (0–100); shares add up to 100.
        variants: BTreeMap<String, u8>,
        /// The variant given when the test is not found or not running.
        default: String,
    },
}
