//! Site settings (`site.toml`): the website, store, cookie banner, popup overlay,
//! announcement bar, mobile information bar, captcha, comments and feature flags.
//!
//! The cookie banner, popup overlay, block animations and the announcement and mobile
//! information bars are `overlays`; map tiles are `maps`.
//!
//! Field names are the spec's own (camelCase), so an owner reading the spec can write
//! the file and the page context carries the same names.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod maps;
mod overlays;

pub use maps::{MapSettings, DEFAULT_TILE_URL};
pub use overlays::*;

use crate::domain::enums::{MeasurementUnit, SiteType};

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
    /// The template's name (`templateInstallation.templateWebsite.identifier`), e.g. `porch`;
    /// empty when the site names no template.
    #[serde(default)]
    pub template_identifier: String,
    /// Typekit (Adobe Fonts) kit id, when the site uses a font kit: its stylesheet is linked.
    #[serde(default)]
    pub typekit_id: Option<String>,
    /// The fonts of the kit (`typekitFonts`), described for scripts; they load with the kit.
    #[serde(default)]
    pub typekit_fonts: Vec<TypekitFontSetting>,
    /// Google font families (`includeName`: a family, optionally `:` and its styles, e.g.
    /// `Inter:400,700`), loaded by name from the server's font stylesheet service.
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

/// One font of the site's Typekit kit (`[[website.typekitFonts]]`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypekitFontSetting {
    /// The font's id in the kit (`proxima-nova`).
    pub id: String,
    /// Its variations (font variation descriptions: `n4` normal 400, `i7` italic 700).
    #[serde(default)]
    pub variations: Vec<String>,
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
