//! Helpers of the commerce tests: a shopper (a visitor with a cart cookie) and a buyer.

use serde_json::Value;
use veranda_tests::{TestApp, Visitor};

/// A visitor of the shop: a crumb and, once the first change made one, a cart cookie.
pub type Shopper<'a> = Visitor<'a>;

/// What a shopper does besides calling the API.
pub trait Shopping {
    /// Adds `quantity` of `sku`, expecting 200; returns the cart.
    async fn add(&mut self, sku: &str, quantity: i64) -> Value;
    /// The cart id the shopper holds, once there is one.
    fn cart(&self) -> Option<String>;
    /// The crumb the shopper holds.
    fn crumb_value(&self) -> String;
}

impl Shopping for Shopper<'_> {
    async fn add(&mut self, sku: &str, quantity: i64) -> Value {
        let res =
            self.post("/api/commerce/cart/entries", &serde_json::json!({ "sku": sku, "quantity": quantity })).await;
        assert_eq!(res.status(), 200, "adding {sku}");
        res.json().await.expect("a cart")
    }

    fn cart(&self) -> Option<String> {
        self.cookie("cart").map(str::to_string)
    }

    fn crumb_value(&self) -> String {
        self.crumb().expect("the shopper holds a crumb").to_string()
    }
}

/// A new shopper with `quantity` of the demo's house blend (`VER-HB-12OZ`) in a new cart.
pub async fn shopper_with_blend(app: &TestApp, quantity: i64) -> Shopper<'_> {
    let mut s = Shopper::new(app).await;
    s.add("VER-HB-12OZ", quantity).await;
    s
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
