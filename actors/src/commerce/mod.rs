//! Commerce: money, products' rules, carts, inventory and orders.
//!
//! - **`Cart`** (one actor per cart id) owns a shopping cart: entries, coupons,
//!   shipping choice and location, totals recomputed on every change, and the
//!   purchase. A change is answered only once the cart is durable. Idle carts stop
//!   and are rehydrated from storage on the next call.
//! - **`Inventory`** owns the stock of every counted variant and serialises stock
//!   changes, so concurrent checkouts never oversell.
//!
//! ## Layout
//!
//! - [`money`]: currencies, [`Money`](money::Money) and its formatting.
//! - [`product`]: workflow, sold out, prices and units of products.
//! - [`catalog`]: the site's sellable variants by SKU.
//! - [`rules`]: shipping options, tax rules, coupons and cart limits.
//! - [`cart`]: the shopping cart, its changes and totals.
//! - [`carts`]: the cart actor and its registry; [`carts::checkout`]: placing an order.
//! - [`inventory`]: the `Inventory` actor.
//! - [`holds`]: settling orders paid later (paid, cancelled, expired holds).
//! - [`order`]: orders and the payment-provider interface.
//! - [`storage`]: the storage trait carts, stock and orders are kept behind.
//! - [`redis_storage`]: the same in Redis, shared by several instances.
//! - [`subscription`]: renewal text of subscription plans.
//! - [`membership`]: joining a member area: a pricing option as a subscription entry.

pub mod cart;
pub mod carts;
pub mod catalog;
pub mod holds;
pub mod inventory;
pub mod membership;
pub mod money;
pub mod order;
pub mod product;
pub mod redis_storage;
pub mod rules;
pub mod storage;
pub mod subscription;
pub mod summary;

/// Now, in unix milliseconds.
pub fn now_ms() -> i64 {
    i64::try_from(time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}
