//! [`RedisStore`]: the [`Store`] on Redis, so several instances given the same
//! `--redis-url` share every tree.
//!
//! ## Keys
//!
//! Each tree has, under the `[redis] key_prefix` (default `veranda:`):
//! - `{prefix}store:{tree}:keys`: a sorted set of its keys, all at score 0, so Redis
//!   keeps them in byte order (as sled does) and `ZRANGEBYLEX … LIMIT` reads a range;
//! - `{prefix}store:{tree}:values`: a hash of its values by key;
//! - `{prefix}store:{tree}:bytes`: the bytes (keys and values) a telemetry tree holds,
//!   for the telemetry size bound.
//!
//! Every change, of one key or of a batch across trees, is one Lua script
//! ([`scripts::APPLY`]) that updates the set, the hash and the count together: Redis runs
//! a script whole, so a crash never leaves a key listed without its value nor a batch
//! half written. A scan is one script too ([`scripts::SCAN`]), and so is a
//! compare-and-swap ([`scripts::COMPARE_AND_SWAP`]): Redis runs no other command between
//! its read and its write, whichever instance sent it.
//!
//! ## Durability
//!
//! Durable trees: a write is acknowledged once Redis answered (on disk with
//! `appendfsync always`, which start-up checks; see [`durability`]) and, with
//! `[redis] wait_replicas` > 0, once `WAIT` says that many replicas have it. Telemetry
//! trees: the write is acknowledged at once and buffered ([`telemetry`]); a thread
//! writes the buffer at least every [`TELEMETRY_FLUSH_INTERVAL`](super::TELEMETRY_FLUSH_INTERVAL).
//!
//! ## Failures
//!
//! Every call is bounded ([`TIMEOUT`]); a Redis that does not answer is
//! [`StoreError::Unavailable`]. Redis Cluster is not supported (a batch touches keys of
//! several trees).
//!
//! ## Layout
//!
//! - `scripts`: the keys and the Lua scripts.
//! - `blocking`: the synchronous connections of the reads.
//! - `telemetry`: the telemetry buffer and its writer thread.
//! - [`durability`]: `[redis]` settings and the persistence check.

mod blocking;
pub mod durability;
mod scripts;
mod telemetry;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use deadpool_redis::Pool;

use self::blocking::{unavailable, BlockingPool};
use self::scripts::{apply_invocation, lex_bounds, pairs, slot, Change, TreeKeys};
use self::telemetry::TelemetryBuffer;
use super::metrics::StoreMetric;
use super::prefix_end;
use super::sizes::TreeSizes;
use super::{Durability, Entries, Store, StoreError, StoreFuture, Swap, Tree};

pub use durability::{Persistence, RedisSettings, DEFAULT_KEY_PREFIX};

/// How long one Redis call (or waiting for a connection) may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// Pooled async connections (durable writes).
const POOL_SIZE: usize = 16;
/// How long `flush` waits for the telemetry writer.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(10);

/// Every tree in Redis.
pub struct RedisStore {
    /// Async connections for durable writes.
    pool: Pool,
    /// Blocking connections for the synchronous reads.
    blocking: Arc<BlockingPool>,
    /// The keys of each tree, by [`Tree::ALL`]'s order.
    keys: Arc<Vec<TreeKeys>>,
    /// [`scripts::APPLY`].
    apply: redis::Script,
    /// [`scripts::SCAN`].
    scan: redis::Script,
    /// [`scripts::PUT_IF_ABSENT`].
    put_if_absent: redis::Script,
    /// [`scripts::COMPARE_AND_SWAP`].
    compare_and_swap: redis::Script,
    /// The telemetry trees' buffered writes.
    telemetry: TelemetryBuffer,
    /// The telemetry trees' byte counts, as last read from Redis.
    sizes: Arc<TreeSizes>,
    /// `[redis]`.
    settings: RedisSettings,
}

impl RedisStore {
    /// Connects to `url` and checks that Redis answers (`PING`). The error is a sentence
    /// for the operator.
    pub async fn connect(url: &str, settings: &RedisSettings) -> Result<RedisStore, String> {
        let client = redis::Client::open(url).map_err(|e| format!("not a Redis URL: {e}"))?;
        let pool = super::redis_pool::pool(url, POOL_SIZE, TIMEOUT)?;
        let keys: Arc<Vec<TreeKeys>> =
            Arc::new(Tree::ALL.iter().map(|t| TreeKeys::of(&settings.key_prefix, *t)).collect());
        let blocking = Arc::new(BlockingPool::new(client, TIMEOUT));
        let sizes = Arc::new(TreeSizes::default());
        timed(TIMEOUT, async {
            let mut conn = pool.get().await.map_err(unavailable)?;
            redis::cmd("PING").query_async::<String>(&mut conn).await.map_err(unavailable)?;
            for tree in Tree::ALL.into_iter().filter(|t| TreeSizes::counts(*t)) {
                let bytes: Option<u64> =
                    redis::cmd("GET").arg(&keys[slot(tree)].bytes).query_async(&mut conn).await.map_err(unavailable)?;
                sizes.set(tree, bytes.unwrap_or(0));
            }
            Ok(())
        })
        .await
        .map_err(|e| e.to_string())?;
        let telemetry =
            TelemetryBuffer::start(blocking.clone(), keys.clone(), sizes.clone()).map_err(|e| e.to_string())?;
        Ok(RedisStore {
            pool,
            blocking,
            keys,
            apply: redis::Script::new(scripts::APPLY),
            scan: redis::Script::new(scripts::SCAN),
            put_if_absent: redis::Script::new(scripts::PUT_IF_ABSENT),
            compare_and_swap: redis::Script::new(scripts::COMPARE_AND_SWAP),
            telemetry,
            sizes,
            settings: settings.clone(),
        })
    }

