//! Helpers of the commerce tests: a crumb, a visitor with a cart cookie, form posts.

use serde_json::Value;
use veranda_tests::TestApp;

/// A crumb from the `crumb=` cookie the home page sets.
pub async fn crumb(app: &TestApp) -> String {
    let res = app.get("/").await;
    cookie_value(&res, "crumb").expect("the home page sets a crumb cookie")
}

/// The value of cookie `name` set by `res`.
pub fn cookie_value(res: &reqwest::Response, name: &str) -> Option<String> {
    let prefix = format!("{name}=");
    res.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        v.strip_prefix(prefix.as_str()).map(|rest| rest.split(';').next().unwrap_or_default().to_string())
    })
}

/// The whole `set-cookie` header of cookie `name`.
pub fn set_cookie(res: &reqwest::Response, name: &str) -> Option<String> {
    let prefix = format!("{name}=");
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(prefix.as_str()))
        .map(str::to_string)
}

/// A visitor: a crumb and, once the first change made one, a cart cookie.
pub struct Shopper<'a> {
    /// The app.
    pub app: &'a TestApp,
    /// The crumb (cookie and header).
    pub crumb: String,
    /// The cart id, once there is one.
    pub cart: Option<String>,
}

impl<'a> Shopper<'a> {
    /// A new visitor with a crumb and no cart.
    pub async fn new(app: &'a TestApp) -> Shopper<'a> {
        Shopper { app, crumb: crumb(app).await, cart: None }
    }

    /// The `Cookie` header: crumb and cart.
    pub fn cookies(&self) -> String {
        match &self.cart {
            Some(cart) => format!("crumb={}; cart={cart}", self.crumb),
            None => format!("crumb={}", self.crumb),
        }
    }

    /// Sends `method path` with a JSON body, crumb and cookies; keeps a new cart cookie.
    pub async fn send(&mut self, method: reqwest::Method, path: &str, body: Option<Value>) -> reqwest::Response {
        let mut req = self
            .app
            .client
            .request(method, format!("{}{path}", self.app.address))
            .header("cookie", self.cookies())
            .header("X-CSRF-Token", &self.crumb);
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await.expect("answered");
        if let Some(cart) = cookie_value(&res, "cart") {
            self.cart = Some(cart);
        }
        res
    }

    /// Adds `quantity` of `sku`, expecting 200; returns the cart.
    pub async fn add(&mut self, sku: &str, quantity: i64) -> Value {
        let res = self
            .send(
                reqwest::Method::POST,
                "/api/commerce/cart/entries",
                Some(serde_json::json!({ "sku": sku, "quantity": quantity })),
            )
            .await;
        assert_eq!(res.status(), 200, "adding {sku}");
        res.json().await.expect("a cart")
    }

    /// GETs `path` with the cookies.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.app.get_with(path, &[("cookie", &self.cookies())]).await
    }

    /// POSTs a form to `path` with the crumb field and the cookies.
    pub async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        let mut all: Vec<(&str, &str)> = vec![("crumb", self.crumb.as_str())];
        all.extend_from_slice(fields);
        self.app
            .client
            .post(format!("{}{path}", self.app.address))
            .header("cookie", self.cookies())
            .form(&all)
            .send()
            .await
            .expect("answered")
    }
}

/// The buyer's fields of a shipping order.
pub const BUYER: [(&str, &str); 7] = [
    ("email", "ada@example.com"),
    ("name", "Ada Lovelace"),
    ("addressLine1", "12 Linden Street"),
    ("city", "Riverton"),
    ("region", "NY"),
    ("postalCode", "10001"),
    ("country", "US"),
];
