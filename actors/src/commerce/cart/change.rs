//! The changes a buyer makes to a cart, applied to a [`ShoppingCart`] as plain
//! functions; the totals are recomputed after each.

use serde::Deserialize;

use super::error::CartError;
use super::model::{CartCoupon, CartEntry, ShoppingCart};
use super::totals::recompute;
use crate::commerce::catalog::Catalog;
use crate::commerce::rules::{
    ShippingLocation, StoreRules, MAX_COUPONS, MAX_COUPON_LEN, MAX_ENTRIES, MAX_ENTRY_QUANTITY,
};
use crate::commerce::subscription::PlanTerms;

/// Longest field of a shipping location.
const MAX_LOCATION_FIELD: usize = 64;

/// One change to a cart.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum CartChange {
    /// Adds `quantity` units of `sku` (to its entry, if there is one).
    AddEntry {
        /// The variant.
        sku: String,
        /// Units to add.
        quantity: u32,
    },
    /// Sets the quantity of the entry for `sku`.
    ChangeQuantity {
        /// The entry.
        sku: String,
        /// The new quantity.
        quantity: u32,
    },
    /// Removes the entry for `sku`.
    RemoveEntry {
        /// The entry.
        sku: String,
    },
    /// Enters a coupon code; unknown codes land in `invalidCoupons`.
    ApplyCoupon {
        /// The code as typed.
        code: String,
    },
    /// Removes a coupon code.
    RemoveCoupon {
        /// The code.
        code: String,
    },
    /// Chooses a shipping option.
    SelectShipping {
        /// The option's id.
        option_id: String,
    },
    /// Sets where the order ships (decides the tax rules).
    SetShippingLocation(ShippingLocation),
    /// Marks the cart purchased by order `order_id`.
    MarkPurchased {
        /// The order placed.
        order_id: String,
    },
}

/// Applies `change` to `cart` and recomputes its totals; on error `cart` may be
/// partly changed, so callers apply changes to a copy.
pub fn apply(
    cart: &mut ShoppingCart,
    change: CartChange,
    catalog: &Catalog,
    rules: &StoreRules,
) -> Result<(), CartError> {
    if cart.is_purchased {
        return Err(CartError::Purchased);
    }
    match change {
        CartChange::AddEntry { sku, quantity } => add_entry(cart, &sku, quantity, catalog)?,
        CartChange::ChangeQuantity { sku, quantity } => {
            check_quantity(quantity)?;
            let entry = cart.entries.iter_mut().find(|e| e.sku == sku).ok_or(CartError::NotInCart(sku))?;
            entry.quantity = quantity;
        }
        CartChange::RemoveEntry { sku } => {
            let before = cart.entries.len();
            cart.entries.retain(|e| e.sku != sku);
            if cart.entries.len() == before {
                return Err(CartError::NotInCart(sku));
            }
        }
        CartChange::ApplyCoupon { code } => apply_coupon(cart, code.trim(), rules)?,
        CartChange::RemoveCoupon { code } => {
            let code = code.trim();
            cart.coupons.retain(|c| !c.eq_ignore_ascii_case(code));
            cart.valid_coupons.retain(|c| !c.code.eq_ignore_ascii_case(code));
            cart.invalid_coupons.retain(|c| !c.code.eq_ignore_ascii_case(code));
        }
        CartChange::SelectShipping { option_id } => {
            let option = rules.shipping_option(&option_id).ok_or(CartError::UnknownShippingOption(option_id))?;
            cart.selected_shipping_option = Some(option.clone());
        }
        CartChange::SetShippingLocation(location) => {
            for field in [&location.country, &location.region, &location.postal_code] {
                if field.chars().count() > MAX_LOCATION_FIELD {
                    return Err(CartError::BadLocation(format!("fields are at most {MAX_LOCATION_FIELD} characters")));
                }
            }
            cart.shipping_location = location;
        }
        CartChange::MarkPurchased { order_id } => {
            cart.is_purchased = true;
            cart.order_id = order_id;
            recompute(cart, rules);
            return Ok(());
        }
    }
    reprice(cart, catalog, rules);
    Ok(())
}

