//! Product rules (spec 000 §5, §9): prices, SKUs (generated when empty), variants.

use super::rules::{generated_sku, MAX_PRICE_CENTS, MAX_SKU_LEN};
use super::Loader;
use crate::site::content::Product;

/// Billing period units a subscription may use.
const BILLING_UNITS: [&str; 3] = ["weekly", "monthly", "yearly"];

impl Loader {
    /// Checks `product` of item `item_id` and fills in empty SKUs.
    pub(super) fn check_product(&mut self, file: &str, item_id: &str, product: &mut Product) {
        if product.variants.is_empty() {
            self.problems.add(file, "product.variants", "a product needs at least one variant");
        }
        for (i, variant) in product.variants.iter_mut().enumerate() {
            let field = format!("product.variants[{i}]");
            if variant.price > MAX_PRICE_CENTS {
                let message = format!("{} cents is more than the maximum of {MAX_PRICE_CENTS}", variant.price);
                self.problems.add(file, format!("{field}.price"), message);
            }
            if variant.sale_price > MAX_PRICE_CENTS {
                let message = format!("{} cents is more than the maximum of {MAX_PRICE_CENTS}", variant.sale_price);
                self.problems.add(file, format!("{field}.salePrice"), message);
            }
            if variant.on_sale && variant.sale_price >= variant.price {
                self.problems.add(file, format!("{field}.salePrice"), "must be lower than the price when on sale");
            }
            if variant.sku.trim().is_empty() {
                variant.sku = generated_sku(item_id, i);
            }
            let length = variant.sku.chars().count();
            if length > MAX_SKU_LEN {
                let message = format!("is {length} characters; at most {MAX_SKU_LEN} are allowed");
                self.problems.add(file, format!("{field}.sku"), message);
            }
            let here = format!("{file} {field}.sku");
            if let Some(first) = self.skus.get(&variant.sku) {
                let message = format!("SKU '{}' is already used by {first}", variant.sku);
                self.problems.add(file, format!("{field}.sku"), message);
            } else {
                self.skus.insert(variant.sku.clone(), here);
            }
        }
        if let Some(plan) = &product.subscription {
            if !BILLING_UNITS.contains(&plan.billing_period.unit.as_str()) {
                let message = format!("'{}' must be one of {}", plan.billing_period.unit, BILLING_UNITS.join(", "));
                self.problems.add(file, "product.subscription.billingPeriod.unit", message);
            }
            if plan.billing_period.value == 0 {
                self.problems.add(file, "product.subscription.billingPeriod.value", "must be at least 1");
            }
        }
        if product.weight.is_some_and(|w| w.is_nan() || w < 0.0) {
            self.problems.add(file, "product.weight", "must be zero or more");
        }
        if let Some(d) = product.dimensions {
            for (name, value) in [("length", d.length), ("width", d.width), ("height", d.height)] {
                if value.is_nan() || value < 0.0 {
                    self.problems.add(file, format!("product.dimensions.{name}"), "must be zero or more");
                }
            }
        }
    }
}
