//! A subscription paid in a fixed number of installments shows what it costs in all (000 §9
//! "price text templates cover installment periods of weeks, months and years") on its
//! product page, in the cart (its JSON, the plain cart page, the site's cart page), at
//! checkout and on the confirmation.

use reqwest::Method;
use serde_json::{json, Value};
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site, TestApp};

use super::support::{Shopper, Shopping, BUYER};

/// The demo's bean subscription ($15.00) billed every `period` for `cycles` payments.
fn subscription_in_installments(period: &str, cycles: u32) -> tempfile::TempDir {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("collections/shop/items/coffee-subscription.toml");
    let text = std::fs::read_to_string(&path).expect("the subscription item");
    let plan = format!("billingPeriod = {period}\nnumBillingCycles = {cycles}");
    let text = text.replacen("billingPeriod = { value = 1, unit = \"monthly\" }", &plan, 1);
    std::fs::write(&path, text).expect("written");
    dir
}

#[actix_rt::test]
async fn installments_every_two_weeks_show_on_the_product_checkout_and_confirmation() {
    let dir = subscription_in_installments("{ value = 2, unit = \"weekly\" }", 4);
    let app = spawn_app_with_site(dir.path()).await;
    let expected = "4 payments of $15.00, every 2 weeks ($60.00 in all)";
    let product = app.get("/shop/coffee-subscription").await.text().await.expect("html");
    assert!(product.contains(&format!("<p class=\"plan-price\">{expected}</p>")), "{product}");
    assert!(product.contains("Renews every 2 weeks, 4 payments in all"), "{product}");

    let mut s = Shopper::new(&app).await;
    s.add("VER-SUB-MONTHLY", 1).await;
    let path = format!("/checkout/subscribe?cartToken={}", s.cart().expect("a cart"));
    let checkout = s.get(&path).await.text().await.expect("html");
    assert!(checkout.contains(expected), "{checkout}");
    let res = s.post_form(&path, &BUYER).await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("ascii").to_string();
    let confirmation = app.get(&location).await.text().await.expect("html");
    assert!(confirmation.contains(expected), "{confirmation}");
}

#[actix_rt::test]
async fn installments_by_the_month_and_by_the_year_are_spelled_out() {
    for (period, cycles, expected) in [
        ("{ value = 1, unit = \"monthly\" }", 12, "12 payments of $15.00, every month ($180.00 in all)"),
        ("{ value = 3, unit = \"monthly\" }", 2, "2 payments of $15.00, every 3 months ($30.00 in all)"),
        ("{ value = 1, unit = \"yearly\" }", 3, "3 payments of $15.00, every year ($45.00 in all)"),
        ("{ value = 1, unit = \"weekly\" }", 1, "1 payment of $15.00"),
    ] {
        let dir = subscription_in_installments(period, cycles);
        let app = spawn_app_with_site(dir.path()).await;
        let product = app.get("/shop/coffee-subscription").await.text().await.expect("html");
        assert!(product.contains(&format!("<p class=\"plan-price\">{expected}</p>")), "{expected}: {product}");
    }
}

#[actix_rt::test]
async fn the_demo_subscription_reads_as_a_price_every_month() {
    let app = spawn_app().await;
    let product = app.get("/shop/coffee-subscription").await.text().await.expect("html");
    assert!(product.contains("<p class=\"plan-price\">$15.00 every month</p>"), "{product}");
}

/// The plan terms of the cart entry for `sku` in the cart JSON `cart` (`Null` when it has none).
fn terms_of<'c>(cart: &'c Value, sku: &str) -> &'c Value {
    let entries = cart["entries"].as_array().expect("the entries");
    let entry = entries.iter().find(|e| e["sku"] == sku).expect("the entry");
    &entry["planTerms"]
}

/// The markup of plan terms under an entry's title, as the checkout page writes them.
fn terms_html(price: &str, renewal: &str) -> String {
    format!("<p class=\"plan-price\">{price}</p><p class=\"renewal\">{renewal}</p>")
}

