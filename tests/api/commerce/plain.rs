//! The cart without JavaScript: the plain form posts (`/commerce/cart/add`, `…/quantity`,
//! `…/remove`, `…/shipping`), their crumb and origin checks, the 303 back to a same-site
//! path only, hostile input, the plain cart page `/commerce/cart` with its "Added to
//! cart." notice after an add, and the site's cart page `/cart` with the visitor's cart
//! rendered in its cart root.

use serde_json::Value;
use veranda_tests::{spawn_app, TestApp};

use super::support::{shopper_with_blend, Shopper, Shopping};
use veranda_tests::{cookie_value, set_cookie, text_with_status};

/// Posts `fields` form-encoded to `path` with `cookie` and extra `headers`.
async fn post(
    app: &TestApp,
    path: &str,
    cookie: &str,
    headers: &[(&str, &str)],
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let mut req = app.client.post(format!("{}{path}", app.address)).form(fields);
    if !cookie.is_empty() {
        req = req.header("cookie", cookie);
    }
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.expect("answered")
}

/// What a browser sends with a form post from a page of this site.
fn same_origin(app: &TestApp) -> [(&str, &str); 2] {
    [("origin", app.address.as_str()), ("sec-fetch-site", "same-origin")]
}

/// The visitor's cart as the JSON API reads it.
async fn cart(app: &TestApp, crumb: &str, cart: &str) -> Value {
    let res = app.get_with("/api/commerce/cart", &[("cookie", &format!("crumb={crumb}; cart={cart}"))]).await;
    res.json().await.expect("a cart")
}

fn location(res: &reqwest::Response) -> &str {
    res.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default()
}

