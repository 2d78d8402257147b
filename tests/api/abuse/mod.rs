//! Clients that misbehave on purpose: forged addresses and headers, lockouts, floods.
//! One file per topic.

mod client_ip;
mod headers;
mod sign_in;
