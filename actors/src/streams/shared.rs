//! [`SharedLog`]: one stream's history in Redis, shared by every instance started with the
//! same `--redis-url`, and the follower that feeds each instance's [`Broadcaster`](super::Broadcaster) from it.
//!
//! ## Keys
//!
//! Under `[redis] key_prefix` (default `veranda:`, written `{prefix}`), so sites sharing
//! one Redis keep apart streams:
//!
//! - `{prefix}stream:{name}:epoch`: the stream's epoch. Set (`SET … NX`) by the first
//!   instance to start, or by the first publish after Redis lost its data.
//! - `{prefix}stream:{name}:head`: the latest offset (`INCR` per event).
//! - `{prefix}stream:{name}:log`: a Redis Stream of the latest events, trimmed to
//!   `history_events` (`MAXLEN`); entry id `0-{offset}`, fields `epoch`, `at`, `data` (JSON).
//!
//! Publishing is one script ([`PUBLISH`]): it numbers the event with `INCR` and appends it
//! to the log, so offsets are the same on every instance and never skip or repeat.
//!
//! ## Following
//!
//! Each instance runs one follower per stream on a dedicated connection: `XREAD BLOCK`
//! from the last offset it delivered, each entry handed to the local broadcaster as a
//! [`Relay`] (which keeps it in the in-memory history and fans it out). The follower is
//! the only writer of that history, so every instance's history mirrors the log and a
//! client may resume on any instance. When the follower finds another epoch (Redis lost
//! its data) or a gap (it fell further behind than the log keeps) it reloads the history
//! from Redis and the broadcaster sends its clients a `reset` ([`Rebase`]).
//!
//! ## Failures
//!
//! Every call is bounded by [`TIMEOUT`]. A publish that fails returns
//! [`StoreError::Unavailable`]; after a failure publishes fail at once for [`PAUSE_AFTER_FAILURE`]
//! so edits never queue behind a Redis that does not answer. A follower that loses its
//! connection reconnects with a growing pause (at most 5 s) and catches up from its last
//! offset.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use deadpool_redis::Pool;
use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Script};

use super::event::{ResetReason, StoredEvent, StreamName};
use super::history::History;
use super::journal::Journal;
use super::limits::StreamLimits;
use super::metrics;
use super::relay::{FollowedHub, Rebase, Relay};
use crate::store::StoreError;
use crate::telemetry::records::now_ms;

/// How long one Redis call (or waiting for a pooled connection) may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// How long publishes fail at once after one failed.
pub const PAUSE_AFTER_FAILURE: Duration = Duration::from_secs(5);
/// How long one `XREAD` waits for new entries before the follower checks the epoch.
const BLOCK: Duration = Duration::from_secs(2);
/// Most entries read by one `XREAD`.
const READ_BATCH: usize = 256;
/// Pooled connections per stream for publishing and loading.
const POOL_SIZE: usize = 4;

/// Numbers and appends one event. `KEYS[1]` the epoch, `KEYS[2]` the head, `KEYS[3]` the
/// log; `ARGV[1]` the epoch to start when none is set, `ARGV[2]` the most entries kept,
/// `ARGV[3]` the time (unix ms), `ARGV[4]` the event as JSON. Answers `{epoch, offset}`.
pub const PUBLISH: &str = r"
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[1]
  redis.call('SET', KEYS[1], epoch)
  redis.call('DEL', KEYS[2], KEYS[3])
end
local offset = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[3], 'MAXLEN', ARGV[2], '0-' .. offset, 'epoch', epoch, 'at', ARGV[3], 'data', ARGV[4])
return {epoch, offset}
";

/// One entry of the log as Redis answers it: its id and its fields, flat.
type Entry = (String, Vec<String>);

/// One stream's history in Redis.
pub struct SharedLog {
    /// The stream.
    stream: StreamName,
    /// Connections for publishing and loading.
    pool: Pool,
    /// Opens the follower's dedicated connection.
    client: redis::Client,
    /// The publish script.
    publish: Script,
    /// `{prefix}stream:{name}:epoch`.
    epoch_key: String,
    /// `{prefix}stream:{name}:head`.
    head_key: String,
    /// `{prefix}stream:{name}:log`.
    log_key: String,
    /// Most entries the log keeps.
    max_len: usize,
    /// Publishes fail at once until this time (unix ms).
    paused_until: AtomicU64,
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("Redis: {e}"))
}

