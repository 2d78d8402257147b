//! [`RedisStorage`]: carts, stock and orders in Redis, shared by every server instance
//! started with the same `--redis-url`.
//!
//! ## Keys
//!
//! - `veranda:cart:{id}`: a hash with `v` (the cart's version, starting at 1) and `d`
//!   (the cart as JSON). Every change is a compare-and-set on `v` ([`CART_CAS`]): the
//!   write lands only if nobody wrote since the version the change was applied to;
//!   otherwise the script answers with the current cart, and the writer re-applies its
//!   change to that and tries again.
//! - `veranda:stock:{sku}`: units left of a counted variant. Seeded at start-up with
//!   `SET … NX` (the first instance to start wins; later ones keep the shared level).
//!   A reservation is one script ([`STOCK_RESERVE`]) over every line of an order:
//!   all lines are decremented, or none when one lacks units, so a level never goes
//!   below zero however many instances check out at once.
//! - `veranda:checkout:{id}`: the claim of a cart being checked out ([`CHECKOUT_CLAIM`]),
//!   so two instances never check out one cart twice.
//! - `veranda:order:{id}`: an order as JSON; `veranda:orders` is a sorted set of order
//!   ids by creation time, for listings.
//! - A checkout is committed by one script ([`CHECKOUT_COMMIT`]): it takes the stock of
//!   every line, stores the order, adds it to `veranda:orders` and writes the purchased
//!   cart with the order's id in the cart hash's `o` field, or does nothing at all. It
//!   checks everything before its first write (Redis does not undo the writes of a
//!   script that fails half way), so a failure leaves no order without its purchased
//!   cart and no stock taken without an order. Running it again for the same order
//!   finds `o` set to that order and changes nothing, so a commit whose answer was lost
//!   (a dropped connection) is simply retried.
//!
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
//! Redis errors (refused connections, timeouts) are [`StoreError::Unavailable`], which
//! the HTTP layer answers with 503 and `Retry-After`. Every call is bounded by
//! [`TIMEOUT`].

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use deadpool_redis::Pool;
use redis::Script;

use super::cart::ShoppingCart;
use super::order::Order;
use super::storage::{CartWrite, CheckoutCommit, CommerceStorage, CommitOutcome, Reservation, VersionedCart};
use crate::store::{StoreError, StoreFuture};

/// How long one Redis call (or waiting for a pooled connection) may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// Pooled connections per instance.
pub const POOL_SIZE: usize = 32;

/// Prefix of every key.
const PREFIX: &str = "veranda:";

/// Compare-and-set of a cart. `KEYS[1]` the cart hash, `KEYS[2]` its checkout claim,
/// `ARGV[1]` the version the change was applied to (0: the cart did not exist),
/// `ARGV[2]` the new JSON, `ARGV[3]` `1` for the write of the checkout holding the
/// claim. Answers `{1, new version, ""}` when written, `{2, 0, ""}` when a checkout
/// holds the cart, else `{0, current version, current JSON}`.
pub const CART_CAS: &str = r"
if ARGV[3] ~= '1' and redis.call('EXISTS', KEYS[2]) == 1 then
  return {2, 0, ''}
end
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then
  return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
end
current = current + 1
redis.call('HSET', KEYS[1], 'v', current, 'd', ARGV[2])
return {1, current, ''}
";

/// Takes units of every line or of none. `KEYS` the stock keys (distinct), `ARGV` the
/// units wanted of each. Answers `{1, level after, …}` (one level per key) when taken,
/// else `{0, index of the first short line (1-based), units it has}`. A missing key
/// has no units.
pub const STOCK_RESERVE: &str = r"
for i, key in ipairs(KEYS) do
  local have = tonumber(redis.call('GET', key) or '0')
  if have < tonumber(ARGV[i]) then
    return {0, i, have}
  end
end
local answer = {1}
for i, key in ipairs(KEYS) do
  answer[i + 1] = redis.call('DECRBY', key, ARGV[i])
end
return answer
";