#[actix_rt::test]
async fn a_product_page_form_adds_to_a_new_cart_and_lands_on_the_cart_page() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    // The product page carries the plain form: variant, quantity and the way back.
    let page = s.get("/shop/house-blend").await.text().await.expect("html");
    assert!(page.contains(r#"action="/commerce/cart/add""#), "{page}");
    assert!(page.contains(r#"name="returnTo" value="/shop/house-blend""#));
    assert!(page.contains(r#"name="sku""#) && page.contains(r#"name="quantity""#));

    // A sold-out product has no form, only its disabled button.
    let sold_out = s.get("/shop/enamel-mug").await.text().await.expect("html");
    assert!(!sold_out.contains("/commerce/cart/add"), "{sold_out}");
    assert!(sold_out.contains("Sold Out"));

    let fields = [("sku", "VER-HB-12OZ"), ("quantity", "2"), ("returnTo", "/shop/house-blend")];
    let res = post(&app, "/commerce/cart/add", &s.cookies(), &same_origin(&app), &fields).await;
    assert_eq!(res.status(), 303);
    // An add lands on the plain cart page, which says so; the product page is the way on.
    assert_eq!(location(&res), "/commerce/cart?added=1&from=%2Fshop%2Fhouse-blend");
    let cookie = set_cookie(&res, "cart").expect("a new cart cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    let id = cookie_value(&res, "cart").expect("id");
    let now = cart(&app, &s.crumb_value(), &id).await;
    assert_eq!((now["totalQuantity"].as_u64(), now["subtotalCents"].as_u64()), (Some(2), Some(3200)));

    // Again into the same cart, by item id for a product with one variant; no returnTo
    // comes from the plain cart page.
    let cookies = format!("crumb={}; cart={id}", s.crumb_value());
    let res = post(&app, "/commerce/cart/add", &cookies, &[], &[("itemId", "655ce11df2f4e659fc001bd7")]).await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/commerce/cart?added=1");
    assert!(set_cookie(&res, "cart").is_none(), "the cart is kept");
    let now = cart(&app, &s.crumb_value(), &id).await;
    assert_eq!(now["totalQuantity"], 3);
}

#[actix_rt::test]
async fn the_cart_page_changes_quantities_removes_entries_and_chooses_shipping() {
    let app = spawn_app().await;
    let mut s = shopper_with_blend(&app, 1).await;
    s.add("VER-GUIDE-PDF", 1).await;
    let id = s.cart().expect("a cart");

    let page = s.get("/commerce/cart").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.expect("html");
    for needle in [
        r#"action="/commerce/cart/quantity""#,
        r#"action="/commerce/cart/remove""#,
        r#"action="/commerce/cart/shipping""#,
        &format!(r#"name="crumb" value="{}""#, s.crumb_value()),
        r#"aria-label="Remove The Veranda brewing guide (PDF)""#,
        "Express shipping: $15",
    ] {
        assert!(html.contains(needle), "{needle} in {html}");
    }

    let back = [("returnTo", "/commerce/cart")];
    let res = s.post_form("/commerce/cart/quantity", &[("sku", "VER-HB-12OZ"), ("quantity", "4"), back[0]]).await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/commerce/cart");
    assert_eq!(cart(&app, &s.crumb_value(), &id).await["totalQuantity"], 5);

    let res = s.post_form("/commerce/cart/remove", &[("sku", "VER-GUIDE-PDF"), back[0]]).await;
    assert_eq!(res.status(), 303);
    let now = cart(&app, &s.crumb_value(), &id).await;
    assert_eq!((now["totalQuantity"].as_u64(), now["entries"].as_array().map(Vec::len)), (Some(4), Some(1)));

    let res = s.post_form("/commerce/cart/shipping", &[("optionId", "express"), back[0]]).await;
    assert_eq!(res.status(), 303);
    let now = cart(&app, &s.crumb_value(), &id).await;
    assert_eq!(now["selectedShippingOption"]["id"], "express");
    assert_eq!(now["shippingCostCents"], 1500);
    let html = s.get("/commerce/cart").await.text().await.expect("html");
    assert!(html.contains(r#"value="express" checked"#), "{html}");
    assert!(html.contains(r#"value="4""#));
}

#[actix_rt::test]
async fn posts_without_a_good_crumb_or_from_another_site_are_refused() {
    let app = spawn_app().await;
    let s = Shopper::new(&app).await;
    let fields = [("sku", "VER-HB-12OZ"), ("quantity", "1")];
    let forged = "AAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let cases: Vec<(String, Vec<(&str, &str)>)> = vec![
        (String::new(), vec![]),
        (format!("crumb={forged}"), vec![]),
        (s.cookies(), vec![("origin", "https://evil.example")]),
        (s.cookies(), vec![("sec-fetch-site", "cross-site")]),
    ];
    for (cookie, headers) in &cases {
        let res = post(&app, "/commerce/cart/add", cookie, headers, &fields).await;
        assert_eq!(res.status(), 403, "{cookie} {headers:?}");
        assert!(set_cookie(&res, "cart").is_none(), "no cart is made");
        assert!(cookie_value(&res, "crumb").is_some(), "a fresh crumb");
        let body = res.text().await.expect("html");
        assert!(body.contains("Your session token is missing or stale"), "{body}");
    }
    // A crumb field that is not the cookie's.
    let res =
        post(&app, "/commerce/cart/add", &s.cookies(), &[], &[("sku", "VER-HB-12OZ"), ("crumb", "other.crumb")]).await;
    assert_eq!(res.status(), 403);
}

#[actix_rt::test]
async fn never_redirects_off_the_site() {
    let app = spawn_app().await;
    let s = Shopper::new(&app).await;
    for target in ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "shop"] {
        let fields = [("sku", "VER-HB-12OZ"), ("returnTo", target)];
        let res = post(&app, "/commerce/cart/add", &s.cookies(), &[], &fields).await;
        assert_eq!(res.status(), 400, "{target}");
        assert!(res.headers().get("location").is_none());
        assert!(set_cookie(&res, "cart").is_none(), "{target}: nothing was added");
        let body = res.text().await.expect("html");
        assert!(body.contains("The address to return to must be a path on this site."), "{body}");
        assert!(!body.contains("evil.example"), "the refusal links back on this site only");
    }
}

/// The plain form posts the hostile cases are sent to.
const ADD: &str = "/commerce/cart/add";
const QUANTITY: &str = "/commerce/cart/quantity";
/// The demo's house blend, in the cart of the hostile cases.
const BLEND: &str = "VER-HB-12OZ";
/// The start of the message refusing a quantity.
const WHOLE: &str = "Quantities must be whole numbers";

/// A hostile plain post: its path, its fields, the status and the message expected.
type HostileCase<'a> = (&'a str, Vec<(&'a str, &'a str)>, u16, &'a str);

#[actix_rt::test]
async fn hostile_input_gets_a_4xx_page_with_a_message() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    s.add(BLEND, 1).await;
    let cases: [HostileCase; 11] = [
        (ADD, vec![("sku", "NO-SUCH-SKU")], 400, "There is no product variant 'NO-SUCH-SKU'"),
        (ADD, vec![("sku", BLEND), ("quantity", "-3")], 400, "Quantities must be whole numbers from 1 to 1000."),
        (ADD, vec![("sku", BLEND), ("quantity", "99999999999999999999")], 400, WHOLE),
        (ADD, vec![("sku", BLEND), ("quantity", "1001")], 400, WHOLE),
        (ADD, vec![("sku", BLEND), ("quantity", "two")], 400, WHOLE),
        (ADD, vec![], 400, "Choose the product to add."),
        (ADD, vec![("itemId", "6d0e4b8336d2071273f617b5")], 400, "Choose a variant: this product has several."),
        (QUANTITY, vec![("sku", BLEND), ("quantity", "0")], 400, WHOLE),
        (QUANTITY, vec![("sku", "VER-GUIDE-PDF"), ("quantity", "2")], 404, "is not in the cart."),
        ("/commerce/cart/remove", vec![], 400, "Name the item to remove."),
        ("/commerce/cart/shipping", vec![("optionId", "teleport")], 400, "There is no shipping option 'teleport'."),
    ];
    for (path, fields, status, message) in cases {
        let res = s.post_form(path, &fields).await;
        assert_eq!(res.status().as_u16(), status, "{path} {fields:?}");
        let body = res.text().await.expect("html");
        assert!(body.contains(message), "{path} {fields:?}: {body}");
        assert!(body.contains("role=\"alert\""));
    }
    // Nothing changed.
    let id = s.cart().expect("cart");
    assert_eq!(cart(&app, &s.crumb_value(), &id).await["totalQuantity"], 1);

    // An oversized form.
    let huge = "x".repeat(2 * 1024 * 1024);
    let res = s.post_form("/commerce/cart/add", &[("sku", huge.as_str())]).await;
    assert_eq!(res.status(), 413);

    // A form that is not form-encoded text.
    let res = app
        .client
        .post(format!("{}/commerce/cart/add", app.address))
        .header("cookie", s.cookies())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(vec![0xff, 0xfe, 0x00, b'='])
        .send()
        .await
        .expect("answered");
    assert!(res.status().is_client_error(), "{}", res.status());
}

#[actix_rt::test]
async fn a_malformed_cart_cookie_is_refused_and_cleared_and_a_missing_one_needs_a_cart() {
    let app = spawn_app().await;
    let s = Shopper::new(&app).await;
    let cookies = format!("crumb={}; cart=../../etc/passwd", s.crumb_value());
    let res = post(&app, "/commerce/cart/add", &cookies, &[], &[("sku", "VER-HB-12OZ")]).await;
    assert_eq!(res.status(), 400);
    let cleared = set_cookie(&res, "cart").expect("the bad cookie is cleared");
    assert!(cleared.contains("Max-Age=0") || cleared.contains("Expires="), "{cleared}");
    assert!(res.text().await.expect("html").contains("Your cart cookie was not recognised"));

    for path in ["/commerce/cart/quantity", "/commerce/cart/remove", "/commerce/cart/shipping"] {
        let fields = [("sku", "VER-HB-12OZ"), ("quantity", "2"), ("optionId", "express")];
        let res = post(&app, path, &s.cookies(), &[], &fields).await;
        assert_eq!(res.status(), 400, "{path}");
        assert!(set_cookie(&res, "cart").is_none());
        assert!(res.text().await.expect("html").contains("Your cart could not be found."), "{path}");
    }
}

#[actix_rt::test]
async fn the_plain_cart_page_reads_empty_and_other_methods_get_405() {
    let app = spawn_app().await;
    let res = app.get("/commerce/cart").await;
    assert!(set_cookie(&res, "crumb").is_some(), "the page hands out a crumb for its forms");
    assert!(text_with_status(res, 200).await.contains("Your cart is empty."));
    let res = app.client.get(format!("{}/commerce/cart/add", app.address)).send().await.expect("answered");
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").and_then(|v| v.to_str().ok()), Some("POST"));
    let res = app.client.delete(format!("{}/commerce/cart", app.address)).send().await.expect("answered");
    assert_eq!(res.status(), 405);
}

#[actix_rt::test]
async fn product_lists_carry_the_quick_view_data_and_the_cart_page_renders_without_a_cart() {
    let app = spawn_app().await;
    let html = app.get("/shop").await.text().await.expect("html");
    let card = html.split("<article class=\"item-card\"").find(|c| c.contains("House blend")).expect("a card");
    assert!(card.starts_with(r#" data-island="quick-view" data-block-json=""#), "{card}");
    assert!(card.contains("&quot;url&quot;:&quot;/shop/house-blend&quot;"), "{card}");
    assert!(card.contains("&quot;images&quot;:[&quot;/images/beans.png&quot;]"));
    assert!(card.contains("&quot;sku&quot;:&quot;VER-HB-12OZ&quot;"));
    // Without a cart cookie the cart root shows the empty cart (the island replaces it).
    let cart = app.get("/cart").await.text().await.expect("html");
    let root = cart.split(r#"<div id="cart-root">"#).nth(1).expect("a cart root");
    assert!(root.contains(r#"<p class="cart__empty">Your cart is empty.</p>"#), "{cart}");
}

#[actix_rt::test]
async fn after_an_add_the_cart_page_says_so_with_a_link_to_the_cart_and_the_way_back() {
    let app = spawn_app().await;
    let mut s = shopper_with_blend(&app, 1).await;
    let html = s.get("/commerce/cart?added=1&from=%2Fshop%2Fhouse-blend").await.text().await.expect("html");
    assert!(
        html.contains(r#"<p class="notice cart__added" role="status">Added to cart. <a href="/commerce/cart">View your cart</a></p>"#),
        "{html}"
    );
    assert!(html.contains(r#"<a href="/shop/house-blend">Continue shopping</a>"#), "{html}");
    // Without the flag, no notice; a `from` off the site is never offered.
    let html = s.get("/commerce/cart").await.text().await.expect("html");
    assert!(!html.contains("Added to cart."), "{html}");
    for from in ["https%3A%2F%2Fevil.example%2F", "%2F%2Fevil.example", "javascript%3Aalert(1)"] {
        let html = s.get(&format!("/commerce/cart?added=1&from={from}")).await.text().await.expect("html");
        assert!(html.contains(r#"<a href="/">Continue shopping</a>"#), "{from}: {html}");
        assert!(!html.contains("evil.example") && !html.contains("javascript:"), "{from}: {html}");
    }
}

#[actix_rt::test]
async fn the_site_cart_page_renders_the_visitors_cart_in_its_cart_root() {
    let app = spawn_app().await;
    let mut s = Shopper::new(&app).await;
    // No cart yet: the cart root says the cart is empty.
    let res = s.get("/cart").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.expect("html");
    let root = html.split(r#"<div id="cart-root">"#).nth(1).expect("a cart root");
    assert!(root.contains("Your cart is empty."), "{root}");

    s.add("VER-HB-12OZ", 2).await;
    s.add("VER-GUIDE-PDF", 1).await;
    let res = s.get("/cart").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("private, no-cache"));
    let html = res.text().await.expect("html");
    assert_eq!(html.matches(r#"<div id="cart-root">"#).count(), 1);
    let root = html.split(r#"<div id="cart-root">"#).nth(1).expect("a cart root");
    // The plain cart page's rendering: a form for every change, each coming back to /cart.
    for needle in [
        r#"action="/commerce/cart/quantity""#,
        r#"action="/commerce/cart/remove""#,
        r#"action="/commerce/cart/shipping""#,
        r#"name="returnTo" value="/cart""#,
        &format!(r#"name="crumb" value="{}""#, s.crumb_value()),
        r#"aria-label="Remove The Veranda brewing guide (PDF)""#,
        r#"href="/commerce/goto-checkout""#,
    ] {
        assert!(root.contains(needle), "{needle} in {root}");
    }
    assert!(!root.contains("View and change your cart"), "the link is replaced by the cart: {root}");
    // The cart island still mounts on the same root.
    assert!(html.contains(r#"data-island="cart""#) || html.contains("data-block-type=\"cart\""), "{html}");

    // A change from /cart comes back to /cart, which shows it.
    let res = s
        .post_form("/commerce/cart/quantity", &[("sku", "VER-HB-12OZ"), ("quantity", "5"), ("returnTo", "/cart")])
        .await;
    assert_eq!((res.status().as_u16(), location(&res)), (303, "/cart"));
    let html = s.get("/cart").await.text().await.expect("html");
    assert!(html.contains(r#"value="5""#), "{html}");

    // Revalidation follows the cart: the ETag changes with it.
    let etag = |res: &reqwest::Response| res.headers().get("etag").and_then(|v| v.to_str().ok()).map(str::to_string);
    let before = etag(&s.get("/cart").await).expect("an etag");
    let same = s.app.get_with("/cart", &[("cookie", &s.cookies()), ("if-none-match", &before)]).await;
    assert_eq!(same.status(), 304);
    s.add("VER-HB-12OZ", 1).await;
    let changed = s.app.get_with("/cart", &[("cookie", &s.cookies()), ("if-none-match", &before)]).await;
    assert_eq!(changed.status(), 200, "a changed cart is not answered 304");

    // A browser asking for brotli gets the same filled page, compressed, and revalidates it.
    let res = s.app.get_with("/cart", &[("cookie", &s.cookies()), ("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(res.headers().get("content-encoding").and_then(|v| v.to_str().ok()), Some("br"));
    let tag = etag(&res).expect("an etag");
    let bytes = res.bytes().await.expect("body");
    let html = String::from_utf8(veranda_tests::codings::unbrotli(&bytes)).expect("UTF-8");
    assert!(html.contains(r#"value="6""#) && html.contains(r#"action="/commerce/cart/remove""#), "{html}");
    let headers = [("cookie", s.cookies()), ("accept-encoding", "br".into()), ("if-none-match", tag)];
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(s.app.get_with("/cart", &headers).await.status(), 304);

    // Other methods still reach the page routes (a post is an unlock attempt there).
    let res =
        app.client.post(format!("{}/cart", app.address)).form(&[("password", "x")]).send().await.expect("answered");
    assert_eq!(res.status(), 405);
    assert_eq!(res.text().await.expect("text"), "Published pages only answer GET and HEAD.");
}
