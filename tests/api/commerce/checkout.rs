//! Checkout entry points, the no-JavaScript checkout forms, confirmation pages, and
//! concurrent checkouts that must not oversell.

use reqwest::Method;
use serde_json::Value;
use veranda_actors::store::Tree;
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_configured, TestApp};

use super::support::{shopper_with_blend, Shopper, Shopping, BUYER};

const NO_COOKIE: &str =
    "Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.";

/// The link that buys the demo's $50 gift card.
const GIFT_CARD_LINK: &str =
    "/checkout/giftcard?websiteId=51ee8ec89a317a31733c9281&giftCardProductId=6e5c69da604552c2465b161c&sku=VER-GIFT-50";

/// Follows a 303 to the confirmation page and returns its HTML.
async fn confirmation(app: &TestApp, res: reqwest::Response) -> String {
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("ascii").to_string();
    assert!(location.starts_with("/commerce/orders/"), "{location}");
    let page = app.get(&location).await;
    assert_eq!(page.status(), 200);
    page.text().await.expect("html")
}

/// Follows a 303 to the confirmation page and checks that it is of `page_type` (spec 000
/// §8) and shows `shown`.
async fn confirmed_as(app: &TestApp, res: reqwest::Response, page_type: &str, shown: &str) {
    let html = confirmation(app, res).await;
    assert!(html.contains(&format!("data-page-type=\"{page_type}\"")) && html.contains(shown), "{html}");
}

/// A new shopper who opened the checkout form at `path` (200).
async fn shopper_on<'a>(app: &'a TestApp, path: &str) -> Shopper<'a> {
    let mut s = Shopper::new(app).await;
    assert_eq!(s.get(path).await.status(), 200, "{path}");
    s
}

#[actix_rt::test]
async fn goto_checkout_without_a_cart_cookie_shows_the_spec_message() {
    let app = spawn_app().await;
    let res = app.get("/commerce/goto-checkout").await;
    assert_eq!(res.status(), 400);
    assert!(res.text().await.expect("html").contains(NO_COOKIE));
    let mut s = shopper_with_blend(&app, 1).await;
    let res = s.get("/commerce/goto-checkout").await;
    assert_eq!((res.status().as_u16(), res.headers()["location"].to_str().ok()), (303, Some("/checkout")));
}

#[actix_rt::test]
async fn the_checkout_form_places_the_order_and_shows_the_confirmation() {
    let app = spawn_app().await;
    let mut s = shopper_with_blend(&app, 2).await;
    let page = s.get("/checkout").await.text().await.expect("html");
    assert!(page.contains(&format!("name=\"crumb\" value=\"{}\"", s.crumb_value())), "the form carries the crumb");
    assert!(page.contains("autocomplete=\"postal-code\"") && page.contains("<label for=\"email\">"));

    let res = s.post_form("/checkout", &[("email", "not-an-email"), ("name", "Ada")]).await;
    assert_eq!(res.status(), 400);
    let page = res.text().await.expect("html");
    assert!(page.contains("Email is not valid.") && page.contains("aria-invalid=\"true\""));

    let html = confirmation(&app, s.post_form("/checkout", &BUYER).await).await;
    assert!(html.contains("page-type-order-confirmed") && html.contains("data-page-type=\"202\""));
    assert!(html.contains("$40.84"), "3200 + 600 shipping + 284 tax (8.875 % of 3200): {html}");
    let cart: Value = s.get("/api/commerce/cart").await.json().await.expect("json");
    assert_eq!(cart["isPurchased"], true);
    assert_eq!(app.store.scan_prefix(Tree::Orders, b"", 10).expect("orders").len(), 1);
    let again = s.post_form("/checkout", &BUYER).await;
    assert_eq!(again.status(), 303, "a purchased cart goes to its confirmation");
}

#[actix_rt::test]
async fn a_checkout_post_without_the_crumb_is_refused() {
    let app = spawn_app().await;
    let s = shopper_with_blend(&app, 1).await;
    let res = app
        .client
        .post(format!("{}/checkout", app.address))
        .header("cookie", s.cookies())
        .form(&BUYER)
        .send()
        .await
        .expect("answered");
    assert_eq!(res.status(), 403);
    assert!(app.store.scan_prefix(Tree::Orders, b"", 10).expect("orders").is_empty());
}

