//! A subscription paid in a fixed number of installments shows what it costs in all (000 §9
//! "price text templates cover installment periods of weeks, months and years") on its
//! product page, at checkout and on the confirmation.

use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site};

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