/// Commits a checkout, all or nothing. `KEYS[1]` the cart hash, `KEYS[2]` the order,
/// `KEYS[3]` the order index, `KEYS[4…]` the stock keys (distinct); `ARGV[1]` the cart
/// version the order was made from, `ARGV[2]` the purchased cart's JSON, `ARGV[3]` the
/// order id, `ARGV[4]` the order's JSON, `ARGV[5]` its creation time (the index
/// score), `ARGV[6…]` the units of each stock key. Answers `{code, n, text, levels}`:
/// `{1, new cart version, '', levels after}` when committed; `{3, 0, '', {}}` when this
/// order was committed already; `{4, 0, other order id, {}}` when another order
/// purchased the cart; `{2, current version, '', {}}` when the cart changed since;
/// `{0, index of the first short line (1-based), '', {units it has}}` when a line lacks
/// stock. Nothing is written unless the answer is 1.
pub const CHECKOUT_COMMIT: &str = r"
local placed = redis.call('HGET', KEYS[1], 'o')
if placed then
  if placed == ARGV[3] then
    return {3, 0, '', {}}
  end
  return {4, 0, placed, {}}
end
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then
  return {2, current, '', {}}
end
for i = 4, #KEYS do
  local have = tonumber(redis.call('GET', KEYS[i]) or '0')
  if have < tonumber(ARGV[i + 2]) then
    return {0, i - 3, '', {have}}
  end
end
local levels = {}
for i = 4, #KEYS do
  levels[i - 3] = redis.call('DECRBY', KEYS[i], ARGV[i + 2])
end
redis.call('SET', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[3])
redis.call('HSET', KEYS[1], 'v', current + 1, 'd', ARGV[2], 'o', ARGV[3])
return {1, current + 1, '', levels}
";

/// Carts, stock levels and orders in Redis.
pub struct RedisStorage {
    /// Connections for the request paths.
    pool: Pool,
    /// One blocking connection for the synchronous reads of the [`CommerceStorage`]
    /// trait (start-up, order pages, listings), opened on first use.
    blocking: Mutex<Option<redis::Connection>>,
    /// Opens the blocking connection.
    client: redis::Client,
    /// The versioned cart write.
    cart_cas: Script,
    /// The stock reservation.
    stock_reserve: Script,
    /// The checkout commit.
    checkout_commit: Script,
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("Redis: {e}"))
}

fn unreadable(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(format!("a stored {what} record is unreadable: {e}"))
}

/// Bounds `future` by [`TIMEOUT`].
async fn timed<T>(future: impl std::future::Future<Output = Result<T, StoreError>>) -> Result<T, StoreError> {
    tokio::time::timeout(TIMEOUT, future).await.unwrap_or_else(|_| Err(unavailable("no answer in time")))
}

/// `url` with any password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    match rest.split_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_string(),
    }
}

impl RedisStorage {
    /// Connects to `url` and checks that Redis answers (`PING`). The error is a
    /// sentence for the operator.
    pub async fn connect(url: &str) -> Result<RedisStorage, String> {
        let client = redis::Client::open(url).map_err(|e| format!("not a Redis URL: {e}"))?;
        let pool = crate::store::redis_pool::pool(url, POOL_SIZE, TIMEOUT)?;
        let storage = RedisStorage {
            pool,
            blocking: Mutex::new(None),
            client,
            cart_cas: Script::new(CART_CAS),
            stock_reserve: Script::new(STOCK_RESERVE),
            checkout_commit: Script::new(CHECKOUT_COMMIT),
        };
        timed(async {
            let mut conn = storage.pool.get().await.map_err(unavailable)?;
            redis::cmd("PING").query_async::<String>(&mut conn).await.map_err(unavailable)
        })
        .await
        .map_err(|e| e.to_string())?;
        Ok(storage)
    }

