//! Joining the demo's member area: the checkout makes an account (or takes an existing
//! account's password), signs the buyer in, and the account becomes a member when the owner
//! marks the order paid — member pages open in the session the buyer already holds.

use serde_json::{json, Value};
use veranda_actors::accounts::{find_by_email, AccountRole, Email, SESSION_COOKIE};
use veranda_actors::store::Tree;
use veranda_tests::{add_account, spawn_app, TestApp, Visitor};

/// The demo's member area (config/sites/demo/pages/support.toml) and its right-hand option:
/// Yearly, $90.00 billed yearly.
const JOIN_YEARLY: &str = "/checkout/join?memberAreaId=151ddf95961304586d8acd7a&pricingOption=1";
/// What a member-only page shows a signed-in account that is no member (page type 106).
const NOT_A_MEMBER: &str = "Your account does not have access to this member area.";
/// What the demo's member page (`/members`) shows members.
const MEMBER_CONTENT: &str = "cardamom buns";

/// A visitor who opened the membership checkout.
async fn joiner(app: &TestApp) -> Visitor<'_> {
    let mut v = Visitor::new(app).await;
    assert_eq!(v.get(JOIN_YEARLY).await.status(), 200);
    v
}

/// `v` posts the membership checkout with `email`, `name` and `password`.
async fn join(v: &mut Visitor<'_>, email: &str, name: &str, password: &str) -> reqwest::Response {
    v.post_form(JOIN_YEARLY, &[("email", email), ("name", name), ("password", password)]).await
}

/// The order id of a 303 to its confirmation.
fn order_id(res: &reqwest::Response) -> String {
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("ascii");
    let rest = location.strip_prefix("/commerce/orders/").expect("the confirmation");
    rest.split('?').next().expect("an id").to_string()
}

/// The owner settles order `id` as `status`; the answer's status code.
async fn settle(app: &TestApp, id: &str, status: &str) -> u16 {
    let session = app.sign_in(true, &[], false).await;
    let mut owner = Visitor::with_cookies(app, &session).await;
    owner.post(&format!("/api/commerce/orders/{id}/status"), &json!({ "status": status })).await.status().as_u16()
}

/// The member page as `v` sees it.
async fn member_page(v: &mut Visitor<'_>) -> String {
    v.get("/members").await.text().await.expect("html")
}

#[actix_rt::test]
async fn joining_places_a_membership_for_the_chosen_option_and_signs_the_buyer_in() {
    let app = spawn_app().await;
    let support = app.get("/support").await.text().await.expect("html");
    assert!(support.contains(
        "<form class=\"member-join\" method=\"get\" action=\"/checkout/join\"><input type=\"hidden\" \
         name=\"memberAreaId\" value=\"151ddf95961304586d8acd7a\">"
    ));
    assert!(support.contains("name=\"pricingOption\" value=\"1\">Join for a year</button>"), "{support}");
    let mut v = joiner(&app).await;
    let res = join(&mut v, "not-an-email", "Ada", "porch swing").await;
    assert_eq!(res.status(), 400);
    let res = join(&mut v, "Ada@Example.com", "Ada", "porch swing").await;
    assert!(v.cookie(SESSION_COOKIE).is_some(), "the buyer is signed in");
    let location = res.headers()["location"].to_str().expect("ascii").to_string();
    let page = v.get(&location).await.text().await.expect("html");
    // Spec 000 §8 page types: membership confirmed 208.
    assert!(page.contains("data-page-type=\"208\""), "{page}");
    assert!(page.contains("Renews yearly until cancelled"), "{page}");
    assert!(page.contains("Member pages open to Ada@Example.com once the payment is confirmed."), "{page}");

    let orders = app.store.scan_prefix(Tree::Orders, b"", 10).expect("orders");
    assert_eq!(orders.len(), 1);
    let order: Value = serde_json::from_slice(&orders[0].1).expect("an order");
    assert_eq!((order["kind"].as_str(), order["grandTotalCents"].as_u64()), (Some("subscription"), Some(9000)));
    let entry = &order["entries"][0];
    assert_eq!((entry["unitPriceCents"].as_u64(), entry["quantity"].as_u64()), (Some(9000), Some(1)));
    assert_eq!((entry["sku"].as_str(), entry["subscription"].as_bool()), (Some("MEMBERSHIP-YEARLY"), Some(true)));
    assert_eq!(entry["title"], "Become a porch member");

    let account: Value = v.get("/api/site-users/account").await.json().await.expect("the account");
    assert_eq!((account["email"].as_str(), account["member"].as_bool()), (Some("ada@example.com"), Some(false)));
    // Spec 000 §7: an ad-pixel event fires for customer account creation, from the page
    // the visitor joined on.
    let created = pixel_events(&app);
    assert_eq!(created.len(), 1, "{created:?}");
    assert_eq!(created[0]["data"], json!({ "pagePath": "/support", "memberAccountId": account["id"] }));
}

