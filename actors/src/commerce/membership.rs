//! Joining a member area (spec 001 §2, member access pricing): the visitor buys one of the
//! area's pricing options as a subscription. The option becomes a one-entry subscription
//! order whose SKU names its billing period (`MEMBERSHIP-MONTHLY`), so the order's
//! confirmation can say how it renews without the area at hand.

use super::cart::CartEntry;
use super::subscription::BillingUnit;
use crate::site::blocks::{MemberAreaBlock, PricingOption};
use crate::site::content::{BillingPeriod, SubscriptionPlan};
use crate::site::{BlockData, Site};

/// The product type of a membership entry.
pub const MEMBERSHIP_PRODUCT_TYPE: &str = "membership";
/// The start of a membership entry's SKU; the billing period follows in capitals.
pub const MEMBERSHIP_SKU_PREFIX: &str = "MEMBERSHIP-";

/// The SKU of a membership billed every `unit`.
pub fn sku(unit: BillingUnit) -> String {
    format!("{MEMBERSHIP_SKU_PREFIX}{}", unit_name(unit).to_ascii_uppercase())
}

/// `weekly`, `monthly` or `yearly`.
fn unit_name(unit: BillingUnit) -> &'static str {
    match unit {
        BillingUnit::Weekly => "weekly",
        BillingUnit::Monthly => "monthly",
        BillingUnit::Yearly => "yearly",
    }
}

/// The plan of a membership entry's SKU: one period, renewing until cancelled; `None` for
/// any other SKU.
pub fn plan_of_sku(sku: &str) -> Option<SubscriptionPlan> {
    let unit = BillingUnit::parse(&sku.strip_prefix(MEMBERSHIP_SKU_PREFIX)?.to_ascii_lowercase())?;
    Some(SubscriptionPlan {
        billing_period: BillingPeriod { value: 1, unit: unit_name(unit).to_string() },
        num_billing_cycles: 0,
    })
}

/// The member area block `id` of `site`, if there is one.
pub fn find_area<'a>(site: &'a Site, id: &str) -> Option<&'a MemberAreaBlock> {
    site.blocks().find(|b| b.id == id).and_then(|b| match &b.data {
        BlockData::MemberArea(area) => Some(area),
        _ => None,
    })
}

/// The path of the page holding member area block `id`, when a page (not a collection
/// item) holds it.
pub fn area_page<'a>(site: &'a Site, id: &str) -> Option<&'a str> {
    site.pages.iter().find(|p| p.blocks.iter().any(|b| b.id == id)).map(|p| p.url.as_str())
}

/// The pricing option `index` of `area`, when it has one with a known billing period.
pub fn option(area: &MemberAreaBlock, index: usize) -> Option<(&PricingOption, BillingUnit)> {
    let option = area.pricing_options.get(index)?;
    Some((option, BillingUnit::parse(&option.billing_period)?))
}

/// The order entry of joining member area `area_id` (`area`) with its option `index`.
pub fn entry(area_id: &str, area: &MemberAreaBlock, index: usize) -> Option<CartEntry> {
    let (option, unit) = option(area, index)?;
    Some(CartEntry {
        sku: sku(unit),
        item_id: area_id.to_string(),
        title: area.title.clone(),
        options: vec![option.label.clone()],
        product_type: MEMBERSHIP_PRODUCT_TYPE.to_string(),
        quantity: 1,
        unit_price_cents: option.price_cents,
        total_cents: option.price_cents,
        subscription: true,
        plan_terms: None,
    })
}

/// Whether an order of `entries` joins a member area: paying it makes its buyer a member.
pub fn joins(entries: &[CartEntry]) -> bool {
    entries.iter().any(|e| e.product_type == MEMBERSHIP_PRODUCT_TYPE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area() -> MemberAreaBlock {
        let option = |label: &str, price_cents, period: &str| PricingOption {
            label: label.into(),
            price_cents,
            billing_period: period.into(),
            join_text: "Join".into(),
        };
        MemberAreaBlock {
            title: "Porch members".into(),
            description: String::new(),
            pricing_options: vec![option("Monthly", 900, "monthly"), option("Odd", 1, "fortnightly")],
        }
    }

    #[test]
    fn an_option_becomes_a_subscription_entry_at_its_price() {
        let entry = entry("area-1", &area(), 0).expect("an entry");
        assert_eq!(entry.sku, "MEMBERSHIP-MONTHLY");
        assert_eq!((entry.unit_price_cents, entry.total_cents, entry.quantity), (900, 900, 1));
        assert!(entry.subscription);
        assert_eq!(entry.options, vec!["Monthly".to_string()]);
    }

    #[test]
    fn an_order_joins_when_it_holds_a_membership_entry() {
        let mut entries = vec![entry("area-1", &area(), 0).expect("an entry")];
        assert!(joins(&entries));
        entries[0].product_type = "physical".into();
        assert!(!joins(&entries));
    }

    #[test]
    fn unknown_options_and_periods_give_no_entry() {
        assert!(entry("area-1", &area(), 1).is_none(), "fortnightly is no billing period");
        assert!(entry("area-1", &area(), 2).is_none());
    }

    #[test]
    fn the_sku_names_the_plan() {
        let plan = plan_of_sku("MEMBERSHIP-YEARLY").expect("a plan");
        assert_eq!(
            (plan.billing_period.value, plan.billing_period.unit.as_str(), plan.num_billing_cycles),
            (1, "yearly", 0)
        );
        assert!(plan_of_sku("VER-SUB-MONTHLY").is_none());
        assert!(plan_of_sku("MEMBERSHIP-DAILY").is_none());
    }
}