    /// Sets the level of every SKU that has none yet (the first instance to start
    /// seeds the shared levels from the site; later ones keep them).
    pub async fn seed_stock(&self, levels: Vec<(String, u32)>) -> Result<(), StoreError> {
        if levels.is_empty() {
            return Ok(());
        }
        let pool = self.pool.clone();
        timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut pipe = redis::pipe();
            for (sku, level) in &levels {
                pipe.cmd("SET").arg(stock_key(sku)).arg(level).arg("NX").ignore();
            }
            pipe.query_async::<()>(&mut conn).await.map_err(unavailable)
        })
        .await
    }

    /// Runs `f` on the blocking connection, reopening it once if it failed.
    fn blocking<T>(&self, f: impl Fn(&mut redis::Connection) -> redis::RedisResult<T>) -> Result<T, StoreError> {
        let mut slot = self.blocking.lock().unwrap_or_else(PoisonError::into_inner);
        for _ in 0..2 {
            if slot.is_none() {
                let conn = self.client.get_connection_with_timeout(TIMEOUT).map_err(unavailable)?;
                conn.set_read_timeout(Some(TIMEOUT)).map_err(unavailable)?;
                conn.set_write_timeout(Some(TIMEOUT)).map_err(unavailable)?;
                *slot = Some(conn);
            }
            let Some(conn) = slot.as_mut() else { continue };
            match f(conn) {
                Ok(value) => return Ok(value),
                Err(e) if e.is_io_error() || e.is_connection_dropped() || e.is_timeout() => *slot = None,
                Err(e) => return Err(unavailable(e)),
            }
        }
        Err(unavailable("the connection failed twice"))
    }
}

fn cart_key(id: &str) -> String {
    format!("{PREFIX}cart:{id}")
}

fn stock_key(sku: &str) -> String {
    format!("{PREFIX}stock:{sku}")
}

fn checkout_key(id: &str) -> String {
    format!("{PREFIX}checkout:{id}")
}

/// How long a checkout claim lasts at most (every Redis call of a checkout is bounded
/// by [`TIMEOUT`], so a live checkout ends well before).
pub const CHECKOUT_CLAIM: Duration = Duration::from_secs(30);

fn order_key(id: &str) -> String {
    format!("{PREFIX}order:{id}")
}

const ORDERS_KEY: &str = "veranda:orders";

fn parse_cart(json: &str) -> Result<ShoppingCart, StoreError> {
    serde_json::from_str(json).map_err(|e| unreadable("cart", e))
}

/// The answer of [`CART_CAS`] as a [`CartWrite`].
pub fn cas_outcome(written: i64, version: u64, current: &str) -> Result<CartWrite, StoreError> {
    match written {
        1 => return Ok(CartWrite::Saved(version)),
        2 => return Ok(CartWrite::CheckingOut),
        _ => {}
    }
    if version == 0 || current.is_empty() {
        return Ok(CartWrite::Conflict(None));
    }
    Ok(CartWrite::Conflict(Some(Box::new(VersionedCart { cart: parse_cart(current)?, version }))))
}

/// The answer of [`STOCK_RESERVE`] for `lines` as a [`Reservation`].
pub fn reservation_outcome(lines: &[(String, u32)], answer: &[i64]) -> Result<Reservation, StoreError> {
    let level = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
    match answer {
        [1, levels @ ..] if levels.len() == lines.len() => {
            Ok(Reservation::Reserved(lines.iter().zip(levels).map(|((sku, _), n)| (sku.clone(), level(*n))).collect()))
        }
        [0, index, have] => {
            let sku = usize::try_from(*index - 1).ok().and_then(|i| lines.get(i)).map(|(sku, _)| sku.clone());
            let sku = sku.ok_or_else(|| unavailable("the stock script named no line"))?;
            Ok(Reservation::Short { sku, available: level(*have) })
        }
        _ => Err(unavailable(format!("unexpected answer from the stock script: {answer:?}"))),
    }
}

