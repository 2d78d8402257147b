//! What a site shows over or around its pages (`site.toml`): the cookie banner, the
//! popup overlay, block animations, the announcement bar and the mobile information bar.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::domain::enums::{CookieBannerAcceptType, CookieBannerCtaVariant, CookieBannerTheme, CookieBannerVariant};

/// Cookie banner settings in the spec's API naming form.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
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
