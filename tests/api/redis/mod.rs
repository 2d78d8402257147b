//! Every tree in Redis (`--redis-url`): the store contract against sled and Redis, and
//! several `veranda serve` processes sharing one `redis-server`.
//!
//! Needs `redis-server` and `redis-cli` on the `PATH`; without them each Redis test says
//! so loudly and passes without checking.

mod concurrent_edits;
mod nginx;
mod startup;
mod store_contract;
mod two_instances;
