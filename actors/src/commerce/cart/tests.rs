//! Cart changes and totals.

use super::change::{apply, describe_plans, CartChange};
use super::error::CartError;
use super::model::ShoppingCart;
use crate::commerce::catalog::Catalog;
use crate::commerce::money::Currency;
use crate::commerce::rules::{ShippingLocation, StoreRules, MAX_ENTRY_QUANTITY};
use crate::domain::enums::ProductType;
use crate::site::content::{BillingPeriod, Product, SubscriptionPlan, Variant};

fn variant(sku: &str, price: u64, qty: u32, unlimited: bool) -> Variant {
    Variant {
        sku: sku.into(),
        price,
        sale_price: 0,
        on_sale: false,
        qty_in_stock: qty,
        unlimited,
        option_values: vec![],
    }
}

fn catalog() -> Catalog {
    let mut catalog = Catalog::default();
    let beans = Product {
        product_type: ProductType::Physical,
        variants: vec![variant("BEANS", 1600, 40, false)],
        subscription: None,
        weight: None,
        dimensions: None,
    };
    let guide = Product {
        product_type: ProductType::Digital,
        variants: vec![variant("GUIDE", 900, 0, true)],
        subscription: None,
        weight: None,
        dimensions: None,
    };
    let draft = Product {
        product_type: ProductType::Physical,
        variants: vec![variant("DRAFT", 100, 1, false)],
        subscription: None,
        weight: None,
        dimensions: None,
    };
    let sticker = Product {
        product_type: ProductType::Digital,
        variants: vec![variant("STICKER", 300, 0, true)],
        subscription: None,
        weight: None,
        dimensions: None,
    };
    catalog.add("sticker", "Sticker", &sticker, true);
    catalog.add("beans", "Beans", &beans, true);
    catalog.add("guide", "Guide", &guide, true);
    catalog.add("draft", "Draft", &draft, false);
    catalog
}

/// The demo store's rules, from its `commerce.toml`.
fn rules() -> StoreRules {
    StoreRules::parse(include_str!("../../../../config/sites/demo/commerce.toml")).expect("the demo's rules read")
}

fn run(cart: &mut ShoppingCart, change: CartChange) -> Result<(), CartError> {
    apply(cart, change, &catalog(), &rules())
}

fn add(sku: &str, quantity: u32) -> CartChange {
    CartChange::AddEntry { sku: sku.into(), quantity }
}

fn empty() -> ShoppingCart {
    ShoppingCart::new("c1", "w1", Currency::USD, 0)
}

#[test]
fn adding_entries_recomputes_every_total() {
    let mut cart = empty();
    run(&mut cart, add("BEANS", 2)).expect("adds");
    run(&mut cart, add("GUIDE", 1)).expect("adds");
    run(&mut cart, add("BEANS", 1)).expect("adds to the same entry");
    assert_eq!(cart.entries.len(), 2);
    assert_eq!(cart.subtotal_cents, 3 * 1600 + 900);
    assert_eq!(cart.total_quantity, 4);
    assert!(cart.has_digital && !cart.purely_digital && cart.requires_shipping);
    assert_eq!(cart.shipping_cost_cents, 600, "the first option is chosen by default");
    assert_eq!(cart.grand_total_cents, 5700 + 600);
    assert_eq!(cart.subtotal_amount.minor(), 5700);
}

#[test]
fn a_purely_digital_cart_does_not_ship() {
    let mut cart = empty();
    run(&mut cart, add("GUIDE", 2)).expect("adds");
    assert!(cart.purely_digital && cart.has_digital && !cart.requires_shipping);
    assert!(cart.shipping_options.is_empty());
    assert_eq!((cart.shipping_cost_cents, cart.grand_total_cents), (0, 1800));
}

#[test]
fn quantities_change_and_entries_go() {
    let mut cart = empty();
    run(&mut cart, add("BEANS", 1)).expect("adds");
    run(&mut cart, CartChange::ChangeQuantity { sku: "BEANS".into(), quantity: 5 }).expect("changes");
    assert_eq!((cart.total_quantity, cart.subtotal_cents), (5, 8000));
    run(&mut cart, CartChange::RemoveEntry { sku: "BEANS".into() }).expect("removes");
    assert_eq!((cart.total_quantity, cart.subtotal_cents, cart.grand_total_cents), (0, 0, 0));
    assert!(!cart.requires_shipping);
}

#[test]
fn hostile_quantities_and_unknown_variants_are_refused() {
    let mut cart = empty();
    assert_eq!(run(&mut cart, add("BEANS", 0)), Err(CartError::BadQuantity { max: MAX_ENTRY_QUANTITY }));
    assert!(run(&mut cart, add("BEANS", MAX_ENTRY_QUANTITY + 1)).is_err());
    assert_eq!(run(&mut cart, add("NOPE", 1)), Err(CartError::UnknownVariant("NOPE".into())));
    assert_eq!(run(&mut cart, add("DRAFT", 1)), Err(CartError::NotForSale("Draft".into())));
    run(&mut cart, add("BEANS", MAX_ENTRY_QUANTITY)).expect("the limit itself is fine");
    assert!(run(&mut cart, add("BEANS", 1)).is_err(), "adding past the limit");
    assert!(run(&mut cart, CartChange::ChangeQuantity { sku: "GUIDE".into(), quantity: 1 }).is_err());
}

