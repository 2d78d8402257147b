//! An order paid later (offline) holds its stock: the owner marks it paid (the unit stays
//! sold) or cancelled (the unit returns), an unsettled hold expires and returns the unit,
//! and nobody but the owner or an admin, with a good crumb, settles an order.

use std::time::Duration;

use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::metrics::scraped;
use veranda_tests::{assert_refused, demo_site_copy, eventually, spawn_app_configured, TestApp, Visitor};

use crate::commerce::support::{shopper_with_blend, Shopping, BUYER};

/// The settlement route of order `id`.
fn status_path(id: &str) -> String {
    format!("/api/commerce/orders/{id}/status")
}

/// The demo shop with one unit of the house blend, its holds lasting `hold_secs`, swept
/// every second.
async fn shop_with_one_unit(hold_secs: u64) -> (tempfile::TempDir, TestApp) {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("collections/shop/items/house-blend.toml");
    let text = std::fs::read_to_string(&path).expect("the demo has the house blend");
    assert!(text.contains("qtyInStock = 40"), "the 12 oz blend has 40 units in the demo");
    std::fs::write(&path, text.replacen("qtyInStock = 40", "qtyInStock = 1", 1)).expect("writes");
    let app = spawn_app_configured(dir.path(), |s| {
        s.commerce.offline_hold_secs = hold_secs;
        s.commerce.sweep_secs = 1;
    })
    .await;
    (dir, app)
}

/// A new shopper checks out one house blend; returns the answer.
async fn buy_the_blend(app: &TestApp) -> reqwest::Response {
    let mut s = shopper_with_blend(app, 1).await;
    assert!(s.cart().is_some());
    s.post_form("/checkout", &BUYER).await
}

/// A new shopper buys the last house blend; returns the order id.
async fn buy_the_last_unit(app: &TestApp) -> String {
    let res = buy_the_blend(app).await;
    assert_eq!(res.status(), 303, "the offline order is placed");
    let location = res.headers()["location"].to_str().expect("a location").to_string();
    let id = location.strip_prefix("/commerce/orders/").and_then(|rest| rest.split('?').next()).expect("order page");
    id.to_string()
}

/// Asserts that another shopper cannot buy the blend: it is sold out.
async fn assert_sold_out(app: &TestApp) {
    let res = buy_the_blend(app).await;
    assert_eq!(res.status(), 409, "the held unit is not sold again");
    let page = res.text().await.expect("the checkout page");
    assert!(page.contains("only 0 of") && page.contains("left in stock"), "{page}");
}

/// The signed-in owner, holding a crumb.
async fn owner(app: &TestApp) -> Visitor<'_> {
    let session = app.sign_in(true, &[], false).await;
    Visitor::with_cookies(app, &session).await
}

/// The order `id` as the owner's orders list shows it.
async fn listed(owner: &mut Visitor<'_>, id: &str) -> Value {
    let list: Value = owner.get("/api/commerce/orders").await.json().await.expect("the list");
    list["orders"].as_array().expect("orders").iter().find(|o| o["id"] == id).cloned().expect("the order is listed")
}

/// The value of the counter line `series` on `/metrics` (`None` when absent).
/// Holds settled with `outcome` so far, if exported.
async fn counter(app: &TestApp, outcome: &str) -> Option<f64> {
    scraped(&app.ops_address, "veranda_commerce_holds_settled_total", &[("outcome", outcome)]).await
}

const EXPIRED: &str = "expired";
const CANCELLED: &str = "cancelled";
const PAID: &str = "paid";

#[actix_rt::test]
async fn an_offline_order_of_the_last_unit_sells_it_out_until_the_owner_cancels_it() {
    let (_site, app) = shop_with_one_unit(3600).await;
    // The metrics are shared by every server of this test process: each series is
    // exported from start-up, and the counts below are compared with their value before.
    for outcome in [EXPIRED, CANCELLED, PAID] {
        assert!(counter(&app, outcome).await.is_some(), "{outcome} is exported from start-up");
    }
    let cancelled = counter(&app, CANCELLED).await.unwrap_or_default();
    let id = buy_the_last_unit(&app).await;
    assert_sold_out(&app).await;

    let mut owner = owner(&app).await;
    let order = listed(&mut owner, &id).await;
    assert_eq!(order["status"], "unpaid");
    let created = order["created"].as_i64().expect("created");
    assert_eq!(order["holdUntil"].as_i64(), Some(created + 3_600_000), "held for the setting's hour");

    let res = owner.post(&status_path(&id), &json!({ "status": "cancelled" })).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.expect("the order");
    assert_eq!(body["order"]["status"], "cancelled");
    assert_eq!(listed(&mut owner, &id).await["status"], "cancelled");
    assert!(counter(&app, CANCELLED).await.unwrap_or_default() >= cancelled + 1.0, "the cancellation is counted");

    // The unit is for sale again, and a cancelled order stays cancelled.
    buy_the_last_unit(&app).await;
    let again = owner.post(&status_path(&id), &json!({ "status": "paid" })).await;
    assert_refused(again, 409, "This order is already cancelled.").await;
}

