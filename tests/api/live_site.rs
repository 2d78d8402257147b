//! One live site: once an owner hides an item through the edit APIs, every part of the
//! server reads the edited site: the item leaves the sitemap, its panel link and page
//! are 404, and its product can no longer be added to a cart or checked out.

use reqwest::Method;
use serde_json::{json, Value};
use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::Site;
use veranda_tests::{assert_refused, spawn_app, TestApp};

use crate::commerce::support::{Shopper, Shopping, BUYER};
use veranda_tests::crumb_for;

/// A published product item with a SKU: (item id, its page path, the product's title, a SKU).
fn product(site: &Site) -> (String, String, String, String) {
    site.collections
        .iter()
        .flat_map(|c| c.items.iter().map(move |i| (c, i)))
        .filter(|(_, i)| i.state == PublicationState::Published)
        .find_map(|(c, i)| {
            let sku = i.product.as_ref()?.variants.first()?.sku.clone();
            Some((i.id.clone(), c.item_url(i), i.title.clone(), sku))
        })
        .expect("the demo site sells a product")
}

/// Sets item `id`'s publication state as the site's owner; expects 200.
pub(crate) async fn set_state(app: &TestApp, id: &str, state: &str) {
    let owner = app.sign_in(true, &[], false).await;
    let crumb = crumb_for(app, &owner).await;
    let res = app
        .client
        .put(format!("{}/api/content/items/{id}/visibility", app.address))
        .header("cookie", format!("{owner}; crumb={crumb}"))
        .header("x-csrf-token", crumb)
        .json(&json!({ "state": state }))
        .send()
        .await
        .expect("answered");
    assert_eq!(res.status(), 200, "the owner sets {id} to {state}");
}

async fn sitemap(app: &TestApp) -> String {
    let res = app.get("/sitemap.xml").await;
    assert_eq!(res.status(), 200);
    res.text().await.expect("XML")
}

#[actix_rt::test]
async fn a_hidden_item_leaves_the_sitemap_and_its_page_and_panel_link_are_404() {
    let app = spawn_app().await;
    let (id, path, ..) = product(&app.site);
    let entry = format!("{path}</loc>");
    assert!(sitemap(&app).await.contains(&entry), "{path} is listed while published");
    assert_eq!(app.get(&path).await.status(), 200);
    let panel = app.get(&format!("/pages/{id}")).await;
    assert_eq!(panel.status(), 302, "the panel link of a published item leads to its page");
    assert_eq!(panel.headers().get("location").map(|v| v.to_str().unwrap_or("")), Some(path.as_str()));

    set_state(&app, &id, "draft").await;
    assert!(!sitemap(&app).await.contains(&entry), "{path} leaves the sitemap once hidden");
    assert_eq!(app.get(&path).await.status(), 404);
    assert_eq!(app.get(&format!("/pages/{id}")).await.status(), 404);

    set_state(&app, &id, "published").await;
    assert!(sitemap(&app).await.contains(&entry), "{path} is listed again once shown");
}

#[actix_rt::test]
async fn a_hidden_product_cannot_be_added_to_a_cart() {
    let app = spawn_app().await;
    let (id, _, title, sku) = product(&app.site);
    set_state(&app, &id, "draft").await;

    let mut shopper = Shopper::new(&app).await;
    let res = shopper.call(Method::POST, "/api/commerce/cart/entries", Some(json!({ "sku": sku }))).await;
    assert_refused(res, 409, &format!("'{title}' is not for sale.")).await;

    let res = shopper.post_form("/commerce/cart/add", &[("sku", &sku)]).await;
    let page = res.text().await.expect("HTML");
    assert!(
        page.contains(&format!("&#39;{title}&#39; is not for sale."))
            || page.contains(&format!("'{title}' is not for sale.")),
        "{page}"
    );

    set_state(&app, &id, "published").await;
    shopper.add(&sku, 1).await;
}

#[actix_rt::test]
async fn a_cart_holding_a_product_hidden_since_is_not_checked_out() {
    let app = spawn_app().await;
    let (id, _, title, sku) = product(&app.site);
    let mut shopper = Shopper::new(&app).await;
    shopper.add(&sku, 1).await;

    set_state(&app, &id, "draft").await;
    let res = shopper.post_form("/checkout", &BUYER).await;
    assert_eq!(res.status(), 409);
    let page = res.text().await.expect("HTML");
    assert!(page.contains("is not for sale."), "{page}");
    assert!(page.contains(&title) || page.contains(&title.replace('\'', "&#39;")), "{page}");
    let cart = shopper.get("/api/commerce/cart").await.json::<Value>().await.expect("a cart");
    assert_eq!(cart["isPurchased"], false, "nothing was ordered: {cart}");

    set_state(&app, &id, "published").await;
    assert_eq!(shopper.post_form("/checkout", &BUYER).await.status(), 303);
}
