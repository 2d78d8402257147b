//! Shopping carts: the record, the changes buyers make, totals, and the actor that
//! owns each cart.
//!
//! ## Layout
//!
//! - [`model`]: [`ShoppingCart`] and [`CartEntry`], every field of the spec.
//! - [`change`]: [`CartChange`] and how each applies.
//! - [`totals`]: the totals recomputed after every change.
//! - [`actor`]: the [`Cart`] actor (one per cart id) and the [`Carts`] registry.
//! - [`error`]: [`CartError`], every refusal.

pub mod actor;
pub mod change;
pub mod error;
pub mod model;
pub mod totals;

#[cfg(test)]
mod tests;

pub use actor::{Cart, CartShared, Carts};
pub use change::CartChange;
pub use error::CartError;
pub use model::{CartCoupon, CartEntry, ShoppingCart};
