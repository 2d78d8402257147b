//! `GET /api/commerce/orders`: the newest orders for the owner and admins, newest first,
//! with a bounded `limit`; refusals for everyone else.

use serde_json::Value;
use veranda_actors::commerce::cart::CartEntry;
use veranda_actors::commerce::money::Currency;
use veranda_actors::commerce::order::{Customer, Order, OrderKind, OrderStatus};
use veranda_actors::commerce::storage::{CommerceStorage, StoreStorage};
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::{spawn_app, TestApp};

fn entry(sku: &str, quantity: u32, unit_price_cents: u64) -> CartEntry {
    CartEntry {
        sku: sku.into(),
        item_id: format!("item-{sku}"),
        title: format!("Product {sku}"),
        options: Vec::new(),
        product_type: "physical".into(),
        quantity,
        unit_price_cents,
        total_cents: u64::from(quantity) * unit_price_cents,
        subscription: false,
        plan_terms: None,
    }
}

fn order(id: &str, created: i64, entries: Vec<CartEntry>, grand_total_cents: u64, currency: Currency) -> Order {
    let subtotal = entries.iter().map(|e| e.total_cents).sum();
    Order {
        id: id.into(),
        kind: OrderKind::Order,
        cart_id: format!("cart-{id}"),
        created,
        customer: Customer { email: format!("{id}@example.com"), name: "Ada".into(), ..Customer::default() },
        entries,
        subtotal_cents: subtotal,
        discount_cents: 0,
        shipping_cost_cents: 0,
        tax_cents: 0,
        grand_total_cents,
        currency,
        payment_reference: format!("offline-{id}"),
        secret: String::new(),
        status: OrderStatus::Unpaid,
        hold_until: None,
    }
}

/// Stores `orders` as checkout would.
async fn store_orders(app: &TestApp, orders: &[Order]) {
    let storage = StoreStorage::new(app.store.clone());
    for o in orders {
        storage.save_order(o).await.expect("order stored");
    }
}

async fn list(app: &TestApp, query: &str, cookie: &str) -> reqwest::Response {
    app.get_with(&format!("/api/commerce/orders{query}"), &[("cookie", cookie)]).await
}

async fn ids(app: &TestApp, query: &str, cookie: &str) -> Vec<String> {
    let res = list(app, query, cookie).await;
    assert_eq!(res.status(), 200, "{query}");
    let body: Value = res.json().await.expect("json");
    body["orders"].as_array().expect("a list").iter().map(|o| o["id"].as_str().expect("an id").to_string()).collect()
}

#[actix_rt::test]
async fn visitors_get_401_other_accounts_403_and_other_methods_405() {
    let app = spawn_app().await;
    let res = app.get("/api/commerce/orders").await;
    assert_eq!(res.status(), 401);
    assert_eq!(res.json::<Value>().await.expect("json")["error"], "Sign in to see the orders.");
    for roles in [&[ContributorRole::Editor][..], &[ContributorRole::Viewer], &[]] {
        let cookie = app.sign_in(false, roles, roles.is_empty()).await;
        let res = list(&app, "", &cookie).await;
        assert_eq!(res.status(), 403, "{roles:?}");
        assert_eq!(res.json::<Value>().await.expect("json")["error"], "Only the owner and admins see the orders.");
    }
    let res = app.client.post(format!("{}/api/commerce/orders", app.address)).send().await.expect("answered");
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").and_then(|v| v.to_str().ok()), Some("GET"));
}