/// Sets every entry's unit price to what `catalog` sells its variant for now and
/// recomputes the totals and the plan terms: the price in force, not the one of the day
/// it was added. Entries the catalog no longer has keep their price (checkout refuses them).
pub fn reprice(cart: &mut ShoppingCart, catalog: &Catalog, rules: &StoreRules) {
    for entry in &mut cart.entries {
        if let Some(variant) = catalog.get(&entry.sku) {
            entry.unit_price_cents = variant.unit_price_cents;
        }
    }
    recompute(cart, rules);
    describe_plans(cart, catalog);
}

/// Sets the plan terms of every entry `catalog` sells under a subscription plan, one
/// payment being the entry's total (`docs/commerce.md`: two units of a $25.00 plan are
/// paid $50.00 at a time); other entries have none. Entries the catalog no longer has
/// keep theirs.
pub fn describe_plans(cart: &mut ShoppingCart, catalog: &Catalog) {
    let currency = cart.subtotal_amount.currency();
    for entry in &mut cart.entries {
        let Some(variant) = catalog.get(&entry.sku) else { continue };
        entry.plan_terms =
            variant.subscription.as_ref().and_then(|plan| PlanTerms::of_cents(plan, entry.total_cents, currency));
    }
}

fn check_quantity(quantity: u32) -> Result<(), CartError> {
    if quantity == 0 || quantity > MAX_ENTRY_QUANTITY {
        return Err(CartError::BadQuantity { max: MAX_ENTRY_QUANTITY });
    }
    Ok(())
}

fn add_entry(cart: &mut ShoppingCart, sku: &str, quantity: u32, catalog: &Catalog) -> Result<(), CartError> {
    check_quantity(quantity)?;
    let variant = catalog.get(sku).ok_or_else(|| CartError::UnknownVariant(sku.to_string()))?;
    if !variant.sellable {
        return Err(CartError::NotForSale(variant.title.clone()));
    }
    if let Some(entry) = cart.entries.iter_mut().find(|e| e.sku == sku) {
        let total = entry.quantity.saturating_add(quantity);
        check_quantity(total)?;
        entry.quantity = total;
        return Ok(());
    }
    if cart.entries.len() >= MAX_ENTRIES {
        return Err(CartError::TooManyEntries(MAX_ENTRIES));
    }
    cart.entries.push(CartEntry {
        sku: variant.sku.clone(),
        item_id: variant.item_id.clone(),
        title: variant.title.clone(),
        options: variant.options.clone(),
        product_type: variant.product_type.name().to_string(),
        quantity,
        unit_price_cents: variant.unit_price_cents,
        total_cents: 0,
        subscription: variant.subscription.is_some(),
        plan_terms: None,
    });
    Ok(())
}

fn apply_coupon(cart: &mut ShoppingCart, code: &str, rules: &StoreRules) -> Result<(), CartError> {
    if code.is_empty() || code.chars().count() > MAX_COUPON_LEN {
        return Err(CartError::BadCoupon(MAX_COUPON_LEN));
    }
    if cart.coupons.iter().any(|c| c.eq_ignore_ascii_case(code)) {
        return Ok(());
    }
    if cart.coupons.len() >= MAX_COUPONS {
        return Err(CartError::TooManyCoupons(MAX_COUPONS));
    }
    cart.coupons.push(code.to_string());
    match rules.coupon(code) {
        Some(coupon) => cart.valid_coupons.push(CartCoupon { code: coupon.code.clone(), discount_cents: 0 }),
        None => cart.invalid_coupons.push(CartCoupon { code: code.to_string(), discount_cents: 0 }),
    }
    Ok(())
}
