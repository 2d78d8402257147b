//! Shopping carts: the record, the changes buyers make and totals (the actor that owns
//! each cart is [`crate::commerce::carts`]).
//!
//! ## Layout
//!
//! - [`model`]: [`ShoppingCart`] and [`CartEntry`], every field of the spec.
//! - [`change`]: [`CartChange`] and how each applies.
//! - [`totals`]: the totals recomputed after every change.
//! - [`error`]: [`CartError`], every refusal.

pub mod change;
pub mod error;
pub mod model;
pub mod totals;

#[cfg(test)]
mod tests;

pub use change::CartChange;
pub use error::CartError;
pub use model::{CartCoupon, CartEntry, ShoppingCart};