#[actix_rt::test]
async fn the_owner_and_admins_get_the_newest_orders_first_with_their_totals() {
    let app = spawn_app().await;
    // Ids in the reverse order of their times, so key order is not time order.
    store_orders(
        &app,
        &[
            order("a-newest", 3_000, vec![entry("MUG", 2, 1600), entry("TEA", 1, 450)], 4084, Currency::USD),
            order("b-middle", 2_000, vec![entry("TEA", 1, 450)], 1200, Currency::JPY),
            order("c-oldest", 1_000, vec![entry("MUG", 1, 1600)], 123456789, Currency::EUR),
        ],
    )
    .await;
    let owner = app.sign_in(true, &[], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    for cookie in [&owner, &admin] {
        let res = list(&app, "", cookie).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
        let body: Value = res.json().await.expect("json");
        let orders = body["orders"].as_array().expect("a list");
        let ids: Vec<&str> = orders.iter().filter_map(|o| o["id"].as_str()).collect();
        assert_eq!(ids, ["a-newest", "b-middle", "c-oldest"]);
        let first = &orders[0];
        assert_eq!(first["created"], 3_000);
        assert_eq!(first["customerEmail"], "a-newest@example.com");
        assert_eq!(first["itemCount"], 3, "the sum of the quantities");
        assert_eq!(first["grandTotalCents"], 4084);
        assert_eq!(first["grandTotal"], serde_json::json!({ "currencyCode": "USD", "value": 40.84 }));
        assert_eq!(first["kind"], "order");
        assert_eq!(orders[1]["grandTotal"], serde_json::json!({ "currencyCode": "JPY", "value": 1200.0 }));
        assert_eq!(orders[2]["grandTotal"]["currencyCode"], "EUR");
    }
    assert_eq!(ids(&app, "?limit=2", &owner).await, ["a-newest", "b-middle"]);
    assert_eq!(ids(&app, "?limit=1", &owner).await, ["a-newest"]);
    assert_eq!(ids(&app, "?limit=200", &owner).await.len(), 3);
}

#[actix_rt::test]
async fn the_limit_defaults_to_fifty_and_bad_limits_get_400_with_a_message() {
    let app = spawn_app().await;
    let many: Vec<Order> = (0..60)
        .map(|i| order(&format!("order-{i:02}"), 10_000 + i, vec![entry("MUG", 1, 100)], 100, Currency::USD))
        .collect();
    store_orders(&app, &many).await;
    let owner = app.sign_in(true, &[], false).await;
    let listed = ids(&app, "", &owner).await;
    assert_eq!(listed.len(), 50);
    assert_eq!(listed.first().map(String::as_str), Some("order-59"));
    assert_eq!(listed.last().map(String::as_str), Some("order-10"));
    for bad in ["0", "201", "-1", "ten", "", "2.5", "%FF", "1e2", "99999999999999999999999"] {
        let res = list(&app, &format!("?limit={bad}"), &owner).await;
        assert_eq!(res.status(), 400, "limit={bad}");
        let body: Value = res.json().await.expect("json");
        assert_eq!(body["error"], "limit must be a whole number from 1 to 200.", "limit={bad}");
    }
    let visitor = app.get("/api/commerce/orders?limit=nope").await;
    assert_eq!(visitor.status(), 401, "the permission is checked before the input");
}

#[actix_rt::test]
async fn an_order_placed_through_checkout_is_listed_first() {
    let app = spawn_app().await;
    store_orders(&app, &[order("earlier", 1_000, vec![entry("MUG", 1, 100)], 100, Currency::USD)]).await;
    let placed_id = crate::streams::orders::place_order(&app).await;

    let owner = app.sign_in(true, &[], false).await;
    let body: Value = list(&app, "", &owner).await.json().await.expect("json");
    let orders = body["orders"].as_array().expect("a list");
    assert_eq!(orders.len(), 2);
    let placed = &orders[0];
    assert_eq!(placed["id"], placed_id.as_str());
    assert_eq!(placed["customerEmail"], "grace@example.com");
    assert_eq!(placed["itemCount"], 2);
    assert_eq!(placed["kind"], "order");
    assert_eq!(placed["grandTotal"]["currencyCode"], "USD");
    assert_eq!(placed["grandTotalCents"], 4084, "3200 + 600 shipping + 284 tax");
    assert_eq!(orders[1]["id"], "earlier");
}