/// Puts the bean subscription and a bag of the house blend in a cart and checks that every
/// cart view words the subscription's terms as `price` and `renewal`, and the blend's none.
async fn cart_shows_terms(app: &TestApp, price: &str, renewal: &str) {
    let mut s = Shopper::new(app).await;
    s.add("VER-HB-12OZ", 1).await;
    let added = s.add("VER-SUB-MONTHLY", 1).await;
    let expected = json!({ "price": price, "renewal": renewal });
    assert_eq!(terms_of(&added, "VER-SUB-MONTHLY"), &expected, "{added}");
    assert_eq!(terms_of(&added, "VER-HB-12OZ"), &Value::Null, "{added}");

    let read: Value = s.get("/api/commerce/cart").await.json().await.expect("a cart");
    assert_eq!(terms_of(&read, "VER-SUB-MONTHLY"), &expected, "{read}");
    assert_eq!(terms_of(&read, "VER-HB-12OZ"), &Value::Null, "{read}");

    for page in ["/commerce/cart", "/cart"] {
        let html = s.get(page).await.text().await.expect("html");
        assert!(html.contains(&terms_html(price, renewal)), "{page}: {html}");
        assert_eq!(html.matches("class=\"plan-price\"").count(), 1, "{page}: only the subscription has terms");
    }
}

#[actix_rt::test]
async fn the_cart_words_installments_in_weeks_months_and_years_as_the_checkout_does() {
    for (period, cycles, price, renewal) in [
        (
            "{ value = 2, unit = \"weekly\" }",
            4,
            "4 payments of $15.00, every 2 weeks ($60.00 in all)",
            "Renews every 2 weeks, 4 payments in all",
        ),
        (
            "{ value = 3, unit = \"monthly\" }",
            2,
            "2 payments of $15.00, every 3 months ($30.00 in all)",
            "Renews every 3 months, 2 payments in all",
        ),
        (
            "{ value = 1, unit = \"yearly\" }",
            3,
            "3 payments of $15.00, every year ($45.00 in all)",
            "Renews yearly, 3 payments in all",
        ),
        ("{ value = 1, unit = \"weekly\" }", 0, "$15.00 every week", "Renews weekly until cancelled"),
    ] {
        let dir = subscription_in_installments(period, cycles);
        let app = spawn_app_with_site(dir.path()).await;
        cart_shows_terms(&app, price, renewal).await;
    }
}

#[actix_rt::test]
async fn the_demo_subscription_reads_as_a_price_every_month_in_the_cart() {
    let app = spawn_app().await;
    cart_shows_terms(&app, "$15.00 every month", "Renews monthly until cancelled").await;
}

#[actix_rt::test]
async fn two_units_of_a_subscription_are_paid_together_in_the_cart_and_at_checkout() {
    let dir = subscription_in_installments("{ value = 1, unit = \"monthly\" }", 12);
    let app = spawn_app_with_site(dir.path()).await;
    let mut s = Shopper::new(&app).await;
    let cart = s.add("VER-SUB-MONTHLY", 2).await;
    let two = "12 payments of $30.00, every month ($360.00 in all)";
    assert_eq!(terms_of(&cart, "VER-SUB-MONTHLY")["price"], two, "{cart}");
    let path = format!("/checkout/subscribe?cartToken={}", s.cart().expect("a cart"));
    let checkout = s.get(&path).await.text().await.expect("html");
    assert!(checkout.contains(&terms_html(two, "Renews monthly, 12 payments in all")), "{checkout}");

    let res = s.call(Method::PUT, "/api/commerce/cart/entries/VER-SUB-MONTHLY", Some(json!({ "quantity": 1 }))).await;
    assert_eq!(res.status(), 200);
    let cart: Value = res.json().await.expect("a cart");
    let one = "12 payments of $15.00, every month ($180.00 in all)";
    assert_eq!(terms_of(&cart, "VER-SUB-MONTHLY")["price"], one, "{cart}");
    let checkout = s.get(&path).await.text().await.expect("html");
    assert!(checkout.contains(one) && !checkout.contains(two), "{checkout}");
}
