//! Interactive content blocks: accordion, marquee, scaled text, button, member area.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::one;

/// One accordion item.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccordionItem {
    /// The clickable title.
    pub title: String,
    /// The panel's rich text.
    pub html: String,
}

/// An accordion.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccordionBlock {
    /// The items.
    pub accordion_items: Vec<AccordionItem>,
    /// Optional description above the items.
    #[serde(default)]
    pub description: String,
    /// Whether several items may be open at once.
    #[serde(default)]
    pub allow_multiple_open: bool,
    /// Whether the first item starts expanded.
    #[serde(default)]
    pub is_first_item_expanded: bool,
}

/// Scrolling text (spec 001 §3 "Marquee block props").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarqueeBlock {
    /// The text that scrolls.
    pub text: String,
    /// Wave frequency (default 1).
    #[serde(default = "one")]
    pub wave_frequency: f64,
    /// Wave intensity (default 0).
    #[serde(default)]
    pub wave_intensity: f64,
    /// left or right (default left).
    #[serde(default = "default_direction")]
    pub animation_direction: String,
    /// Speed factor (default 1).
    #[serde(default = "one")]
    pub animation_speed: f64,
    /// Pause while hovered (default false).
    #[serde(default)]
    pub paused_on_hover: bool,
}

fn default_direction() -> String {
    "left".into()
}

/// Text that scales to fit its container (minimum font size 11 px).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScaledTextBlock {
    /// The text.
    pub text: String,
    /// Heading level 1–4, or 0 for a paragraph.
    #[serde(default)]
    pub level: u8,
}

/// A button link.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ButtonBlock {
    /// Button text.
    pub button_text: String,
    /// Where it goes.
    pub clickthrough_url: String,
    /// left, center or right.
    #[serde(default = "default_center")]
    pub alignment: String,
    /// small, medium or large.
    #[serde(default = "default_medium")]
    pub size: String,
    /// Opens in a new window.
    #[serde(default)]
    pub new_window: bool,
}

fn default_center() -> String {
    "center".into()
}
fn default_medium() -> String {
    "medium".into()
}

/// One price option of the member access pricing toggle.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PricingOption {
    /// Toggle label, e.g. Monthly.
    pub label: String,
    /// Price in cents.
    pub price_cents: u64,
    /// Billing period: weekly, monthly or yearly.
    pub billing_period: String,
    /// Join button text.
    #[serde(default = "default_join")]
    pub join_text: String,
}

fn default_join() -> String {
    "Join".into()
}

/// A member area: sign-up with a two-option pricing toggle.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberAreaBlock {
    /// Heading.
    pub title: String,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Exactly two price options (left and right).
    pub pricing_options: Vec<PricingOption>,
}