#[test]
fn coupons_split_into_valid_and_invalid_and_discount_the_subtotal() {
    let mut cart = empty();
    run(&mut cart, add("BEANS", 5)).expect("adds");
    run(&mut cart, CartChange::ApplyCoupon { code: "porch10".into() }).expect("applies");
    run(&mut cart, CartChange::ApplyCoupon { code: "BOGUS".into() }).expect("kept as invalid");
    assert_eq!(cart.coupons, vec!["porch10".to_string(), "BOGUS".to_string()]);
    assert_eq!(cart.valid_coupons.len(), 1);
    assert_eq!(cart.invalid_coupons[0].code, "BOGUS");
    assert_eq!(cart.discount_cents, 800);
    assert_eq!(cart.grand_total_cents, 8000 - 800 + 600);
    run(&mut cart, CartChange::RemoveCoupon { code: "PORCH10".into() }).expect("removes");
    assert_eq!(cart.discount_cents, 0);
}

#[test]
fn a_fixed_discount_never_exceeds_the_subtotal() {
    let mut cart = empty();
    run(&mut cart, add("GUIDE", 1)).expect("adds");
    run(&mut cart, CartChange::ApplyCoupon { code: "FIVEOFF".into() }).expect("applies");
    run(&mut cart, CartChange::ApplyCoupon { code: "PORCH10".into() }).expect("applies");
    assert_eq!(cart.discount_cents, 500 + 90);
    run(&mut cart, CartChange::RemoveEntry { sku: "GUIDE".into() }).expect("removes");
    run(&mut cart, add("STICKER", 1)).expect("adds");
    assert_eq!((cart.discount_cents, cart.grand_total_cents), (300, 0));
    run(&mut cart, CartChange::ApplyCoupon { code: "  ".into() }).expect_err("empty code");
}

#[test]
fn tax_follows_the_shipping_location_and_shipping_the_choice() {
    let mut cart = empty();
    run(&mut cart, add("BEANS", 1)).expect("adds");
    let ny = ShippingLocation { country: "US".into(), region: "NY".into(), postal_code: "10001".into() };
    run(&mut cart, CartChange::SetShippingLocation(ny)).expect("sets");
    assert_eq!(cart.applicable_tax_rules.len(), 1);
    assert_eq!(cart.tax_cents, 142, "8.875 % of 1600, rounded half up");
    run(&mut cart, CartChange::SelectShipping { option_id: "pickup".into() }).expect("selects");
    assert_eq!(cart.grand_total_cents, 1600 + 142);
    assert!(run(&mut cart, CartChange::SelectShipping { option_id: "drone".into() }).is_err());
    let ca = ShippingLocation { country: "US".into(), region: "CA".into(), postal_code: String::new() };
    run(&mut cart, CartChange::SetShippingLocation(ca)).expect("sets");
    assert_eq!(cart.tax_cents, 0);
}

#[test]
fn a_purchased_cart_takes_no_more_changes() {
    let mut cart = empty();
    run(&mut cart, add("BEANS", 1)).expect("adds");
    run(&mut cart, CartChange::MarkPurchased { order_id: "o1".into() }).expect("marks");
    assert!(cart.is_purchased);
    assert_eq!(cart.order_id, "o1");
    assert_eq!(run(&mut cart, add("BEANS", 1)), Err(CartError::Purchased));
}

#[test]
fn the_cart_serialises_with_the_spec_field_names() {
    let cart = empty();
    let value = serde_json::to_value(&cart).expect("serialises");
    for field in [
        "id",
        "websiteId",
        "orderId",
        "created",
        "isPurchased",
        "entries",
        "shippingOptions",
        "applicableTaxRules",
        "coupons",
        "validCoupons",
        "invalidCoupons",
        "selectedShippingOption",
        "shippingLocation",
        "subtotalCents",
        "taxCents",
        "shippingCostCents",
        "discountCents",
        "grandTotalCents",
        "totalQuantity",
        "subtotalAmount",
        "hasDigital",
        "purelyDigital",
        "requiresShipping",
    ] {
        assert!(value.get(field).is_some(), "{field} missing");
    }
    assert_eq!(value["subtotalAmount"], serde_json::json!({ "currencyCode": "USD", "value": 0.0 }));
}

#[test]
fn a_subscription_entry_carries_its_plan_terms_paid_for_all_its_units() {
    let mut catalog = catalog();
    let plan =
        SubscriptionPlan { billing_period: BillingPeriod { value: 2, unit: "weekly".into() }, num_billing_cycles: 4 };
    let boxed = Product {
        product_type: ProductType::Physical,
        variants: vec![variant("BOX", 2500, 0, true)],
        subscription: Some(plan),
        weight: None,
        dimensions: None,
    };
    catalog.add("box", "Box", &boxed, true);
    let mut cart = empty();
    for change in [add("BOX", 1), add("BEANS", 1)] {
        apply(&mut cart, change, &catalog, &rules()).expect("added");
    }
    let terms = |cart: &ShoppingCart| cart.entry("BOX").and_then(|e| e.plan_terms.clone()).expect("terms");
    assert_eq!(terms(&cart).price, "4 payments of $25.00, every 2 weeks ($100.00 in all)");
    assert_eq!(terms(&cart).renewal, "Renews every 2 weeks, 4 payments in all");
    assert_eq!(cart.entry("BEANS").and_then(|e| e.plan_terms.clone()), None);

    let two = CartChange::ChangeQuantity { sku: "BOX".into(), quantity: 2 };
    apply(&mut cart, two, &catalog, &rules()).expect("changed");
    assert_eq!(terms(&cart).price, "4 payments of $50.00, every 2 weeks ($200.00 in all)");

    // A cart stored before entries kept their terms has them again once read.
    cart.entries.iter_mut().for_each(|e| e.plan_terms = None);
    describe_plans(&mut cart, &catalog);
    assert_eq!(terms(&cart).price, "4 payments of $50.00, every 2 weeks ($200.00 in all)");
}
