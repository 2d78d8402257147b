//! # Veranda actors and domain
//!
//! Everything here is free of actix-web: the server crate turns HTTP into calls on it.
//!
//! ## Layout
//!
//! - [`accounts`]: accounts and signed-in sessions.
//! - [`commerce`]: money, products' rules, carts, inventory and orders.
//! - [`domain`]: the shared enumerations of the spec.
//! - [`context`]: the page context every published page embeds.
//! - [`forms`]: form submissions read and checked against the site's forms.
//! - [`site`]: the site model, loaded and validated from a site directory.
//! - [`streams`]: the dashboard's live edit and error streams.
//! - [`store`]: the `Store` trait and its sled implementation with group commit.
//! - [`tables`]: in-memory tables bounded per client address and in total.
//! - [`telemetry`]: visitor telemetry: cookies, recording rules, error, trace and perf actors.
//! - [`typescript`]: generates the client's copy of the shared types.

pub mod accounts;
pub mod commerce;
pub mod context;
pub mod domain;
pub mod forms;
pub mod site;
#[cfg(test)]
mod spec_pins;
pub mod store;
pub mod streams;
pub mod tables;
pub mod telemetry;
#[cfg(test)]
mod test_metrics;
pub mod typescript;