/// Bounds `future` by [`TIMEOUT`].
async fn timed<T>(future: impl std::future::Future<Output = Result<T, StoreError>>) -> Result<T, StoreError> {
    tokio::time::timeout(TIMEOUT, future).await.unwrap_or_else(|_| Err(unavailable("no answer in time")))
}

impl SharedLog {
    /// The log of `stream` in the Redis at `url`, its keys under `prefix` (`[redis]
    /// key_prefix`); no connection is made yet.
    pub fn open(url: &str, prefix: &str, stream: StreamName, limits: &StreamLimits) -> Result<SharedLog, String> {
        let client = redis::Client::open(url).map_err(|e| format!("not a Redis URL: {e}"))?;
        let pool = crate::store::redis_pool::pool(url, POOL_SIZE, TIMEOUT)?;
        let key = |suffix: &str| format!("{prefix}stream:{}:{suffix}", stream.as_str());
        Ok(SharedLog {
            stream,
            pool,
            client,
            publish: Script::new(PUBLISH),
            epoch_key: key("epoch"),
            head_key: key("head"),
            log_key: key("log"),
            max_len: limits.history_events.max(1),
            paused_until: AtomicU64::new(0),
        })
    }

    /// The stream.
    pub fn stream(&self) -> StreamName {
        self.stream
    }

    /// Numbers `data` (published at `at`) in Redis and appends it to the log; its
    /// `(epoch, offset)`. Every instance's follower then delivers it.
    pub async fn publish(&self, data: &serde_json::Value, at: u64) -> Result<(String, u64), StoreError> {
        if now_ms() < self.paused_until.load(Ordering::Relaxed) {
            metrics::shared_failure(self.stream, metrics::PUBLISH);
            return Err(unavailable("paused after a failure"));
        }
        let json = serde_json::to_string(data).map_err(|e| StoreError::Backend(e.to_string()))?;
        let result = timed(async {
            let mut conn = self.pool.get().await.map_err(unavailable)?;
            self.publish
                .key(&self.epoch_key)
                .key(&self.head_key)
                .key(&self.log_key)
                .arg(Journal::new_epoch())
                .arg(self.max_len)
                .arg(at)
                .arg(json)
                .invoke_async::<(String, u64)>(&mut conn)
                .await
                .map_err(unavailable)
        })
        .await;
        if result.is_err() {
            metrics::shared_failure(self.stream, metrics::PUBLISH);
            let pause = u64::try_from(PAUSE_AFTER_FAILURE.as_millis()).unwrap_or(u64::MAX);
            self.paused_until.store(now_ms().saturating_add(pause), Ordering::Relaxed);
        }
        result
    }

    /// The history as Redis keeps it (starting the epoch when none is set), bounded like
    /// the in-process one.
    pub async fn load(&self, limits: &StreamLimits, now: u64) -> Result<History, StoreError> {
        let (epoch, head, mut entries): (String, Option<u64>, Vec<Entry>) = timed(async {
            let mut conn = self.pool.get().await.map_err(unavailable)?;
            redis::pipe()
                .atomic()
                .cmd("SET")
                .arg(&self.epoch_key)
                .arg(Journal::new_epoch())
                .arg("NX")
                .ignore()
                .get(&self.epoch_key)
                .get(&self.head_key)
                .cmd("XREVRANGE")
                .arg(&self.log_key)
                .arg("+")
                .arg("-")
                .arg("COUNT")
                .arg(self.max_len)
                .query_async(&mut conn)
                .await
                .map_err(unavailable)
        })
        .await?;
        entries.reverse();
        let stored: Vec<StoredEvent> = entries.iter().filter_map(parse_entry).collect();
        let (max_events, max_age) = (limits.history_events, limits.history_ms());
        Ok(History::restore(epoch.clone(), stored, max_events, max_age, now)
            .unwrap_or_else(|| History::starting_at(epoch, head.unwrap_or(0), max_events, max_age)))
    }

