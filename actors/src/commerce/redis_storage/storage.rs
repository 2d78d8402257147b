//! [`RedisStorage`]: the pooled and blocking connections, the keys, and the
//! [`CommerceStorage`] calls, each bounded by [`TIMEOUT`].

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use deadpool_redis::Pool;
use redis::Script;

use super::scripts::{
    cas_outcome, commit_outcome, parse_cart, reservation_outcome, unavailable, unreadable, CART_CAS, CHECKOUT_COMMIT,
    ORDER_SETTLE, STOCK_RESERVE,
};
use crate::commerce::cart::ShoppingCart;
use crate::commerce::order::Order;
use crate::commerce::storage::{CartWrite, CheckoutCommit, CommerceStorage, CommitOutcome, Reservation, VersionedCart};
use crate::store::redis_store::DEFAULT_KEY_PREFIX;
use crate::store::{StoreError, StoreFuture};

/// How long one Redis call (or waiting for a pooled connection) may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// Pooled connections per instance.
pub const POOL_SIZE: usize = 32;

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
    /// The settlement of an unpaid order.
    order_settle: Script,
    /// How long an open cart lives after its last change, in ms (0: for ever).
    cart_lifetime_ms: u64,
    /// Put before every key (`[redis] key_prefix`), so sites sharing one Redis stay apart.
    prefix: String,
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
            order_settle: Script::new(ORDER_SETTLE),
            cart_lifetime_ms: 0,
            prefix: DEFAULT_KEY_PREFIX.to_string(),
        };
        timed(async {
            let mut conn = storage.pool.get().await.map_err(unavailable)?;
            redis::cmd("PING").query_async::<String>(&mut conn).await.map_err(unavailable)
        })
        .await
        .map_err(|e| e.to_string())?;
        Ok(storage)
    }

    /// This storage with open carts expiring `lifetime` after their last change (a
    /// key lifetime Redis enforces by itself; a purchased cart is kept).
    pub fn with_cart_lifetime(mut self, lifetime: Duration) -> RedisStorage {
        self.cart_lifetime_ms = u64::try_from(lifetime.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// This storage with every key under `prefix` (`[redis] key_prefix`) instead of the
    /// default `veranda:`.
    pub fn with_key_prefix(mut self, prefix: &str) -> RedisStorage {
        self.prefix = prefix.to_string();
        self
    }

    /// The lifetime in ms to give `cart` when writing it (0: none).
    fn lifetime_of(&self, cart: &ShoppingCart) -> u64 {
        if cart.is_purchased {
            0
        } else {
            self.cart_lifetime_ms
        }
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
                pipe.cmd("SET").arg(self.stock_key(sku)).arg(level).arg("NX").ignore();
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

impl RedisStorage {
    fn cart_key(&self, id: &str) -> String {
        format!("{}cart:{id}", self.prefix)
    }

    fn stock_key(&self, sku: &str) -> String {
        format!("{}stock:{sku}", self.prefix)
    }

    fn checkout_key(&self, id: &str) -> String {
        format!("{}checkout:{id}", self.prefix)
    }

    fn order_key(&self, id: &str) -> String {
        format!("{}order:{id}", self.prefix)
    }

    /// The sorted set of order ids by creation time.
    fn orders_key(&self) -> String {
        format!("{}orders", self.prefix)
    }
}

/// How long a checkout claim lasts at most (every Redis call of a checkout is bounded
/// by [`TIMEOUT`], so a live checkout ends well before).
pub const CHECKOUT_CLAIM: Duration = Duration::from_secs(30);

impl CommerceStorage for RedisStorage {
    fn load_cart(&self, id: &str) -> Result<Option<ShoppingCart>, StoreError> {
        let key = self.cart_key(id);
        let json: Option<String> = self.blocking(|conn| redis::cmd("HGET").arg(&key).arg("d").query(conn))?;
        json.map(|j| parse_cart(&j)).transpose()
    }

    fn save_cart(&self, cart: &ShoppingCart) -> StoreFuture<'static, ()> {
        // An unconditional write still moves the version on, so concurrent versioned
        // writers notice it.
        let pool = self.pool.clone();
        let key = self.cart_key(&cart.id);
        let lifetime = self.lifetime_of(cart);
        let json = serde_json::to_string(cart).map_err(|e| StoreError::Backend(format!("unserialisable cart: {e}")));
        Box::pin(timed(async move {
            let json = json?;
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut pipe = redis::pipe();
            pipe.atomic().hset(&key, "d", json).ignore().hincr(&key, "v", 1).ignore();
            if lifetime > 0 {
                pipe.pexpire(&key, i64::try_from(lifetime).unwrap_or(i64::MAX)).ignore();
            } else {
                pipe.persist(&key).ignore();
            }
            pipe.query_async::<()>(&mut conn).await.map_err(unavailable)
        }))
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn load_cart_versioned(&self, id: &str) -> StoreFuture<'static, Option<VersionedCart>> {
        let pool = self.pool.clone();
        let key = self.cart_key(id);
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
        let key = self.cart_key(&cart.id);
        let claim = self.checkout_key(&cart.id);
        let lifetime = self.lifetime_of(cart);
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
                .arg(lifetime)
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable)?;
            cas_outcome(written, version, &current)
        }))
    }

    fn load_stock(&self, sku: &str) -> Result<Option<u32>, StoreError> {
        let key = self.stock_key(sku);
        let level: Option<i64> = self.blocking(|conn| redis::cmd("GET").arg(&key).query(conn))?;
        Ok(level.map(|n| u32::try_from(n.max(0)).unwrap_or(u32::MAX)))
    }

    fn save_stock(&self, levels: Vec<(String, u32)>) -> StoreFuture<'static, ()> {
        let pool = self.pool.clone();
        let levels: Vec<(String, u32)> = levels.into_iter().map(|(sku, level)| (self.stock_key(&sku), level)).collect();
        Box::pin(timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut pipe = redis::pipe();
            pipe.atomic();
            for (key, level) in &levels {
                pipe.set(key, level).ignore();
            }
            pipe.query_async::<()>(&mut conn).await.map_err(unavailable)
        }))
    }

    fn reserve_stock(&self, lines: Vec<(String, u32)>) -> Option<StoreFuture<'static, Reservation>> {
        let pool = self.pool.clone();
        let script = self.stock_reserve.clone();
        let keys: Vec<String> = lines.iter().map(|(sku, _)| self.stock_key(sku)).collect();
        Some(Box::pin(timed(async move {
            if lines.is_empty() {
                return Ok(Reservation::Reserved(Vec::new()));
            }
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut invocation = script.prepare_invoke();
            for (key, (_, quantity)) in keys.iter().zip(&lines) {
                invocation.key(key).arg(*quantity);
            }
            let answer: Vec<i64> = invocation.invoke_async(&mut conn).await.map_err(unavailable)?;
            reservation_outcome(&lines, &answer)
        })))
    }

    fn release_stock(&self, lines: Vec<(String, u32)>) -> Option<StoreFuture<'static, Vec<(String, u32)>>> {
        let pool = self.pool.clone();
        let keys: Vec<String> = lines.iter().map(|(sku, _)| self.stock_key(sku)).collect();
        Some(Box::pin(timed(async move {
            if lines.is_empty() {
                return Ok(Vec::new());
            }
            let mut conn = pool.get().await.map_err(unavailable)?;
            let mut pipe = redis::pipe();
            pipe.atomic();
            for (key, (_, quantity)) in keys.iter().zip(&lines) {
                pipe.incr(key, *quantity);
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
        let keys = [self.cart_key(&cart_id), self.order_key(&order_id), self.orders_key()];
        let stock_keys: Vec<String> = lines.iter().map(|(sku, _)| self.stock_key(sku)).collect();
        Some(Box::pin(timed(async move {
            let (cart, order) = json?;
            let mut invocation = script.prepare_invoke();
            invocation.key(&keys[0]).key(&keys[1]).key(&keys[2]);
            invocation.arg(expected).arg(cart).arg(&order_id).arg(order).arg(created);
            for (key, (_, units)) in stock_keys.iter().zip(&lines) {
                invocation.key(key).arg(*units);
            }
            let mut conn = pool.get().await.map_err(unavailable)?;
            let (code, n, text, levels): (i64, i64, String, Vec<i64>) =
                invocation.invoke_async(&mut conn).await.map_err(unavailable)?;
            commit_outcome(&lines, code, n, text, &levels)
        })))
    }

    fn claim_checkout(&self, id: &str) -> StoreFuture<'static, bool> {
        let pool = self.pool.clone();
        let key = self.checkout_key(id);
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
        let key = self.checkout_key(id);
        Box::pin(timed(async move {
            let mut conn = pool.get().await.map_err(unavailable)?;
            redis::cmd("DEL").arg(&key).query_async::<()>(&mut conn).await.map_err(unavailable)
        }))
    }

    fn load_order(&self, id: &str) -> Result<Option<Order>, StoreError> {
        let key = self.order_key(id);
        let json: Option<String> = self.blocking(|conn| redis::cmd("GET").arg(&key).query(conn))?;
        json.map(|j| serde_json::from_str(&j).map_err(|e| unreadable("order", e))).transpose()
    }

    fn save_order(&self, order: &Order) -> StoreFuture<'static, ()> {
        let pool = self.pool.clone();
        let id = order.id.clone();
        let created = order.created;
        let (order_key, orders_key) = (self.order_key(&id), self.orders_key());
        let json = serde_json::to_string(order).map_err(|e| StoreError::Backend(format!("unserialisable order: {e}")));
        Box::pin(timed(async move {
            let json = json?;
            let mut conn = pool.get().await.map_err(unavailable)?;
            redis::pipe()
                .atomic()
                .set(&order_key, json)
                .ignore()
                .zadd(&orders_key, &id, created)
                .ignore()
                .query_async::<()>(&mut conn)
                .await
                .map_err(unavailable)
        }))
    }

    fn settle_order(&self, settled: &Order) -> StoreFuture<'static, bool> {
        let pool = self.pool.clone();
        let script = self.order_settle.clone();
        let key = self.order_key(&settled.id);
        let json =
            serde_json::to_string(settled).map_err(|e| StoreError::Backend(format!("unserialisable order: {e}")));
        Box::pin(timed(async move {
            let json = json?;
            let mut conn = pool.get().await.map_err(unavailable)?;
            let written: i64 = script.key(&key).arg(json).invoke_async(&mut conn).await.map_err(unavailable)?;
            Ok(written == 1)
        }))
    }

    fn orders(&self, limit: usize) -> Result<Vec<Order>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let last = isize::try_from(limit).unwrap_or(isize::MAX) - 1;
        let orders_key = self.orders_key();
        let ids: Vec<String> =
            self.blocking(|conn| redis::cmd("ZRANGE").arg(&orders_key).arg(0).arg(last).query(conn))?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|id| self.order_key(id)).collect();
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
}
