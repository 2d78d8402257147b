//! `[redis]` settings and the start-up check that Redis keeps what it acknowledges.
//!
//! A durable write is acknowledged once Redis has answered. Redis writes it to disk
//! before answering only with `appendonly yes` and `appendfsync always`; otherwise a
//! power cut of the Redis host (or, without persistence, any restart of Redis) loses
//! acknowledged writes. [`Persistence`] says which case a Redis is in; start-up refuses
//! a lossy Redis unless `[redis] require_durable = false`.

use serde::{Deserialize, Serialize};

/// `[redis]`: how the store uses the Redis of `redis_url`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedisSettings {
    /// Put before every key Veranda writes in Redis (the store's trees, carts, stock,
    /// orders, the live streams, the crumb key), so several sites can share one Redis
    /// (each with its own prefix).
    pub key_prefix: String,
    /// Replicas that must confirm a durable write (`WAIT`) before it is acknowledged; 0:
    /// none (the primary's own disk is enough).
    pub wait_replicas: u32,
    /// How long a durable write waits for those replicas, in milliseconds.
    pub wait_timeout_ms: u64,
    /// Refuse to start when Redis could lose acknowledged writes (`appendonly` not `yes`
    /// or `appendfsync` not `always`); `false` only warns.
    pub require_durable: bool,
}

impl Default for RedisSettings {
    fn default() -> Self {
        RedisSettings {
            key_prefix: DEFAULT_KEY_PREFIX.to_string(),
            wait_replicas: 0,
            wait_timeout_ms: 1000,
            require_durable: true,
        }
    }
}

/// The default `[redis] key_prefix`.
pub const DEFAULT_KEY_PREFIX: &str = "veranda:";

/// How a Redis keeps what it acknowledged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Persistence {
    /// `appendonly yes` and `appendfsync always`: every acknowledged write is on disk.
    OnDisk,
    /// Acknowledged writes could be lost; the values Redis reported.
    Lossy {
        /// `appendonly`.
        appendonly: String,
        /// `appendfsync`.
        appendfsync: String,
    },
    /// Redis refused `CONFIG GET` (a managed Redis); why.
    Unchecked(String),
}

impl Persistence {
    /// Reads `appendonly` and `appendfsync` from a `CONFIG GET` answer.
    pub fn from_config(appendonly: Option<String>, appendfsync: Option<String>) -> Persistence {
        let (appendonly, appendfsync) = (appendonly.unwrap_or_default(), appendfsync.unwrap_or_default());
        if appendonly.eq_ignore_ascii_case("yes") && appendfsync.eq_ignore_ascii_case("always") {
            Persistence::OnDisk
        } else {
            Persistence::Lossy { appendonly, appendfsync }
        }
    }

    /// A sentence for the operator; `None` when nothing is at risk.
    pub fn warning(&self) -> Option<String> {
        match self {
            Persistence::OnDisk => None,
            Persistence::Lossy { appendonly, appendfsync } => Some(format!(
                "Redis reports appendonly {appendonly:?} and appendfsync {appendfsync:?}: acknowledged writes \
                 (accounts, sessions, submissions, orders) could be lost if Redis or its host stops. Set \
                 `appendonly yes` and `appendfsync always` in redis.conf (or CONFIG SET), or set \
                 `[redis] require_durable = false` to run anyway"
            )),
            Persistence::Unchecked(why) => Some(format!(
                "cannot check Redis's persistence (CONFIG GET appendonly/appendfsync refused: {why}); make sure it \
                 runs with `appendonly yes` and `appendfsync always`, or acknowledged writes could be lost"
            )),
        }
    }
}

/// Asks Redis for its persistence settings on `conn`.
pub async fn persistence(conn: &mut impl redis::aio::ConnectionLike) -> Persistence {
    let read = |name: &'static str| redis::cmd("CONFIG").arg("GET").arg(name).to_owned();
    let appendonly: Result<Vec<String>, _> = read("appendonly").query_async(conn).await;
    let appendfsync: Result<Vec<String>, _> = read("appendfsync").query_async(conn).await;
    match (appendonly, appendfsync) {
        (Ok(only), Ok(fsync)) => Persistence::from_config(only.get(1).cloned(), fsync.get(1).cloned()),
        (Err(e), _) | (_, Err(e)) => Persistence::Unchecked(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_fsynced_append_only_file_is_durable() {
        let read = |a: &str, f: &str| Persistence::from_config(Some(a.into()), Some(f.into()));
        assert_eq!(read("yes", "always"), Persistence::OnDisk);
        assert!(read("yes", "everysec").warning().is_some_and(|w| w.contains("appendfsync \"everysec\"")));
        assert!(read("no", "always").warning().is_some_and(|w| w.contains("appendonly \"no\"")));
        assert_eq!(
            Persistence::from_config(None, None),
            Persistence::Lossy { appendonly: "".into(), appendfsync: "".into() }
        );
        assert!(Persistence::Unchecked("NOPERM".into()).warning().is_some_and(|w| w.contains("NOPERM")));
    }
}
