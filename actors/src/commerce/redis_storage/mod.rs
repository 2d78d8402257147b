//! [`RedisStorage`]: carts, stock and orders in Redis, shared by every server instance
//! started with the same `--redis-url`.
//!
//! ## Keys
//!
//! Every key starts with `[redis] key_prefix` (default `veranda:`, written `{prefix}`
//! below; [`RedisStorage::with_key_prefix`]), so sites sharing one Redis stay apart.
//!
//! - `{prefix}cart:{id}`: a hash with `v` (the cart's version, starting at 1) and `d`
//!   (the cart as JSON). Every change is a compare-and-set on `v` ([`CART_CAS`]): the
//!   write lands only if nobody wrote since the version the change was applied to;
//!   otherwise the script answers with the current cart, and the writer re-applies its
//!   change to that and tries again.
//! - `{prefix}stock:{sku}`: units left of a counted variant. Seeded at start-up with
//!   `SET … NX` (the first instance to start wins; later ones keep the shared level).
//!   A reservation is one script ([`STOCK_RESERVE`]) over every line of an order:
//!   all lines are decremented, or none when one lacks units, so a level never goes
//!   below zero however many instances check out at once.
//! - `{prefix}checkout:{id}`: the claim of a cart being checked out ([`CHECKOUT_CLAIM`]),
//!   so two instances never check out one cart twice.
//! - `{prefix}order:{id}`: an order as JSON; `{prefix}orders` is a sorted set of order
//!   ids by creation time, for listings.
//! - A checkout is committed by one script ([`CHECKOUT_COMMIT`]): it takes the stock of
//!   every line, stores the order, adds it to `{prefix}orders` and writes the purchased
//!   cart with the order's id in the cart hash's `o` field, or does nothing at all. It
//!   checks everything before its first write (Redis does not undo the writes of a
//!   script that fails half way), so a failure leaves no order without its purchased
//!   cart and no stock taken without an order. Running it again for the same order
//!   finds `o` set to that order and changes nothing, so a commit whose answer was lost
//!   (a dropped connection) is simply retried.
//!
//! - An unpaid order is settled (paid, cancelled, its hold expired) by one script
//!   ([`ORDER_SETTLE`]) that writes the order only while it is still unpaid, so two
//!   instances never both return its stock.
//! - An open cart's hash expires `[commerce] cart_lifetime_secs` after its last write
//!   (`PEXPIRE` in the same step as the write); a purchased cart's lifetime is removed.

//! ## Durability
//!
//! A write is acknowledged once Redis has executed it. How much of that survives a
//! crash of Redis is Redis's persistence setting: with `appendonly yes` and
//! `appendfsync always` every acknowledged write is on disk; with the default
//! `appendfsync everysec` up to about one second of writes may be lost when the Redis
//! host loses power (a crash of the Redis process alone loses nothing); with no
//! persistence at all a Redis restart loses every cart, level and order. Production
//! deployments use `appendonly yes` with `appendfsync always` (see `docs/redis.md`).
//!
//! ## Failures
//!
//! Redis errors (refused connections, timeouts) are [`StoreError::Unavailable`](crate::store::StoreError::Unavailable), which
//! the HTTP layer answers with 503 and `Retry-After`. Every call is bounded by

mod scripts;
mod storage;

pub use scripts::{
    cas_outcome, commit_outcome, reservation_outcome, CART_CAS, CHECKOUT_COMMIT, ORDER_SETTLE, STOCK_RESERVE,
};
pub use storage::{redact, RedisStorage, CHECKOUT_CLAIM, POOL_SIZE, TIMEOUT};
