//! A store gets no shipping, tax or coupon rules it did not write: the demo's rules
//! live in the demo's `commerce.toml`, not in the server.

use reqwest::Method;
use serde_json::{json, Value};
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site};

use crate::commerce::support::shopper_with_blend;

#[actix_rt::test]
async fn a_store_without_commerce_toml_accepts_no_coupon_and_charges_no_tax_or_shipping() {
    let dir = demo_site_copy(|_| {});
    std::fs::remove_file(dir.path().join("commerce.toml")).expect("the demo copy has a commerce.toml");
    let app = spawn_app_with_site(dir.path()).await;
    let mut s = shopper_with_blend(&app, 2).await;

    for code in ["PORCH10", "FIVEOFF"] {
        let res = s.call(Method::POST, "/api/commerce/cart/coupons", Some(json!({ "code": code }))).await;
        assert_eq!(res.status(), 200);
    }
    let location = json!({ "country": "US", "region": "NY", "postalCode": "10001" });
    let res = s.call(Method::PUT, "/api/commerce/cart/shipping-location", Some(location)).await;
    assert_eq!(res.status(), 200);
    let cart: Value = res.json().await.expect("json");
    assert_eq!(cart["validCoupons"], json!([]), "{cart}");
    assert_eq!(cart["invalidCoupons"][0]["code"], "PORCH10");
    assert_eq!(cart["invalidCoupons"][1]["code"], "FIVEOFF");
    assert_eq!((cart["discountCents"].as_u64(), cart["taxCents"].as_u64()), (Some(0), Some(0)), "{cart}");
    assert_eq!(cart["applicableTaxRules"], json!([]));
    assert_eq!(cart["shippingOptions"], json!([]));
    let res = s.call(Method::PUT, "/api/commerce/cart/shipping-option", Some(json!({ "optionId": "pickup" }))).await;
    assert_eq!(res.status().as_u16() / 100, 4, "there is no pickup option to choose");
}

#[actix_rt::test]
async fn the_demo_store_reads_its_coupons_and_tax_from_its_commerce_toml() {
    let app = spawn_app().await;
    let mut s = shopper_with_blend(&app, 2).await;
    let res = s.call(Method::POST, "/api/commerce/cart/coupons", Some(json!({ "code": "PORCH10" }))).await;
    let location = json!({ "country": "US", "region": "NY", "postalCode": "10001" });
    assert_eq!(res.status(), 200);
    let res = s.call(Method::PUT, "/api/commerce/cart/shipping-location", Some(location)).await;
    let cart: Value = res.json().await.expect("json");
    assert_eq!(cart["discountCents"], 320, "10 % of 3200");
    assert_eq!(cart["taxCents"], 256, "8.875 % of 2880");
}