#[actix_rt::test]
async fn a_subscription_checks_out_with_its_renewal_text() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    s.add("VER-SUB-MONTHLY", 1).await;
    let token = s.cart().expect("a cart");
    let path = format!("/checkout/subscribe?cartToken={token}");
    let page = s.get(&path).await.text().await.expect("html");
    assert!(page.contains("Renews monthly until cancelled"), "{page}");
    confirmed_as(&app, s.post_form(&path, &BUYER).await, "206", "Renews monthly until cancelled").await;
}

#[actix_rt::test]
async fn a_donation_is_confirmed_as_a_contribution() {
    let app = spawn_app().await;
    let path = "/checkout/donate?donatePageId=80547c31754bff4a36b499a9";
    let mut s = shopper_on(&app, path).await;
    let res = s.post_form(path, &[("amount", "-5"), ("email", "ada@example.com"), ("name", "Ada")]).await;
    assert_eq!(res.status(), 400);
    let res = s.post_form(path, &[("amount", "25"), ("email", "ada@example.com"), ("name", "Ada")]).await;
    confirmed_as(&app, res, "204", "$25").await;
}

#[actix_rt::test]
async fn a_gift_card_checks_out_from_its_link() {
    let app = spawn_app().await;
    let mut s = shopper_on(&app, GIFT_CARD_LINK).await;
    let res = s.post_form(GIFT_CARD_LINK, &[("email", "ada@example.com"), ("name", "Ada")]).await;
    confirmed_as(&app, res, "202", "$50").await;
}

/// The demo's member area and its right-hand option (joining: `join.rs`).
const JOIN_YEARLY: &str = "/checkout/join?memberAreaId=151ddf95961304586d8acd7a&pricingOption=1";

#[actix_rt::test]
async fn checkout_links_to_nothing_for_sale_are_not_found() {
    let app = spawn_app().await;
    let cases = [
        ("/checkout/subscribe?cartToken=nope".to_string(), "an unknown subscription cart"),
        ("/checkout/donate?donatePageId=unknown".to_string(), "an unknown donation page"),
        (GIFT_CARD_LINK.replace("VER-GIFT-50", "VER-HB-12OZ"), "only gift card variants"),
        (JOIN_YEARLY.replace("pricingOption=1", "pricingOption=2"), "a member area has two pricing options"),
        (JOIN_YEARLY.replace("pricingOption=1", "pricingOption=x"), "options are numbered"),
        (JOIN_YEARLY.replace("151ddf95961304586d8acd7a", "8c369f77b783fa83db8a3387"), "only member areas"),
    ];
    for (path, why) in cases {
        assert_eq!(app.get(&path).await.status(), 404, "{why}: {path}");
    }
}

#[actix_rt::test]
async fn two_hundred_concurrent_checkouts_for_ten_units_make_exactly_ten_orders() {
    let site = demo_site_copy(|_| {});
    let lesson = site.path().join("collections/shop/items/latte-art-lesson.toml");
    let text = std::fs::read_to_string(&lesson).expect("reads");
    std::fs::write(&lesson, text.replace("qtyInStock = 6", "qtyInStock = 10")).expect("writes");
    // Every shopper comes from 127.0.0.1: the address may make all 200 attempts at once.
    let app = spawn_app_configured(site.path(), |s| s.commerce.checkout_burst = 200).await;
    let mut shoppers = Vec::new();
    for _ in 0..200 {
        let mut s = Shopper::new(&app).await;
        s.call(Method::POST, "/api/commerce/cart/entries", Some(serde_json::json!({ "sku": "VER-LESSON" }))).await;
        shoppers.push(s);
    }
    let posts = shoppers.iter_mut().map(|s| s.post_form("/checkout", &[("email", "ada@example.com"), ("name", "Ada")]));
    let statuses: Vec<u16> = futures_join(posts).await;
    let placed = statuses.iter().filter(|s| **s == 303).count();
    let refused = statuses.iter().filter(|s| **s == 409).count();
    assert_eq!((placed, refused), (10, 190), "{statuses:?}");
    assert_eq!(app.store.scan_prefix(Tree::Orders, b"", 1000).expect("orders").len(), 10);
    assert_eq!(app.store.get(Tree::Inventory, b"VER-LESSON").expect("reads"), Some(b"0".to_vec()));
}

/// Runs every request at once and returns their statuses.
async fn futures_join<F>(requests: impl Iterator<Item = F>) -> Vec<u16>
where
    F: std::future::Future<Output = reqwest::Response>,
{
    let statuses = requests.map(|f| async move { f.await.status().as_u16() });
    futures_util::future::join_all(statuses).await
}
