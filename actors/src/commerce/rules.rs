//! The store's shipping options, tax rules and coupons, and the limits on a cart.
//!
//! [`StoreRules::default`] holds the demo store's rules; a site may give its own in
//! `commerce.toml` beside `site.toml` (read by [`StoreRules::from_toml`]).

use serde::{Deserialize, Serialize};

/// Most units of one entry.
pub const MAX_ENTRY_QUANTITY: u32 = 1000;
/// Most distinct entries in one cart.
pub const MAX_ENTRIES: usize = 100;
/// Longest coupon code.
pub const MAX_COUPON_LEN: usize = 40;
/// Coupons (valid and invalid) one cart keeps.
pub const MAX_COUPONS: usize = 10;
/// Largest donation, in minor units: the product price limit (spec 000 §5).
pub const MAX_DONATION_CENTS: u64 = 100_000_000;

/// A way to get physical goods to the buyer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingOption {
    /// Stable id, chosen by the buyer.
    pub id: String,
    /// Name shown to the buyer.
    pub name: String,
    /// What it costs, in minor units, whatever the cart holds.
    pub cost_cents: u64,
}

/// A sales tax applied where the order ships.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxRule {
    /// Name shown to the buyer, e.g. "New York sales tax".
    pub name: String,
    /// ISO country code it applies in.
    pub country: String,
    /// Region (state) code it applies in; empty for the whole country.
    #[serde(default)]
    pub region: String,
    /// Rate in thousandths of a percent: 8875 is 8.875 %.
    pub rate_milli_percent: u32,
}

impl TaxRule {
    /// Whether the rule applies to goods shipped to `location`.
    pub fn applies_to(&self, location: &ShippingLocation) -> bool {
        self.country.eq_ignore_ascii_case(&location.country)
            && (self.region.is_empty() || self.region.eq_ignore_ascii_case(&location.region))
    }
}

/// What a coupon takes off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "amount")]
pub enum Discount {
    /// A percentage of the subtotal (1 to 100).
    Percent(u32),
    /// A fixed amount in minor units, at most the subtotal.
    Fixed(u64),
}

/// A coupon code the store accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Coupon {
    /// The code buyers type (compared without case).
    pub code: String,
    /// What it takes off.
    pub discount: Discount,
}

/// Where the order ships.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShippingLocation {
    /// ISO country code.
    #[serde(default)]
    pub country: String,
    /// Region or state code.
    #[serde(default)]
    pub region: String,
    /// Postal code.
    #[serde(default)]
    pub postal_code: String,
}

/// The store's shipping options, tax rules and coupons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreRules {
    /// Shipping options, the first is the default.
    #[serde(default)]
    pub shipping: Vec<ShippingOption>,
    /// Tax rules.
    #[serde(default)]
    pub taxes: Vec<TaxRule>,
    /// Accepted coupons.
    #[serde(default)]
    pub coupons: Vec<Coupon>,
}

impl Default for StoreRules {
    fn default() -> Self {
        StoreRules {
            shipping: vec![
                ShippingOption { id: "standard".into(), name: "Standard shipping".into(), cost_cents: 600 },
                ShippingOption { id: "express".into(), name: "Express shipping".into(), cost_cents: 1500 },
                ShippingOption { id: "pickup".into(), name: "Pick up at the café".into(), cost_cents: 0 },
            ],
            taxes: vec![TaxRule {
                name: "New York sales tax".into(),
                country: "US".into(),
                region: "NY".into(),
                rate_milli_percent: 8875,
            }],
            coupons: vec![
                Coupon { code: "PORCH10".into(), discount: Discount::Percent(10) },
                Coupon { code: "FIVEOFF".into(), discount: Discount::Fixed(500) },
            ],
        }
    }
}

impl StoreRules {
    /// Rules from a `commerce.toml` text.
    pub fn from_toml(text: &str) -> Result<StoreRules, toml::de::Error> {
        toml::from_str(text)
    }

    /// The coupon with `code`, compared without case.
    pub fn coupon(&self, code: &str) -> Option<&Coupon> {
        self.coupons.iter().find(|c| c.code.eq_ignore_ascii_case(code.trim()))
    }

    /// The shipping option with `id`.
    pub fn shipping_option(&self, id: &str) -> Option<&ShippingOption> {
        self.shipping.iter().find(|o| o.id == id)
    }
}
