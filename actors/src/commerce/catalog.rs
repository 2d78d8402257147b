//! The catalog: every sellable variant of the site by SKU, with what a cart entry and
//! the inventory need to know of it. Built from the site as visitors see it; a
//! [`LiveCatalog`] holds the one in force, replaced whole when the site is edited.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use crate::domain::enums::ProductType;
use crate::site::content::{Access, Product, SubscriptionPlan};
use crate::site::Site;

use super::product::{sold_in_cart, tracks_stock, unit_price, ProductWorkflow};

/// One variant as the cart sees it.
#[derive(Debug, Clone)]
pub struct CatalogVariant {
    /// The variant's SKU (unique in the site).
    pub sku: String,
    /// The product item's id.
    pub item_id: String,
    /// The product's title.
    pub title: String,
    /// Option values as `Name: value` pairs, for the entry's label.
    pub options: Vec<String>,
    /// physical, digital, service, gift card.
    pub product_type: ProductType,
    /// What one unit costs now, in minor units.
    pub unit_price_cents: u64,
    /// Units in stock at site load, when stock is counted.
    pub stock: Option<u32>,
    /// Whether it may be added to a cart (published, not members-only, not a paywall
    /// product).
    pub sellable: bool,
    /// The subscription plan, for subscription products.
    pub subscription: Option<SubscriptionPlan>,
}

/// Every variant of the site's products by SKU.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Variants by SKU.
    variants: HashMap<String, CatalogVariant>,
    /// SKUs by product item id, in variant order.
    by_item: HashMap<String, Vec<String>>,
}

impl Catalog {
    /// The catalog of `site`. Products of a members-only collection are listed but not
    /// sellable: a visitor cannot open their pages.
    pub fn of_site(site: &Site) -> Catalog {
        let mut catalog = Catalog::default();
        for collection in &site.collections {
            for item in &collection.items {
                if let Some(product) = &item.product {
                    let sellable = ProductWorkflow::of(item.state).sellable() && collection.access != Access::Members;
                    catalog.add(&item.id, &item.title, product, sellable);
                }
            }
        }
        catalog
    }

    /// Adds the variants of one product.
    pub fn add(&mut self, item_id: &str, title: &str, product: &Product, published: bool) {
        for variant in &product.variants {
            let entry = CatalogVariant {
                sku: variant.sku.clone(),
                item_id: item_id.to_string(),
                title: title.to_string(),
                options: variant.option_values.iter().map(|o| format!("{}: {}", o.option_name, o.value)).collect(),
                product_type: product.product_type,
                unit_price_cents: unit_price(variant),
                stock: tracks_stock(product.product_type, variant).then_some(variant.qty_in_stock),
                sellable: published && sold_in_cart(product.product_type),
                subscription: product.subscription.clone(),
            };
            self.by_item.entry(item_id.to_string()).or_default().push(variant.sku.clone());
            self.variants.insert(variant.sku.clone(), entry);
        }
    }

    /// The variant with `sku`.
    pub fn get(&self, sku: &str) -> Option<&CatalogVariant> {
        self.variants.get(sku)
    }

    /// The SKUs of product item `item_id`.
    pub fn skus_of(&self, item_id: &str) -> &[String] {
        self.by_item.get(item_id).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every variant whose stock is counted, with its stock at site load.
    pub fn stocked(&self) -> impl Iterator<Item = (&str, u32)> {
        self.variants.values().filter_map(|v| v.stock.map(|s| (v.sku.as_str(), s)))
    }
}

/// The catalog in force, shared by every cart: read as a snapshot, replaced whole.
#[derive(Debug, Default)]
pub struct LiveCatalog(RwLock<Arc<Catalog>>);

impl LiveCatalog {
    /// The catalog in force now; later replacements leave this snapshot as it is.
    pub fn current(&self) -> Arc<Catalog> {
        // A poisoned lock still holds a whole catalog (a swap is one assignment).
        self.0.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Puts `catalog` in force.
    pub fn replace(&self, catalog: Catalog) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(catalog);
    }
}

impl From<Catalog> for LiveCatalog {
    fn from(catalog: Catalog) -> Self {
        LiveCatalog(RwLock::new(Arc::new(catalog)))
    }
}
