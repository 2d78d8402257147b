//! The cart's JSON API: cookie, changes and totals, crumbs, methods, hostile input.

use reqwest::Method;
use serde_json::{json, Value};
use veranda_tests::spawn_app;

use super::support::{shopper_with_blend, Shopper, Shopping};
use veranda_tests::{json_with_status, set_cookie};

#[actix_rt::test]
async fn the_first_change_makes_a_cart_with_an_http_only_lax_cookie() {
    let app = spawn_app().await;
    let mut shopper = Shopper::new(&app).await;
    let res = shopper.call(Method::POST, "/api/commerce/cart/entries", Some(json!({ "sku": "VER-HB-12OZ" }))).await;
    assert_eq!(res.status(), 200);
    let cookie = set_cookie(&res, "cart").expect("a cart cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"), "{cookie}");
    let cart: Value = res.json().await.expect("json");
    assert_eq!(cart["id"], shopper.cart().expect("kept").as_str());
    assert_eq!((cart["totalQuantity"].as_u64(), cart["subtotalCents"].as_u64()), (Some(1), Some(1600)));
    assert_eq!(cart["subtotalAmount"], json!({ "currencyCode": "USD", "value": 16.0 }));
    assert_eq!(cart["requiresShipping"], true);

    let res = shopper.get("/api/commerce/cart").await;
    assert_eq!(res.status(), 200);
    let again: Value = res.json().await.expect("json");
    assert_eq!(again, cart, "the cart reads back as it was acknowledged");
}

#[actix_rt::test]
async fn without_a_cart_the_cart_reads_empty() {
    let app = spawn_app().await;
    let res = app.get("/api/commerce/cart").await;
    assert!(set_cookie(&res, "cart").is_none(), "reading makes no cart");
    let cart = json_with_status(res, 200).await;
    assert_eq!((cart["totalQuantity"].as_u64(), cart["isPurchased"].as_bool()), (Some(0), Some(false)));
}

#[actix_rt::test]
async fn quantities_entries_coupons_shipping_and_tax_update_the_totals() {
    let app = spawn_app().await;
    let mut s = shopper_with_blend(&app, 2).await;
    let cart = s.add("VER-GUIDE-PDF", 1).await;
    assert_eq!((cart["subtotalCents"].as_u64(), cart["hasDigital"].as_bool()), (Some(4100), Some(true)));
    assert_eq!(cart["purelyDigital"], false);

    let res = s.call(Method::PUT, "/api/commerce/cart/entries/VER-HB-12OZ", Some(json!({ "quantity": 5 }))).await;
    assert_eq!(res.status(), 200);
    let cart: Value = res.json().await.expect("json");
    assert_eq!((cart["totalQuantity"].as_u64(), cart["subtotalCents"].as_u64()), (Some(6), Some(8900)));

    let res = s.call(Method::POST, "/api/commerce/cart/coupons", Some(json!({ "code": "PORCH10" }))).await;
    assert_eq!(res.status(), 200);
    let res = s.call(Method::POST, "/api/commerce/cart/coupons", Some(json!({ "code": "NOPE" }))).await;
    let cart: Value = res.json().await.expect("json");
    assert_eq!(cart["validCoupons"][0]["code"], "PORCH10");
    assert_eq!(cart["invalidCoupons"][0]["code"], "NOPE");
    assert_eq!(cart["discountCents"], 890);

    let location = json!({ "country": "US", "region": "NY", "postalCode": "10001" });
    let res = s.call(Method::PUT, "/api/commerce/cart/shipping-location", Some(location)).await;
    assert_eq!(res.status(), 200);
    let res = s.call(Method::PUT, "/api/commerce/cart/shipping-option", Some(json!({ "optionId": "express" }))).await;
    let cart: Value = res.json().await.expect("json");
    assert_eq!(cart["selectedShippingOption"]["id"], "express");
    assert_eq!(cart["shippingCostCents"], 1500);
    assert_eq!(cart["taxCents"], 711, "8.875 % of 8010");
    assert_eq!(cart["grandTotalCents"], 8010 + 1500 + 711);

    let res = s.call(Method::DELETE, "/api/commerce/cart/entries/VER-HB-12OZ", None).await;
    let cart: Value = res.json().await.expect("json");
    assert_eq!((cart["purelyDigital"].as_bool(), cart["requiresShipping"].as_bool()), (Some(true), Some(false)));
    let res = s.call(Method::DELETE, "/api/commerce/cart/coupons/PORCH10", None).await;
    let cart: Value = res.json().await.expect("json");
    assert_eq!(
        (cart["discountCents"].as_u64(), cart["grandTotalCents"].as_u64()),
        (Some(0), Some(980)),
        "900 and New York tax"
    );
}

