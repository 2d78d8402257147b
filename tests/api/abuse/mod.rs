//! What an anonymous client that misbehaves on purpose cannot do: one file per topic.

mod checkout;
mod store_defaults;
