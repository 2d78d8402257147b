//! Clients that misbehave on purpose: forged addresses and headers, lockouts, floods, and
//! reaching what their role or the page does not allow. One file per topic.

mod client_ip;
mod errors_stream;
mod files_streaming;
mod headers;
mod places;
mod private_forms;
mod sign_in;