#[actix_rt::test]
async fn every_change_needs_the_crumb() {
    let app = spawn_app().await;
    let res = app
        .client
        .post(format!("{}/api/commerce/cart/entries", app.address))
        .json(&json!({ "sku": "VER-HB-12OZ" }))
        .send()
        .await
        .expect("answered");
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.expect("json");
    assert_eq!(body["crumbFail"], true);
}

#[actix_rt::test]
async fn other_methods_get_405_with_allow() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    let res = s.call(Method::PATCH, "/api/commerce/cart", None).await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "GET, HEAD");
    let res = s.call(Method::GET, "/api/commerce/cart/entries", None).await;
    assert_eq!(res.status(), 405);
    let head = app.client.head(format!("{}/api/commerce/cart", app.address)).send().await.expect("answered");
    assert_eq!(head.status(), 200);
}

#[actix_rt::test]
async fn hostile_input_gets_a_4xx_with_a_message() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    let entries = "/api/commerce/cart/entries";
    let cases = [
        (json!({ "sku": "VER-HB-12OZ", "quantity": -3 }), 400),
        (json!({ "sku": "VER-HB-12OZ", "quantity": 0 }), 400),
        (json!({ "sku": "VER-HB-12OZ", "quantity": 1001 }), 400),
        (json!({ "sku": "VER-HB-12OZ", "quantity": 1e30 }), 400),
        (json!({ "sku": "VER-HB-12OZ", "quantity": "2" }), 400),
        (json!({ "sku": "NO-SUCH-SKU" }), 400),
        (json!({ "itemId": "6d0e4b8336d2071273f617b5" }), 400),
        (json!({ "sku": "VER-HB-12OZ", "price": 1 }), 400),
        (json!([1, 2, 3]), 400),
    ];
    for (body, status) in cases {
        let res = s.call(Method::POST, entries, Some(body.clone())).await;
        assert_eq!(res.status(), status, "{body}");
        let answer: Value = res.json().await.expect("json");
        assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}: {answer}");
    }
    let res = s.call(Method::PUT, "/api/commerce/cart/entries/NOT-IN-CART", Some(json!({ "quantity": 1 }))).await;
    assert_eq!(res.status(), 404);
    let huge = "x".repeat(2 * 1024 * 1024);
    let res = s.call(Method::POST, "/api/commerce/cart/coupons", Some(json!({ "code": huge }))).await;
    assert_eq!(res.status(), 413);
    let res = s.call(Method::POST, "/api/commerce/cart/coupons", Some(json!({ "code": "x".repeat(41) }))).await;
    assert_eq!(res.status(), 400);
    let res = s.call(Method::PUT, "/api/commerce/cart/shipping-option", Some(json!({ "optionId": "drone" }))).await;
    assert_eq!(res.status(), 400);
}

#[actix_rt::test]
async fn a_malformed_cart_cookie_gets_a_new_cart_never_a_5xx() {
    let app = spawn_app().await;
    for bad in ["", "short", "../../../../etc/passwd", "%00%00", &"z".repeat(5000)] {
        let mut s = Shopper::new(&app).await;
        s.keep(&format!("cart={bad}"));
        let res = s.call(Method::GET, "/api/commerce/cart", None).await;
        assert_eq!(res.status(), 200, "{bad:?}");
        s.keep(&format!("cart={bad}"));
        let res = s.call(Method::POST, "/api/commerce/cart/entries", Some(json!({ "sku": "VER-HB-12OZ" }))).await;
        assert_eq!(res.status(), 200, "{bad:?}");
        assert!(set_cookie(&res, "cart").is_some(), "a new cart replaces {bad:?}");
    }
}

#[actix_rt::test]
async fn unsellable_products_are_refused() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    let res = s.call(Method::POST, "/api/commerce/cart/entries", Some(json!({ "sku": "VER-MUG-BLUE" }))).await;
    assert_eq!(res.status(), 200, "a sold-out product may sit in the cart; checkout refuses it");
    let res = s.post_form("/checkout", &super::support::BUYER).await;
    assert_eq!(res.status(), 409);
    let page = res.text().await.expect("html");
    assert!(page.contains("only 0 of"), "{page}");
}