    /// Feeds `hub` every event of the log after `(epoch, head)`, in order, until the hub
    /// stops; reconnects after failures.
    pub async fn follow(self: Arc<Self>, hub: impl Into<FollowedHub>, epoch: String, head: u64, limits: StreamLimits) {
        let hub = hub.into();
        let mut position = (epoch, head);
        let mut pause = Duration::from_millis(100);
        loop {
            match self.follow_once(&hub, &mut position, &limits, &mut pause).await {
                Ok(()) => return,
                Err(error) => {
                    metrics::shared_failure(self.stream, metrics::FOLLOW);
                    tracing::warn!(%error, stream = self.stream.as_str(), "the shared stream's follower lost Redis");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(5));
                }
            }
        }
    }

    /// Follows on one connection until it fails (`Err`) or the hub stops (`Ok`).
    async fn follow_once(
        &self,
        hub: &FollowedHub,
        position: &mut (String, u64),
        limits: &StreamLimits,
        pause: &mut Duration,
    ) -> Result<(), StoreError> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(BLOCK + TIMEOUT));
        let mut conn = timed(async {
            self.client.get_multiplexed_async_connection_with_config(&config).await.map_err(unavailable)
        })
        .await?;
        loop {
            let epoch: Option<String> = timed(async {
                redis::cmd("GET").arg(&self.epoch_key).query_async(&mut conn).await.map_err(unavailable)
            })
            .await?;
            *pause = Duration::from_millis(100);
            if epoch.as_deref() != Some(position.0.as_str()) {
                if !self.rebase(hub, position, limits, ResetReason::EpochChanged).await? {
                    return Ok(());
                }
                continue;
            }
            for entry in self.read_after(&mut conn, position.1).await? {
                let Some(event) = parse_entry(&entry) else {
                    tracing::warn!(id = entry.0, "an unreadable entry in the shared stream's log");
                    continue;
                };
                if event.epoch != position.0 || event.offset > position.1 + 1 {
                    let reason =
                        if event.epoch != position.0 { ResetReason::EpochChanged } else { ResetReason::BeyondHistory };
                    if !self.rebase(hub, position, limits, reason).await? {
                        return Ok(());
                    }
                    break;
                }
                if event.offset <= position.1 {
                    continue;
                }
                let offset = event.offset;
                if hub.relay.send(Relay(event)).await.is_err() {
                    return Ok(());
                }
                position.1 = offset;
            }
        }
    }

    /// The log's entries after `offset`, waiting up to [`BLOCK`] for the first.
    async fn read_after(&self, conn: &mut MultiplexedConnection, offset: u64) -> Result<Vec<Entry>, StoreError> {
        let reply: Option<Vec<(String, Vec<Entry>)>> = redis::cmd("XREAD")
            .arg("COUNT")
            .arg(READ_BATCH)
            .arg("BLOCK")
            .arg(BLOCK.as_millis() as u64)
            .arg("STREAMS")
            .arg(&self.log_key)
            .arg(format!("0-{offset}"))
            .query_async(conn)
            .await
            .map_err(unavailable)?;
        Ok(reply.into_iter().flatten().flat_map(|(_, entries)| entries).collect())
    }

    /// Reloads the history from Redis into `hub`, its clients told `reason`; false when
    /// the hub stopped.
    async fn rebase(
        &self,
        hub: &FollowedHub,
        position: &mut (String, u64),
        limits: &StreamLimits,
        reason: ResetReason,
    ) -> Result<bool, StoreError> {
        let history = self.load(limits, now_ms()).await?;
        *position = (history.epoch().to_string(), history.head());
        tracing::info!(stream = self.stream.as_str(), ?reason, "the shared stream's history was reloaded from Redis");
        Ok(hub.rebase.send(Rebase { history, reason }).await.is_ok())
    }
}

/// The event of a log entry (id `0-{offset}`; fields `epoch`, `at`, `data`).
fn parse_entry((id, fields): &Entry) -> Option<StoredEvent> {
    let offset = id.strip_prefix("0-")?.parse().ok()?;
    let field = |name: &str| fields.chunks(2).find(|pair| pair[0] == name).and_then(|pair| pair.get(1));
    Some(StoredEvent {
        epoch: field("epoch")?.clone(),
        offset,
        at: field("at")?.parse().ok()?,
        data: serde_json::from_str(field("data")?).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_entries_are_read_back_as_stored_events() {
        let fields = |data: &str| -> Vec<String> {
            ["epoch", "e1", "at", "17", "data", data].iter().map(|s| s.to_string()).collect()
        };
        let event = parse_entry(&("0-42".into(), fields(r#"{"name":"X"}"#))).expect("readable");
        assert_eq!((event.epoch.as_str(), event.offset, event.at), ("e1", 42, 17));
        assert_eq!(event.data["name"], "X");
        assert!(parse_entry(&("1700000000-0".into(), fields("{}"))).is_none(), "not an offset id");
        assert!(parse_entry(&("0-1".into(), fields("not json"))).is_none());
        assert!(parse_entry(&("0-1".into(), vec!["epoch".into()])).is_none());
    }
}
