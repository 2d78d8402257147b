//! The ops listener: health probes and `/metrics`.

mod health;
mod metrics;