#[actix_rt::test]
async fn an_order_marked_paid_keeps_its_unit_sold_past_the_hold() {
    let (_site, app) = shop_with_one_unit(1).await;
    let id = buy_the_last_unit(&app).await;
    let mut owner = owner(&app).await;
    let paid = counter(&app, PAID).await.unwrap_or_default();
    let res = owner.post(&status_path(&id), &json!({ "status": "paid" })).await;
    assert_eq!(res.status(), 200);
    assert!(counter(&app, PAID).await.unwrap_or_default() >= paid + 1.0, "the payment is counted");

    // Well past the one-second hold and several sweeps: still sold, still paid.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_sold_out(&app).await;
    assert_eq!(listed(&mut owner, &id).await["status"], "paid");
    let cancel = owner.post(&status_path(&id), &json!({ "status": "cancelled" })).await;
    assert_refused(cancel, 409, "This order is already marked paid.").await;
}

#[actix_rt::test]
async fn an_unsettled_hold_expires_and_returns_the_unit() {
    let (_site, app) = shop_with_one_unit(1).await;
    let expired = counter(&app, EXPIRED).await.unwrap_or_default();
    let id = buy_the_last_unit(&app).await;
    assert_sold_out(&app).await;

    let mut owner = owner(&app).await;
    let cookies = owner.cookies();
    eventually(Duration::from_secs(10), "the sweep to expire the hold", || async {
        let list = app.get_json("/api/commerce/orders", &cookies).await;
        list["orders"].as_array().is_some_and(|orders| orders.iter().any(|o| o["id"] == id && o["status"] == "expired"))
    })
    .await;
    // The sweep marks the order, returns its stock, then counts it.
    eventually(Duration::from_secs(5), "the expiry to be counted", || async {
        counter(&app, EXPIRED).await.unwrap_or_default() >= expired + 1.0
    })
    .await;
    buy_the_last_unit(&app).await;
    let late = owner.post(&status_path(&id), &json!({ "status": "paid" })).await;
    assert_refused(late, 409, "This order's hold expired and its stock was returned.").await;
}

#[actix_rt::test]
async fn only_the_owner_or_an_admin_with_a_good_crumb_settles_an_order() {
    let (_site, app) = shop_with_one_unit(3600).await;
    let id = buy_the_last_unit(&app).await;
    let paid = json!({ "status": "paid" });

    let mut visitor = Visitor::new(&app).await;
    assert_refused(visitor.post(&status_path(&id), &paid).await, 401, "Sign in to see the orders.").await;
    let editor = app.sign_in(false, &[ContributorRole::Reporting], false).await;
    let mut editor = Visitor::with_cookies(&app, &editor).await;
    let refused = editor.post(&status_path(&id), &paid).await;
    assert_refused(refused, 403, "Only the owner and admins see the orders.").await;

    let mut owner = owner(&app).await;
    let url = format!("{}{}", app.address, status_path(&id));
    let forged = app.client.post(url).header("cookie", owner.cookies()).header("X-CSRF-Token", "forged").json(&paid);
    let res = forged.send().await.expect("answered");
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.expect("a refusal");
    assert_eq!(body["crumbFail"], true, "{body}");

    // Nothing was settled: the unit is still held and the order unpaid.
    assert_eq!(listed(&mut owner, &id).await["status"], "unpaid");
    assert_sold_out(&app).await;

    // Bad bodies and unknown orders are refused, not settled.
    let odd = owner.post(&status_path(&id), &json!({ "status": "refunded" })).await;
    assert_eq!(odd.status(), 400);
    let unknown = owner.post(&status_path("0123456789abcdef01234567"), &paid).await;
    assert_refused(unknown, 404, "No order has this id.").await;
    assert_eq!(owner.post(&status_path(&id), &paid).await.status(), 200);
}

#[actix_rt::test]
async fn redis_settles_an_unpaid_order_once() {
    use veranda_actors::commerce::cart::ShoppingCart;
    use veranda_actors::commerce::order::{Customer, Order, OrderKind, OrderStatus};
    use veranda_actors::commerce::redis_storage::RedisStorage;
    use veranda_actors::commerce::storage::CommerceStorage;

    use crate::commerce::redis::harness::Redis;

    let Some(redis) = Redis::if_installed().await else { return };
    let storage = RedisStorage::connect(&redis.url()).await.expect("connects");
    let cart = ShoppingCart::new("held-cart", "site", Default::default(), 1);
    let order = Order::from_cart("held-order".into(), OrderKind::Order, &cart, Customer::default(), 1);
    storage.save_order(&order).await.expect("stored");

    let paid = Order { status: OrderStatus::Paid, ..order.clone() };
    let cancelled = Order { status: OrderStatus::Cancelled, ..order.clone() };
    assert!(storage.settle_order(&paid).await.expect("answers"), "an unpaid order is settled");
    assert!(!storage.settle_order(&cancelled).await.expect("answers"), "a settled order is not settled again");
    let stored = storage.load_order("held-order").expect("reads").expect("stored");
    assert_eq!(stored.status, OrderStatus::Paid);
    let unknown = Order { id: "no-such-order".into(), ..paid };
    assert!(!storage.settle_order(&unknown).await.expect("answers"), "an unknown order is not written");
}
