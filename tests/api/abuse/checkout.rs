//! Checkout cannot be abused: prices and sellability come from the live site, checkouts
//! are rate-limited per address, and an order is shown only to its buyer.

use reqwest::Method;
use serde_json::{json, Value};
use veranda_tests::{
    assert_refused, demo_site_copy, demo_site_dir, spawn_app_configured, spawn_app_with_site, TestApp,
};

use crate::commerce::support::{Shopper, Shopping, BUYER};
use crate::live_site::set_state;

/// The demo's house blend: its item id, title and a SKU.
const BLEND_ID: &str = "6d0e4b8336d2071273f617b5";
const BLEND_TITLE: &str = "House blend coffee beans";
const BLEND_SKU: &str = "VER-HB-12OZ";
/// The class of the order confirmation page (spec 000 §8).
const CONFIRMED: &str = "page-type-order-confirmed";

/// The app serving a copy of the demo site with `edit` applied to the text of `file`
/// (relative to it); the copy is kept as long as the returned directory.
async fn shop_with(file: &str, edit: impl FnOnce(String) -> String) -> (tempfile::TempDir, TestApp) {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).expect("the demo has the file");
    std::fs::write(&path, edit(text)).expect("writes");
    let app = spawn_app_with_site(dir.path()).await;
    (dir, app)
}

/// A new shopper who asked to add the house blend and got the refusal of a product that is
/// not for sale.
async fn shopper_refused_the_blend(app: &TestApp) -> Shopper<'_> {
    let mut s = Shopper::new(app).await;
    let res = s.call(Method::POST, "/api/commerce/cart/entries", Some(json!({ "sku": BLEND_SKU }))).await;
    assert_refused(res, 409, &format!("'{BLEND_TITLE}' is not for sale.")).await;
    s
}

#[actix_rt::test]
async fn a_product_drafted_at_start_and_published_by_an_edit_can_be_bought() {
    let (_site, app) =
        shop_with("collections/shop/items/house-blend.toml", |text| format!("state = \"draft\"\n{text}")).await;
    // A draft is not sold.
    let mut s = shopper_refused_the_blend(&app).await;

    set_state(&app, BLEND_ID, "published").await;
    s.add(BLEND_SKU, 1).await;
    let res = s.post_form("/checkout", &BUYER).await;
    assert_eq!(res.status(), 303, "the published product is checked out");
}

#[actix_rt::test]
async fn a_members_only_product_cannot_be_added_or_bought_by_link() {
    let (_site, app) =
        shop_with("collections/shop/collection.toml", |text| format!("access = \"members\"\n{text}")).await;
    let mut s = shopper_refused_the_blend(&app).await;
    let cart = s.get("/api/commerce/cart").await.json::<Value>().await.expect("a cart");
    assert_eq!(cart["entries"], json!([]));
}

/// The value of the counter line `series` on `/metrics` (0 when absent).
async fn counter(app: &TestApp, series: &str) -> f64 {
    let res = app.client.get(format!("{}/metrics", app.ops_address)).send().await.expect("answered");
    let text = res.text().await.expect("text");
    text.lines().find_map(|l| l.strip_prefix(series).and_then(|rest| rest.trim().parse().ok())).unwrap_or(0.0)
}

#[actix_rt::test]
async fn checkouts_past_the_address_burst_get_429_with_retry_after_and_are_counted() {
    let app = spawn_app_configured(&demo_site_dir(), |s| {
        s.commerce.checkout_burst = 2;
        s.commerce.checkouts_per_minute = 1;
    })
    .await;
    let series = "veranda_commerce_checkouts_refused_total{kind=\"cart\"}";
    let metrics = app.client.get(format!("{}/metrics", app.ops_address)).send().await.expect("answered");
    let text = metrics.text().await.expect("text");
    for kind in ["cart", "donation", "gift_card"] {
        let line = format!("veranda_commerce_checkouts_refused_total{{kind=\"{kind}\"}}");
        assert!(text.contains(&line), "{line} is exported from start-up");
    }
    let before = counter(&app, series).await;

    let mut s = Shopper::new(&app).await;
    s.add(BLEND_SKU, 1).await;
    for _ in 0..2 {
        let res = s.post_form("/checkout", &[("email", "not-an-email")]).await;
        assert_eq!(res.status(), 400, "within the burst the form answers");
    }
    let res = s.post_form("/checkout", &BUYER).await;
    assert_eq!(res.status(), 429);
    let wait: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!((1..=60).contains(&wait), "one attempt a minute: {wait}");
    let body: Value = res.json().await.expect("JSON");
    assert!(body["error"].as_str().is_some_and(|e| e.starts_with("Too many checkouts")), "{body}");
    let cart = s.get("/api/commerce/cart").await.json::<Value>().await.expect("a cart");
    assert_eq!(cart["isPurchased"], false, "nothing was ordered");

    // Donations and gift cards draw on the same address's attempts.
    let donate = "/checkout/donate?donatePageId=80547c31754bff4a36b499a9";
    let gift = "/checkout/giftcard?websiteId=51ee8ec89a317a31733c9281&giftCardProductId=6e5c69da604552c2465b161c&sku=VER-GIFT-50";
    for path in [donate, gift] {
        let res = s.post_form(path, &[("email", "ada@example.com"), ("name", "Ada"), ("amount", "5")]).await;
        assert_eq!(res.status(), 429, "{path}");
        assert!(res.headers().contains_key("retry-after"), "{path}");
    }
    assert!(counter(&app, series).await >= before + 1.0, "the refusal is counted");
}

#[actix_rt::test]
async fn a_cart_id_planted_in_another_browser_does_not_reveal_the_order() {
    let app = veranda_tests::spawn_app().await;
    let mut buyer = Shopper::new(&app).await;
    buyer.add(BLEND_SKU, 1).await;
    let cart_id = buyer.cart().expect("a cart cookie");
    let res = buyer.post_form("/checkout", &BUYER).await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("ascii").to_string();
    let (page, key) = location.split_once("?key=").expect("the confirmation carries the order's secret");
    assert!(key.len() >= 32, "{key}");
    assert!(!location.contains(&cart_id), "the secret is not the cart id");
    let confirmed = app.get(&location).await;
    assert_eq!(confirmed.status(), 200);
    assert!(confirmed.text().await.expect("html").contains(CONFIRMED), "the secret opens the page");

    // The planter holds the same cart id, so learns the order's id: not its page.
    let mut planter = Shopper::with_cookies(&app, &format!("cart={cart_id}")).await;
    let cart = planter.get("/api/commerce/cart").await.json::<Value>().await.expect("a cart");
    let order_id = cart["orderId"].as_str().expect("the purchased cart names its order").to_string();
    assert_eq!(page, format!("/commerce/orders/{order_id}"));
    for path in [page.to_string(), format!("{page}?key={cart_id}"), format!("{page}?key=")] {
        let res = planter.get(&path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert!(!res.text().await.expect("html").contains(CONFIRMED), "{path}");
    }
    let again = planter.post_form("/checkout", &BUYER).await;
    if again.status() == 303 {
        let to = again.headers()["location"].to_str().expect("ascii").to_string();
        let res = planter.get(&to).await;
        assert_eq!(res.status(), 404, "the purchased cart's redirect shows the planter nothing: {to}");
    }

    // The buyer's own browser keeps the key.
    let res = buyer.get(page).await;
    assert_eq!(res.status(), 200, "the buyer's order cookie opens the page");
}
