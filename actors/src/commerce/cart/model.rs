//! The shopping cart record (spec 000 §3 "Shopping cart"), as stored and as sent to
//! the page: every field of the spec, in its names.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::commerce::money::{Currency, Money, MoneyJson};
use crate::commerce::rules::{ShippingLocation, ShippingOption, TaxRule};
use crate::commerce::subscription::PlanTerms;

/// One line of a cart: a variant and how many.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CartEntry {
    /// The variant's SKU; also the entry's id in the cart's routes.
    pub sku: String,
    /// The product item's id.
    pub item_id: String,
    /// The product's title.
    pub title: String,
    /// Option values as `Name: value`.
    pub options: Vec<String>,
    /// physical, digital, service, gift-card.
    pub product_type: String,
    /// Units.
    pub quantity: u32,
    /// Price of one unit when it was added, in minor units.
    pub unit_price_cents: u64,
    /// `quantity × unitPriceCents`.
    pub total_cents: u64,
    /// Whether it is a subscription.
    pub subscription: bool,
    /// A subscription's plan terms, each payment being `totalCents` (see
    /// [`crate::commerce::cart::change::describe_plans`]); absent for anything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plan_terms: Option<PlanTerms>,
}

/// A coupon as the cart lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CartCoupon {
    /// The code as the store spells it (or as typed, when invalid).
    pub code: String,
    /// What it takes off this cart, in minor units (0 when invalid).
    pub discount_cents: u64,
}

/// A shopping cart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ShoppingCart {
    /// The cart id (the cart cookie's value).
    pub id: String,
    /// The site's id.
    pub website_id: String,
    /// The order placed from it, once purchased.
    pub order_id: String,
    /// When it was made (unix ms).
    pub created: i64,
    /// When it was last changed (unix ms; 0 for carts stored before this was kept, whose
    /// `created` stands in). An open cart unchanged for `[commerce] cart_lifetime_secs`
    /// expires.
    #[serde(default)]
    pub updated: i64,
    /// Whether it has been checked out.
    pub is_purchased: bool,
    /// Its lines.
    pub entries: Vec<CartEntry>,
    /// Shipping options the buyer may pick from (empty when nothing ships).
    pub shipping_options: Vec<ShippingOption>,
    /// Tax rules that apply to where it ships.
    pub applicable_tax_rules: Vec<TaxRule>,
    /// Codes the buyer entered, in order.
    pub coupons: Vec<String>,
    /// Entered codes the store accepts.
    pub valid_coupons: Vec<CartCoupon>,
    /// Entered codes the store does not know.
    pub invalid_coupons: Vec<CartCoupon>,
    /// The chosen shipping option.
    pub selected_shipping_option: Option<ShippingOption>,
    /// Where it ships.
    pub shipping_location: ShippingLocation,
    /// Sum of the entries.
    pub subtotal_cents: u64,
    /// Tax on the discounted subtotal.
    pub tax_cents: u64,
    /// The chosen shipping option's cost, when something ships.
    pub shipping_cost_cents: u64,
    /// What the valid coupons take off (at most the subtotal).
    pub discount_cents: u64,
    /// Subtotal − discount + shipping + tax.
    pub grand_total_cents: u64,
    /// Units across all entries.
    pub total_quantity: u32,
    /// The subtotal as a money object in the store currency.
    #[ts(as = "MoneyJson")]
    pub subtotal_amount: Money,
    /// Some entry is digital.
    pub has_digital: bool,
    /// Every entry is digital (and there is at least one).
    pub purely_digital: bool,
    /// Some entry is physical.
    pub requires_shipping: bool,
}

impl ShoppingCart {
    /// An empty cart with `id`, in `currency`.
    pub fn new(id: &str, website_id: &str, currency: Currency, created: i64) -> ShoppingCart {
        ShoppingCart {
            id: id.to_string(),
            website_id: website_id.to_string(),
            order_id: String::new(),
            created,
            updated: created,
            is_purchased: false,
            entries: Vec::new(),
            shipping_options: Vec::new(),
            applicable_tax_rules: Vec::new(),
            coupons: Vec::new(),
            valid_coupons: Vec::new(),
            invalid_coupons: Vec::new(),
            selected_shipping_option: None,
            shipping_location: ShippingLocation::default(),
            subtotal_cents: 0,
            tax_cents: 0,
            shipping_cost_cents: 0,
            discount_cents: 0,
            grand_total_cents: 0,
            total_quantity: 0,
            subtotal_amount: Money::zero(currency),
            has_digital: false,
            purely_digital: false,
            requires_shipping: false,
        }
    }

    /// When it was last changed (unix ms).
    pub fn last_changed(&self) -> i64 {
        self.updated.max(self.created)
    }

    /// The entry for `sku`.
    pub fn entry(&self, sku: &str) -> Option<&CartEntry> {
        self.entries.iter().find(|e| e.sku == sku)
    }
}