    /// How Redis keeps what it acknowledges (`CONFIG GET appendonly`, `appendfsync`).
    pub async fn persistence(&self) -> Persistence {
        let checked = timed(TIMEOUT, async {
            let mut conn = self.pool.get().await.map_err(unavailable)?;
            Ok(durability::persistence(&mut conn).await)
        })
        .await;
        checked.unwrap_or_else(|e| Persistence::Unchecked(e.to_string()))
    }

    /// Writes the buffered telemetry and stops its writer. Reads and durable writes keep
    /// working; telemetry writes are refused after. Closing twice is harmless.
    pub fn close(&self) {
        self.telemetry.close();
    }

    /// Applies `changes` now, acknowledged as a durable write.
    async fn write_through(&self, changes: &[Change]) -> Result<(), StoreError> {
        timed(self.durable_limit(), async {
            let mut conn = self.pool.get().await.map_err(unavailable)?;
            let invocation = apply_invocation(&self.apply, &self.keys, changes);
            invocation.invoke_async::<i64>(&mut conn).await.map_err(unavailable)?;
            self.confirm(&mut conn).await
        })
        .await
    }

    /// How long a durable write may take: one call, and the replicas' `WAIT`.
    fn durable_limit(&self) -> Duration {
        let replicas = self.settings.wait_replicas;
        TIMEOUT + if replicas > 0 { Duration::from_millis(self.settings.wait_timeout_ms) } else { Duration::ZERO }
    }

    /// With `[redis] wait_replicas` > 0, waits until that many replicas confirm the
    /// writes made so far on `conn`.
    async fn confirm(&self, conn: &mut deadpool_redis::Connection) -> Result<(), StoreError> {
        let (replicas, wait_ms) = (self.settings.wait_replicas, self.settings.wait_timeout_ms);
        if replicas == 0 {
            return Ok(());
        }
        let confirmed: i64 =
            redis::cmd("WAIT").arg(replicas).arg(wait_ms).query_async(conn).await.map_err(unavailable)?;
        if confirmed < i64::from(replicas) {
            return Err(StoreError::Unavailable(format!(
                "Redis: only {confirmed} of {replicas} replicas confirmed the write in {wait_ms} ms"
            )));
        }
        Ok(())
    }

    /// Writes `changes` of `tree`'s class: at once for durable trees, buffered for telemetry.
    async fn write(&self, tree: Tree, changes: Vec<Change>) -> Result<(), StoreError> {
        if changes.is_empty() {
            return Ok(());
        }
        count_writes(tree, changes.len());
        match tree.durability() {
            Durability::Durable => self.write_through(&changes).await,
            Durability::Telemetry => self.telemetry.push(changes),
        }
    }
}

/// Bounds `future` by `limit`.
async fn timed<T>(
    limit: Duration,
    future: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::time::timeout(limit, future).await.unwrap_or_else(|_| Err(unavailable("no answer in time")))
}

fn count_writes(tree: Tree, writes: usize) {
    let class = match tree.durability() {
        Durability::Durable => "durable",
        Durability::Telemetry => "telemetry",
    };
    metrics::counter!(StoreMetric::Writes.name(), "tree" => tree.name(), "class" => class).increment(writes as u64);
}

fn put_change(tree: Tree, key: &[u8], value: &[u8]) -> Change {
    Change { tree, key: key.to_vec(), value: Some(value.to_vec()) }
}

