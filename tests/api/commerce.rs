//! Commerce: the cart's JSON API, hostile input, checkout pages and orders.

mod cart;
mod checkout;
mod plain;
pub(crate) mod support;