/// The stored account-creation ad-pixel events.
fn pixel_events(app: &TestApp) -> Vec<Value> {
    let events = app.store.scan_prefix(Tree::Events, b"", 100).expect("events");
    events
        .iter()
        .filter_map(|(_, bytes)| serde_json::from_slice::<Value>(bytes).ok())
        .filter(|e| e["kind"] == "recordEvent" && e["event"] == "customer-account-creation")
        .collect()
}

#[actix_rt::test]
async fn member_pages_open_in_the_buyers_session_once_the_owner_marks_the_order_paid() {
    let app = spawn_app().await;
    let mut v = joiner(&app).await;
    let res = join(&mut v, "bea@example.com", "Bea", "porch swing").await;
    let id = order_id(&res);
    let before = member_page(&mut v).await;
    assert!(before.contains(NOT_A_MEMBER) && !before.contains(MEMBER_CONTENT), "not a member before paying: {before}");

    assert_eq!(settle(&app, &id, "paid").await, 200);
    let page = member_page(&mut v).await;
    assert!(page.contains(MEMBER_CONTENT) && !page.contains(NOT_A_MEMBER), "{page}");
    let account: Value = v.get("/api/site-users/account").await.json().await.expect("the account");
    assert_eq!(account["member"], true);
    let confirmation = v.get(&format!("/commerce/orders/{id}")).await.text().await.expect("html");
    assert!(
        confirmation.contains("Your membership is active: member pages open to bea@example.com."),
        "{confirmation}"
    );

    // A new sign-in carries the membership too.
    let email = Email::parse("bea@example.com").expect("valid");
    assert!(find_by_email(app.store.as_ref(), &email).expect("reads").expect("an account").member);
}

#[actix_rt::test]
async fn a_cancelled_membership_order_makes_nobody_a_member() {
    let app = spawn_app().await;
    let mut v = joiner(&app).await;
    let res = join(&mut v, "cy@example.com", "Cy", "porch swing").await;
    let id = order_id(&res);
    assert_eq!(settle(&app, &id, "cancelled").await, 200);
    assert_eq!(settle(&app, &id, "paid").await, 409, "a cancelled order is not paid later");
    let page = member_page(&mut v).await;
    assert!(page.contains(NOT_A_MEMBER) && !page.contains(MEMBER_CONTENT), "{page}");
    let email = Email::parse("cy@example.com").expect("valid");
    assert!(!find_by_email(app.store.as_ref(), &email).expect("reads").expect("an account").member);
}

#[actix_rt::test]
async fn an_email_with_an_account_joins_only_with_that_accounts_password() {
    let app = spawn_app().await;
    let dee = add_account(
        &app,
        "dee@example.com",
        "old porch swing",
        &[AccountRole::Contributor(veranda_actors::domain::enums::ContributorRole::Viewer)],
    )
    .await;
    let mut v = joiner(&app).await;
    let res = join(&mut v, "dee@example.com", "Dee", "guess guess").await;
    assert_eq!(res.status(), 400);
    let page = res.text().await.expect("html");
    assert!(page.contains("This email already has an account: enter its password to join with it."), "{page}");
    assert!(!page.contains("guess guess"), "the password is never shown back");
    assert!(app.store.scan_prefix(Tree::Orders, b"", 10).expect("orders").is_empty(), "nothing is ordered");
    assert!(v.cookie(SESSION_COOKIE).is_none());

    let res = join(&mut v, "dee@example.com", "Dee", "old porch swing").await;
    order_id(&res);
    let account: Value = v.get("/api/site-users/account").await.json().await.expect("the account");
    assert_eq!(account["id"].as_str(), Some(dee.id.as_str()), "the existing account joins");
    assert!(pixel_events(&app).is_empty(), "no account was created");
}

#[actix_rt::test]
async fn a_new_account_needs_a_password_of_eight_characters() {
    let app = spawn_app().await;
    let mut v = joiner(&app).await;
    let cases = [("", "This field is required."), ("seven77", "Choose a password of at least 8 characters.")];
    for (password, message) in cases {
        let res = join(&mut v, "eve@example.com", "Eve", password).await;
        assert_eq!(res.status(), 400, "{password:?}");
        let page = res.text().await.expect("html");
        assert!(page.contains(message), "{password:?}: {page}");
        assert!(page.contains("aria-describedby=\"password-hint password-error\""), "{page}");
    }
    let email = Email::parse("eve@example.com").expect("valid");
    assert_eq!(find_by_email(app.store.as_ref(), &email).expect("reads"), None, "no account is made");
    let res = join(&mut v, "eve@example.com", "Eve", "eight888").await;
    order_id(&res);
}
