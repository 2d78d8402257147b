//! Clients that misbehave on purpose: forged addresses and headers, lockouts, floods,
//! checkout abuse, and reaching what their role or the page does not allow. One file per
//! topic.

mod cart_expiry;
mod checkout;
mod client_ip;
mod disk;
mod errors_stream;
mod files_streaming;
mod headers;
mod order_holds;
mod places;
mod private_forms;
mod rate_tables;
mod sign_in;
mod slow_bodies;
mod store_defaults;
mod tables;
mod telemetry_budget;
