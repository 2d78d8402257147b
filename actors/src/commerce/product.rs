//! Products' rules (spec 000 §4, §5, §9): whether a product can be bought (its
//! workflow state), when it is sold out, what a variant costs, and the units its
//! weight and dimensions are given in.

use crate::domain::enums::{MeasurementUnit, ProductType, PublicationState};
use crate::site::content::{Product, Variant};

/// Where a product stands in the product workflow (spec 000 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProductWorkflow {
    /// Published: shown and sold.
    Available,
    /// Scheduled: shown later, not sold yet.
    Scheduled,
    /// Draft: not shown.
    Hidden,
    /// Any other state: neither shown nor sold.
    Unsupported,
}

impl ProductWorkflow {
    /// The workflow state of an item in publication state `state`.
    pub fn of(state: PublicationState) -> ProductWorkflow {
        match state {
            PublicationState::Published => ProductWorkflow::Available,
            PublicationState::Scheduled => ProductWorkflow::Scheduled,
            PublicationState::Draft => ProductWorkflow::Hidden,
            _ => ProductWorkflow::Unsupported,
        }
    }

    /// Whether products in this state may be added to a cart.
    pub fn sellable(self) -> bool {
        self == ProductWorkflow::Available
    }
}

/// Whether `product` is sold out: every variant is limited with none in stock. A
/// digital product is never sold out; a product without variants is not either.
pub fn sold_out(product: &Product) -> bool {
    product.product_type != ProductType::Digital
        && !product.variants.is_empty()
        && product.variants.iter().all(|v| !v.unlimited && v.qty_in_stock == 0)
}

/// Whether stock of `variant` of a `product_type` product is counted (limited and
/// not digital).
pub fn tracks_stock(product_type: ProductType, variant: &Variant) -> bool {
    product_type != ProductType::Digital && !variant.unlimited
}

/// What a visitor pays for one unit of `variant`, in minor units.
pub fn unit_price(variant: &Variant) -> u64 {
    if variant.on_sale {
        variant.sale_price
    } else {
        variant.price
    }
}

/// Whether a product of this type is sold through the cart (paywall products are
/// recognised but sold as memberships, not cart entries).
pub fn sold_in_cart(product_type: ProductType) -> bool {
    product_type != ProductType::Paywall
}

/// Whether a product of this type is shipped.
pub fn ships(product_type: ProductType) -> bool {
    product_type == ProductType::Physical
}

/// The weight unit of `system`: lbs if imperial, else kg (spec 000 §9).
pub fn weight_unit(system: MeasurementUnit) -> &'static str {
    system.weight_unit()
}

/// The dimension unit of `system`: inches if imperial, else cm (spec 000 §9).
pub fn dimension_unit(system: MeasurementUnit) -> &'static str {
    system.dimension_unit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(qty: u32, unlimited: bool) -> Variant {
        Variant {
            sku: "SKU".into(),
            price: 1000,
            sale_price: 800,
            on_sale: false,
            qty_in_stock: qty,
            unlimited,
            option_values: vec![],
        }
    }

    fn product(kind: ProductType, variants: Vec<Variant>) -> Product {
        Product { product_type: kind, variants, subscription: None, weight: None, dimensions: None }
    }

    #[test]
    fn the_workflow_follows_the_publication_state() {
        assert_eq!(ProductWorkflow::of(PublicationState::Published), ProductWorkflow::Available);
        assert_eq!(ProductWorkflow::of(PublicationState::Scheduled), ProductWorkflow::Scheduled);
        assert_eq!(ProductWorkflow::of(PublicationState::Draft), ProductWorkflow::Hidden);
        for other in [PublicationState::NeedsReview, PublicationState::Private, PublicationState::Deleted] {
            assert_eq!(ProductWorkflow::of(other), ProductWorkflow::Unsupported);
        }
        assert!(ProductWorkflow::Available.sellable());
        assert!(!ProductWorkflow::Scheduled.sellable());
    }

    #[test]
    fn sold_out_needs_every_variant_limited_and_empty() {
        assert!(sold_out(&product(ProductType::Physical, vec![variant(0, false), variant(0, false)])));
        assert!(!sold_out(&product(ProductType::Physical, vec![variant(0, false), variant(1, false)])));
        assert!(!sold_out(&product(ProductType::Physical, vec![variant(0, false), variant(0, true)])));
        assert!(sold_out(&product(ProductType::Service, vec![variant(0, false)])));
        assert!(!sold_out(&product(ProductType::Physical, vec![])));
    }

    #[test]
    fn digital_products_are_never_sold_out() {
        assert!(!sold_out(&product(ProductType::Digital, vec![variant(0, false)])));
        assert!(!tracks_stock(ProductType::Digital, &variant(0, false)));
        assert!(tracks_stock(ProductType::Physical, &variant(0, false)));
    }

    #[test]
    fn the_sale_price_applies_only_when_on_sale() {
        let mut v = variant(1, false);
        assert_eq!(unit_price(&v), 1000);
        v.on_sale = true;
        assert_eq!(unit_price(&v), 800);
    }

    #[test]
    fn units_follow_the_measurement_system() {
        assert_eq!(
            (weight_unit(MeasurementUnit::Imperial), dimension_unit(MeasurementUnit::Imperial)),
            ("lbs", "inches")
        );
        assert_eq!((weight_unit(MeasurementUnit::Metric), dimension_unit(MeasurementUnit::Metric)), ("kg", "cm"));
    }

    #[test]
    fn paywall_products_are_recognised_but_not_sold_in_the_cart() {
        assert_eq!(ProductType::Paywall.id(), 5);
        assert!(!sold_in_cart(ProductType::Paywall));
        assert!(sold_in_cart(ProductType::GiftCard));
    }
}