/// The answer of [`CHECKOUT_COMMIT`] for `lines` as a [`CommitOutcome`].
pub fn commit_outcome(
    lines: &[(String, u32)],
    code: i64,
    n: i64,
    text: String,
    levels: &[i64],
) -> Result<CommitOutcome, StoreError> {
    let level = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
    match code {
        1 if levels.len() == lines.len() => Ok(CommitOutcome::Committed(
            lines.iter().zip(levels).map(|((sku, _), n)| (sku.clone(), level(*n))).collect(),
        )),
        3 => Ok(CommitOutcome::AlreadyCommitted),
        4 => Ok(CommitOutcome::Purchased(text)),
        2 => Ok(CommitOutcome::Stale),
        0 => {
            let sku = usize::try_from(n - 1).ok().and_then(|i| lines.get(i)).map(|(sku, _)| sku.clone());
            let sku = sku.ok_or_else(|| unavailable("the checkout script named no line"))?;
            Ok(CommitOutcome::Short { sku, available: level(levels.first().copied().unwrap_or(0)) })
        }
        _ => Err(unavailable(format!("unexpected answer from the checkout script: {code} {n} {levels:?}"))),
    }
}

impl CommerceStorage for RedisStorage {
    fn load_cart(&self, id: &str) -> Result<Option<ShoppingCart>, StoreError> {
        let key = cart_key(id);
        let json: Option<String> = self.blocking(|conn| redis::cmd("HGET").arg(&key).arg("d").query(conn))?;
        json.map(|j| parse_cart(&j)).transpose()
    }

