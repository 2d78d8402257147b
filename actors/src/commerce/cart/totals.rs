//! Totals, recomputed from the entries, coupons, shipping choice and location after
//! every change.

use super::model::{CartCoupon, ShoppingCart};
use crate::commerce::money::Money;
use crate::commerce::product::ships;
use crate::commerce::rules::{Discount, StoreRules};
use crate::domain::enums::ProductType;

/// Recomputes every derived field of `cart` under `rules`.
pub fn recompute(cart: &mut ShoppingCart, rules: &StoreRules) {
    let mut subtotal: u64 = 0;
    let mut quantity: u32 = 0;
    for entry in &mut cart.entries {
        entry.total_cents = entry.unit_price_cents.saturating_mul(u64::from(entry.quantity));
        subtotal = subtotal.saturating_add(entry.total_cents);
        quantity = quantity.saturating_add(entry.quantity);
    }
    let kind = |name: &str| ProductType::from_name(name);
    let digital = cart.entries.iter().filter(|e| kind(&e.product_type) == Some(ProductType::Digital)).count();
    cart.has_digital = digital > 0;
    cart.purely_digital = !cart.entries.is_empty() && digital == cart.entries.len();
    cart.requires_shipping = cart.entries.iter().any(|e| kind(&e.product_type).is_some_and(ships));

    let mut discount: u64 = 0;
    for coupon in &mut cart.valid_coupons {
        let off = match rules.coupon(&coupon.code).map(|c| c.discount) {
            Some(Discount::Percent(p)) => subtotal.saturating_mul(u64::from(p.min(100))) / 100,
            Some(Discount::Fixed(cents)) => cents,
            None => 0,
        };
        coupon.discount_cents = off.min(subtotal.saturating_sub(discount));
        discount = discount.saturating_add(coupon.discount_cents);
    }
    for coupon in &mut cart.invalid_coupons {
        *coupon = CartCoupon { code: coupon.code.clone(), discount_cents: 0 };
    }
    let taxable = subtotal - discount;

    if cart.requires_shipping {
        cart.shipping_options = rules.shipping.clone();
        let chosen = cart.selected_shipping_option.as_ref().and_then(|o| rules.shipping_option(&o.id));
        cart.selected_shipping_option = chosen.or(rules.shipping.first()).cloned();
    } else {
        cart.shipping_options.clear();
        cart.selected_shipping_option = None;
    }
    let shipping = cart.selected_shipping_option.as_ref().map_or(0, |o| o.cost_cents);

    cart.applicable_tax_rules = rules.taxes.iter().filter(|t| t.applies_to(&cart.shipping_location)).cloned().collect();
    let milli_percent: u64 = cart.applicable_tax_rules.iter().map(|t| u64::from(t.rate_milli_percent)).sum();
    // Rounded half up to the minor unit.
    let tax = (taxable.saturating_mul(milli_percent) + 50_000) / 100_000;

    cart.subtotal_cents = subtotal;
    cart.discount_cents = discount;
    cart.shipping_cost_cents = shipping;
    cart.tax_cents = tax;
    cart.grand_total_cents = taxable.saturating_add(shipping).saturating_add(tax);
    cart.total_quantity = quantity;
    let currency = cart.subtotal_amount.currency();
    cart.subtotal_amount =
        Money::new(currency, i64::try_from(subtotal).unwrap_or(i64::MAX)).unwrap_or_else(|_| Money::zero(currency));
}