impl Store for RedisStore {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        if tree.durability() == Durability::Telemetry {
            if let Some(buffered) = self.telemetry.get(tree, key) {
                return Ok(buffered);
            }
        }
        let values = &self.keys[slot(tree)].values;
        self.blocking.run(|conn| redis::cmd("HGET").arg(values).arg(key).query(conn))
    }

    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(self.write(tree, vec![put_change(tree, key, value)]))
    }

    fn put_all<'a>(&'a self, tree: Tree, entries: &'a [(Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(self.write(tree, entries.iter().map(|(k, v)| put_change(tree, k, v)).collect()))
    }

    fn put_atomic<'a>(&'a self, writes: &'a [(Tree, Vec<u8>, Vec<u8>)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let changes: Vec<Change> = writes.iter().map(|(t, k, v)| put_change(*t, k, v)).collect();
            let Some(first) = changes.first().map(|c| c.tree) else { return Ok(()) };
            let durable = changes.iter().map(|c| c.tree).find(|t| t.durability() == Durability::Durable);
            let Some(durable) = durable else { return self.write(first, changes).await };
            if changes.iter().any(|c| c.tree.durability() == Durability::Telemetry) {
                // Buffered writes of the same keys go first, so this one lands last.
                self.flush().await?;
            }
            self.write(durable, changes).await
        })
    }

    fn put_if_absent<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, Vec<u8>> {
        if tree.durability() == Durability::Telemetry {
            return Box::pin(async move {
                if let Some(stored) = self.get(tree, key)? {
                    return Ok(stored);
                }
                self.put(tree, key, value).await?;
                Ok(value.to_vec())
            });
        }
        count_writes(tree, 1);
        let keys = &self.keys[slot(tree)];
        Box::pin(timed(self.durable_limit(), async move {
            let mut conn = self.pool.get().await.map_err(unavailable)?;
            let stored: Vec<u8> = self
                .put_if_absent
                .key(&keys.set)
                .key(&keys.values)
                .arg(key)
                .arg(value)
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable)?;
            self.confirm(&mut conn).await?;
            Ok(stored)
        }))
    }

    fn compare_and_swap<'a>(
        &'a self,
        tree: Tree,
        key: &'a [u8],
        expected: Option<&'a [u8]>,
        new: &'a [u8],
    ) -> StoreFuture<'a, Swap> {
        if tree.durability() == Durability::Telemetry {
            // Buffered trees compare against this instance's view (nothing read-modify-writes them).
            return Box::pin(async move {
                let current = self.get(tree, key)?;
                if current.as_deref() != expected {
                    return Ok(Swap::Conflict(current));
                }
                self.put(tree, key, new).await?;
                Ok(Swap::Swapped)
            });
        }
        let keys = &self.keys[slot(tree)];
        Box::pin(timed(self.durable_limit(), async move {
            let mut conn = self.pool.get().await.map_err(unavailable)?;
            let (written, present, current): (i64, i64, Vec<u8>) = self
                .compare_and_swap
                .key(&keys.set)
                .key(&keys.values)
                .arg(key)
                .arg(if expected.is_some() { "1" } else { "0" })
                .arg(expected.unwrap_or_default())
                .arg(new)
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable)?;
            if written != 1 {
                return Ok(Swap::Conflict((present == 1).then_some(current)));
            }
            count_writes(tree, 1);
            self.confirm(&mut conn).await?;
            Ok(Swap::Swapped)
        }))
    }

    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(self.write(tree, vec![Change { tree, key: key.to_vec(), value: None }]))
    }

    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Entries, StoreError> {
        self.scan_range(tree, prefix, prefix_end(prefix).as_deref(), limit)
    }

    fn scan_range(&self, tree: Tree, start: &[u8], end: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        if limit == 0 || end.is_some_and(|end| end <= start) {
            return Ok(Vec::new());
        }
        // The buffered writes are read before Redis: one that reaches Redis meanwhile
        // is then found in both, never in neither.
        let overlay = match tree.durability() {
            Durability::Telemetry => self.telemetry.overlay(tree, start, end),
            Durability::Durable => Vec::new(),
        };
        let (min, max) = lex_bounds(start, end);
        let wanted = i64::try_from(limit.saturating_add(overlay.len())).unwrap_or(i64::MAX);
        let keys = &self.keys[slot(tree)];
        let flat: Vec<Vec<u8>> = self
            .blocking
            .run(|conn| self.scan.key(&keys.set).key(&keys.values).arg(&min).arg(&max).arg(wanted).invoke(conn))?;
        let entries = pairs(flat);
        if overlay.is_empty() {
            return Ok(entries.into_iter().take(limit).collect());
        }
        let mut merged: BTreeMap<Vec<u8>, Vec<u8>> = entries.into_iter().collect();
        // Past the last key Redis returned (when it returned all it was asked for), a
        // buffered key may hide a stored one not read: stop there.
        let complete = merged.len() < usize::try_from(wanted).unwrap_or(usize::MAX);
        let last = merged.keys().next_back().cloned();
        for (key, value) in overlay {
            if !complete && last.as_ref().is_some_and(|last| &key > last) {
                continue;
            }
            match value {
                Some(value) => merged.insert(key, value),
                None => merged.remove(&key),
            };
        }
        Ok(merged.into_iter().take(limit).collect())
    }

    fn delete_all<'a>(&'a self, tree: Tree, keys: &'a [Vec<u8>]) -> StoreFuture<'a, ()> {
        Box::pin(self.write(tree, keys.iter().map(|k| Change { tree, key: k.clone(), value: None }).collect()))
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        Box::pin(telemetry::bounded(self.telemetry.flush(), FLUSH_TIMEOUT))
    }

    fn stored_bytes(&self, tree: Tree) -> Option<u64> {
        self.sizes.get(tree)
    }
}
