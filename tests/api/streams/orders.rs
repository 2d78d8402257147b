//! The `orderPlaced` event: a checkout publishes the placed order on the edits stream (admin
//! permission, like the order listing), without any customer data.

use serde_json::Value;
use std::time::Duration;
use veranda_actors::domain::enums::ContributorRole;

use veranda_tests::{crumb, eventually, spawn_app, TestApp, Visitor};

use crate::streams::{next_json, open, own_origin, watch, watch_with_hello};

/// Puts two mugs in a new cart and checks it out; the placed order's id.
pub async fn place_order(app: &TestApp) -> String {
    let mut shopper = Visitor::new(app).await;
    let res =
        shopper.post("/api/commerce/cart/entries", &serde_json::json!({ "sku": "VER-HB-12OZ", "quantity": 2 })).await;
    assert_eq!(res.status(), 200);
    assert!(shopper.cookie("cart").is_some(), "a cart cookie");
    let fields = [
        ("email", "grace@example.com"),
        ("name", "Grace Hopper"),
        ("addressLine1", "12 Linden Street"),
        ("city", "Riverton"),
        ("region", "NY"),
        ("postalCode", "10001"),
        ("country", "US"),
    ];
    let res = shopper.post_form("/checkout", &fields).await;
    assert_eq!(res.status(), 303, "the order is placed");
    let location = res.headers()["location"].to_str().expect("ascii").to_string();
    let page = location.split('?').next().unwrap_or_default();
    page.strip_prefix("/commerce/orders/").expect("the confirmation").to_string()
}

#[actix_rt::test]
async fn an_admin_socket_gets_the_placed_order_without_customer_data() {
    let app = spawn_app().await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let (mut socket, hello) = watch_with_hello(&app, "edits", &admin).await;
    assert_eq!(hello["type"], "hello");
    let order_id = place_order(&app).await;

    let event = next_json(&mut socket).await;
    assert_eq!(event["type"], "event");
    assert_eq!(event["offset"].as_u64(), hello["offset"].as_u64().map(|o| o + 1));
    let data = &event["data"];
    assert_eq!(data["type"], "orderPlaced");
    assert_eq!(data["orderId"], order_id.as_str());
    assert_eq!(data["itemCount"], 2);
    assert_eq!(data["kind"], "order");
    assert_eq!(data["grandTotalCents"], 4084, "3200 + 600 shipping + 284 tax");
    assert_eq!(data["grandTotal"]["currencyCode"], "USD");
    assert!(data["created"].as_i64().is_some_and(|t| t > 1_600_000_000_000));
    assert!(data.get("name").is_none(), "not an editor event");

    // The same money fields as the listing.
    let owner = app.sign_in(true, &[], false).await;
    let listed = app.get_json("/api/commerce/orders", &owner).await;
    let listed = &listed["orders"][0];
    assert_eq!(listed["id"], data["orderId"]);
    assert_eq!(listed["grandTotal"], data["grandTotal"]);
    assert_eq!(listed["created"], data["created"]);

    let text = event.to_string();
    for private in ["grace@example.com", "Grace Hopper", "Linden", "Riverton", "10001"] {
        assert!(!text.contains(private), "{private} is not on the stream: {text}");
    }
}

#[actix_rt::test]
async fn donations_and_gift_cards_are_announced_as_their_orders() {
    let app = spawn_app().await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let mut socket = watch(&app, "edits", &admin).await;
    assert_eq!(next_json(&mut socket).await["type"], "hello");
    let crumb = crumb(&app).await;
    let donation = "/checkout/donate?donatePageId=80547c31754bff4a36b499a9";
    let gift_card = "/checkout/giftcard?websiteId=51ee8ec89a317a31733c9281\
        &giftCardProductId=6e5c69da604552c2465b161c&sku=VER-GIFT-50";
    for (path, amount, kind, cents) in [(donation, Some("25"), "contribution", 2500), (gift_card, None, "order", 5000)]
    {
        let mut form = vec![("crumb", crumb.as_str()), ("email", "ada@example.com"), ("name", "Ada")];
        form.extend(amount.map(|a| ("amount", a)));
        let res = app.post_form(path, &crumb, &form).await;
        assert_eq!(res.status(), 303, "{path}");
        let location = res.headers()["location"].to_str().expect("ascii").to_string();
        let page = location.split('?').next().unwrap_or_default();
        let order_id = page.strip_prefix("/commerce/orders/").expect("the confirmation");
        let data = &next_json(&mut socket).await["data"];
        assert_eq!(data["type"], "orderPlaced", "{path}");
        assert_eq!(data["orderId"], order_id);
        assert_eq!((data["kind"].as_str(), data["grandTotalCents"].as_u64()), (Some(kind), Some(cents)), "{data}");
    }
}

#[actix_rt::test]
async fn accounts_without_admin_permission_cannot_follow_the_orders() {
    let app = spawn_app().await;
    let origin = own_origin(&app);
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let member = app.sign_in(false, &[], true).await;
    assert_eq!(open(&app, "edits", None, Some(&origin)).await.err(), Some(401));
    assert_eq!(open(&app, "edits", Some(&editor), Some(&origin)).await.err(), Some(403));
    assert_eq!(open(&app, "edits", Some(&member), Some(&origin)).await.err(), Some(403));

    // The errors stream never carries orders.
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let mut errors = watch(&app, "errors", &admin).await;
    let hello = next_json(&mut errors).await;
    assert_eq!(hello["type"], "hello");
    let owner = app.sign_in(true, &[], false).await;
    let edits_before = stats(&app, "edits", &owner).await["offset"].as_u64().expect("an offset");
    place_order(&app).await;
    eventually(Duration::from_secs(20), "the order to reach the edits stream", || async {
        stats(&app, "edits", &owner).await["offset"].as_u64() != Some(edits_before)
    })
    .await;
    assert_eq!(stats(&app, "errors", &admin).await["offset"], hello["offset"], "nothing on the errors stream");
}

async fn stats(app: &TestApp, stream: &str, cookie: &str) -> Value {
    app.client
        .get(format!("{}/api/streams/{stream}/stats", app.address))
        .header("cookie", cookie)
        .send()
        .await
        .expect("answered")
        .json()
        .await
        .expect("json")
}