    fn save_cart(&self, cart: &ShoppingCart) -> StoreFuture<'static, ()> {
        // An unconditional write still moves the version on, so concurrent versioned
        // writers notice it.
        let pool = self.pool.clone();
        let key = cart_key(&cart.id);
        let json = serde_json::to_string(cart).map_err(|e| StoreError::Backend(format!("unserialisable cart: {e}")));
        Box::pin(timed(async move {
            let json = json?;
            let mut conn = pool.get().await.map_err(unavailable)?;
            redis::pipe()
                .atomic()
                .hset(&key, "d", json)
                .ignore()
                .hincr(&key, "v", 1)
                .ignore()
                .query_async::<()>(&mut conn)
                .await
                .map_err(unavailable)
        }))
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn load_cart_versioned(&self, id: &str) -> StoreFuture<'static, Option<VersionedCart>> {
        let pool = self.pool.clone();
        let key = cart_key(id);
        Box::pin(timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            let (version, json): (Option<u64>, Option<String>) =
                redis::cmd("HMGET").arg(&key).arg("v").arg("d").query_async(&mut conn).await.map_err(unavailable)?;
            match (version, json) {
                (Some(version), Some(json)) => Ok(Some(VersionedCart { cart: parse_cart(&json)?, version })),
                _ => Ok(None),
            }
        }))
    }

    fn save_cart_versioned(
        &self,
        cart: &ShoppingCart,
        expected: u64,
        checkout: bool,
    ) -> StoreFuture<'static, CartWrite> {
        let pool = self.pool.clone();
        let script = self.cart_cas.clone();
        let key = cart_key(&cart.id);
        let claim = checkout_key(&cart.id);
        let json = serde_json::to_string(cart).map_err(|e| StoreError::Backend(format!("unserialisable cart: {e}")));
        Box::pin(timed(async move {
            let json = json?;
            let mut conn = pool.get().await.map_err(unavailable)?;
            let (written, version, current): (i64, u64, String) = script
                .key(&key)
                .key(&claim)
                .arg(expected)
                .arg(json)
                .arg(if checkout { "1" } else { "0" })
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable)?;
            cas_outcome(written, version, &current)
        }))
    }

    fn load_stock(&self, sku: &str) -> Result<Option<u32>, StoreError> {
        let key = stock_key(sku);
        let level: Option<i64> = self.blocking(|conn| redis::cmd("GET").arg(&key).query(conn))?;
        Ok(level.map(|n| u32::try_from(n.max(0)).unwrap_or(u32::MAX)))
    }

    fn save_stock(&self, levels: Vec<(String, u32)>) -> StoreFuture<'static, ()> {
        let pool = self.pool.clone();
        Box::pin(timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut pipe = redis::pipe();
            pipe.atomic();
            for (sku, level) in &levels {
                pipe.set(stock_key(sku), level).ignore();
            }
            pipe.query_async::<()>(&mut conn).await.map_err(unavailable)
        }))
    }

    fn reserve_stock(&self, lines: Vec<(String, u32)>) -> Option<StoreFuture<'static, Reservation>> {
        let pool = self.pool.clone();
        let script = self.stock_reserve.clone();
        Some(Box::pin(timed(async move {
            if lines.is_empty() {
                return Ok(Reservation::Reserved(Vec::new()));
            }
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut invocation = script.prepare_invoke();
            for (sku, quantity) in &lines {
                invocation.key(stock_key(sku)).arg(*quantity);
            }
            let answer: Vec<i64> = invocation.invoke_async(&mut conn).await.map_err(unavailable)?;
            reservation_outcome(&lines, &answer)
        })))
    }

    fn release_stock(&self, lines: Vec<(String, u32)>) -> Option<StoreFuture<'static, Vec<(String, u32)>>> {
        let pool = self.pool.clone();
        Some(Box::pin(timed(async move {
            if lines.is_empty() {
                return Ok(Vec::new());
            }
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut pipe = redis::pipe();
            pipe.atomic();
            for (sku, quantity) in &lines {
                pipe.incr(stock_key(sku), *quantity);
            }
            let levels: Vec<i64> = pipe.query_async(&mut conn).await.map_err(unavailable)?;
            Ok(lines
                .iter()
                .zip(levels)
                .map(|((sku, _), n)| (sku.clone(), u32::try_from(n.max(0)).unwrap_or(u32::MAX)))
                .collect())
        })))
    }

    fn commit_checkout(&self, commit: &CheckoutCommit) -> Option<StoreFuture<'static, CommitOutcome>> {
        let pool = self.pool.clone();
        let script = self.checkout_commit.clone();
        let json =
            serde_json::to_string(&commit.cart).and_then(|cart| Ok((cart, serde_json::to_string(&commit.order)?)));
        let json = json.map_err(|e| StoreError::Backend(format!("unserialisable checkout: {e}")));
        let (cart_id, order_id, created) = (commit.cart.id.clone(), commit.order.id.clone(), commit.order.created);
        let (expected, lines) = (commit.expected, commit.lines.clone());
        Some(Box::pin(timed(async move {
            let (cart, order) = json?;
            let mut invocation = script.prepare_invoke();
            invocation.key(cart_key(&cart_id)).key(order_key(&order_id)).key(ORDERS_KEY);
            invocation.arg(expected).arg(cart).arg(&order_id).arg(order).arg(created);
            for (sku, units) in &lines {
                invocation.key(stock_key(sku)).arg(*units);
            }
            let mut conn = pool.get().await.map_err(unavailable)?;
            let (code, n, text, levels): (i64, i64, String, Vec<i64>) =
                invocation.invoke_async(&mut conn).await.map_err(unavailable)?;
            commit_outcome(&lines, code, n, text, &levels)
        })))
    }

    fn claim_checkout(&self, id: &str) -> StoreFuture<'static, bool> {
        let pool = self.pool.clone();
        let key = checkout_key(id);
        Box::pin(timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            let millis = u64::try_from(CHECKOUT_CLAIM.as_millis()).unwrap_or(u64::MAX);
            let set: Option<String> = redis::cmd("SET")
                .arg(&key)
                .arg(1)
                .arg("NX")
                .arg("PX")
                .arg(millis)
                .query_async(&mut conn)
                .await
                .map_err(unavailable)?;
            Ok(set.is_some())
        }))
    }

    fn end_checkout(&self, id: &str) -> StoreFuture<'static, ()> {
        let pool = self.pool.clone();
        let key = checkout_key(id);
        Box::pin(timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            redis::cmd("DEL").arg(&key).query_async::<()>(&mut conn).await.map_err(unavailable)
        }))
    }

    fn load_order(&self, id: &str) -> Result<Option<Order>, StoreError> {
        let key = order_key(id);
        let json: Option<String> = self.blocking(|conn| redis::cmd("GET").arg(&key).query(conn))?;
        json.map(|j| serde_json::from_str(&j).map_err(|e| unreadable("order", e))).transpose()
    }

    fn save_order(&self, order: &Order) -> StoreFuture<'static, ()> {
        let pool = self.pool.clone();
        let id = order.id.clone();
        let created = order.created;
        let json = serde_json::to_string(order).map_err(|e| StoreError::Backend(format!("unserialisable order: {e}")));
        Box::pin(timed(async move {
            let json = json?;
            let mut conn = pool.get().await.map_err(unavailable)?;
            redis::pipe()
                .atomic()
                .set(order_key(&id), json)
                .ignore()
                .zadd(ORDERS_KEY, &id, created)
                .ignore()
                .query_async::<()>(&mut conn)
                .await
                .map_err(unavailable)
        }))
    }

    fn orders(&self, limit: usize) -> Result<Vec<Order>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let last = isize::try_from(limit).unwrap_or(isize::MAX) - 1;
        let ids: Vec<String> =
            self.blocking(|conn| redis::cmd("ZRANGE").arg(ORDERS_KEY).arg(0).arg(last).query(conn))?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|id| order_key(id)).collect();
        let records: Vec<Option<String>> = self.blocking(|conn| redis::cmd("MGET").arg(&keys).query(conn))?;
        Ok(records.into_iter().flatten().filter_map(|j| serde_json::from_str(&j).ok()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_passwords_only() {
        assert_eq!(redact("redis://127.0.0.1:6379/0"), "redis://127.0.0.1:6379/0");
        assert_eq!(redact("redis://user:secret@host:6379"), "redis://user:***@host:6379");
        assert_eq!(redact("redis://:secret@host"), "redis://:***@host");
        assert_eq!(redact("not a url"), "not a url");
    }

    #[test]
    fn reservation_outcomes() {
        let lines = vec![("A".to_string(), 2), ("B".to_string(), 1)];
        assert_eq!(
            reservation_outcome(&lines, &[1, 3, 0]).unwrap(),
            Reservation::Reserved(vec![("A".into(), 3), ("B".into(), 0)])
        );
        assert_eq!(
            reservation_outcome(&lines, &[0, 2, 0]).unwrap(),
            Reservation::Short { sku: "B".into(), available: 0 }
        );
        assert!(reservation_outcome(&lines, &[0, 9, 0]).is_err());
        assert!(reservation_outcome(&lines, &[1, 3]).is_err());
        assert!(reservation_outcome(&lines, &[]).is_err());
    }

    #[test]
    fn commit_outcomes() {
        let lines = vec![("A".to_string(), 2), ("B".to_string(), 1)];
        let outcome = |code, n, text: &str, levels: &[i64]| commit_outcome(&lines, code, n, text.to_string(), levels);
        assert_eq!(
            outcome(1, 5, "", &[3, 0]).unwrap(),
            CommitOutcome::Committed(vec![("A".into(), 3), ("B".into(), 0)])
        );
        assert_eq!(outcome(3, 0, "", &[]).unwrap(), CommitOutcome::AlreadyCommitted);
        assert_eq!(outcome(4, 0, "o1", &[]).unwrap(), CommitOutcome::Purchased("o1".into()));
        assert_eq!(outcome(2, 7, "", &[]).unwrap(), CommitOutcome::Stale);
        assert_eq!(outcome(0, 2, "", &[0]).unwrap(), CommitOutcome::Short { sku: "B".into(), available: 0 });
        assert!(outcome(0, 3, "", &[0]).is_err(), "no third line");
        assert!(outcome(1, 5, "", &[3]).is_err(), "a level per line");
        assert!(outcome(9, 0, "", &[]).is_err());
    }

    #[test]
    fn cas_outcomes() {
        assert_eq!(cas_outcome(1, 4, "").unwrap(), CartWrite::Saved(4));
        assert_eq!(cas_outcome(2, 0, "").unwrap(), CartWrite::CheckingOut);
        assert_eq!(cas_outcome(0, 0, "").unwrap(), CartWrite::Conflict(None));
        let cart = ShoppingCart::new("c1", "w", Default::default(), 1);
        let json = serde_json::to_string(&cart).unwrap();
        assert_eq!(
            cas_outcome(0, 7, &json).unwrap(),
            CartWrite::Conflict(Some(Box::new(VersionedCart { cart, version: 7 })))
        );
        assert!(cas_outcome(0, 7, "{not json").is_err());
    }
}
