//! Clients that misbehave on purpose: forged addresses and headers, lockouts, floods,
//! checkout abuse, and reaching what their role or the page does not allow. One file per
//! topic.

mod cart_expiry;
mod checkout;
mod client_ip;
mod errors_stream;
mod files_streaming;
mod headers;
mod order_holds;
mod places;
mod private_forms;
mod sign_in;
mod store_defaults;
