//! [`KeyedLimiter`]: a token bucket per key (a client address, an address and a form) in a
//! table of bounded size. When the table is full the least recently seen key is forgotten,
//! so a flood of new keys never refuses everyone: it only shortens what is remembered, and
//! a fresh key always starts with a full bucket.
//!
//! Each table is named by its `table` label on two metrics, exported at zero from start-up:
//! the gauge [`ENTRIES_METRIC`] (keys remembered now) and the counter [`REFUSED_METRIC`]
//! (requests refused for their key's rate).

use std::hash::Hash;
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use lru::LruCache;

/// Keys a rate-limiter table remembers now, by `table`.
pub const ENTRIES_METRIC: &str = "veranda_rate_limiter_entries";
/// Requests refused for their key's rate, by `table`.
pub const REFUSED_METRIC: &str = "veranda_rate_limited_total";

/// A key past its rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimited {
    /// Whole seconds until the next request is admitted (at least 1).
    pub retry_after_secs: u64,
}

impl RateLimited {
    /// The wait as a duration.
    pub fn wait(self) -> Duration {
        Duration::from_secs(self.retry_after_secs)
    }

    /// The wait until `not_until`, rounded up to whole seconds (at least 1).
    fn until(wait: Duration) -> RateLimited {
        RateLimited { retry_after_secs: wait.as_secs_f64().ceil().max(1.0) as u64 }
    }
}

/// `count` tokens per `period` (at least one), `burst` of them at once (0: `count`).
pub fn quota(count: u32, period: Duration, burst: u32) -> Quota {
    let count = NonZeroU32::new(count).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(burst).unwrap_or(count);
    let quota = Quota::with_period(period / count.get()).unwrap_or_else(|| Quota::per_second(count));
    quota.allow_burst(burst)
}

/// One token bucket per key, in a table of at most `size` keys.
pub struct KeyedLimiter<K> {
    /// The rate and burst of every key.
    quota: Quota,
    /// The buckets, least recently used evicted first.
    buckets: Mutex<LruCache<K, DefaultDirectRateLimiter>>,
    /// The table's size gauge and refusals counter, looked up once.
    entries: metrics::Gauge,
    refused: metrics::Counter,
}

impl<K: Hash + Eq> KeyedLimiter<K> {
    /// A table named `table` of at most `size` keys (at least one), each with `quota`; its
    /// metrics are exported at zero.
    pub fn new(table: &'static str, quota: Quota, size: usize) -> KeyedLimiter<K> {
        crate::ops::metrics::install();
        metrics::describe_gauge!(
            ENTRIES_METRIC,
            "Keys (client addresses) each rate-limiter table remembers, by table."
        );
        metrics::describe_counter!(REFUSED_METRIC, "Requests refused (429) for their key's rate, by table.");
        let entries = metrics::gauge!(ENTRIES_METRIC, "table" => table);
        let refused = metrics::counter!(REFUSED_METRIC, "table" => table);
        entries.set(0.0);
        refused.increment(0);
        let size = NonZeroUsize::new(size).unwrap_or(NonZeroUsize::MIN);
        KeyedLimiter { quota, buckets: Mutex::new(LruCache::new(size)), entries, refused }
    }

    /// `per_period` events per `period` for each key, all of them available at once.
    pub fn per_period(table: &'static str, per_period: u32, period: Duration, size: usize) -> KeyedLimiter<K> {
        KeyedLimiter::new(table, quota(per_period, period, per_period), size)
    }

    /// Takes one token of `key`'s bucket, or says when the next one is there.
    pub fn check(&self, key: K) -> Result<(), RateLimited> {
        self.check_n(key, 1)
    }

    /// Takes `n` tokens of `key`'s bucket (none when `n` is 0), or says when they are
    /// there. A charge larger than the whole burst takes the whole burst, so it is admitted
    /// once the bucket is full rather than never.
    pub fn check_n(&self, key: K, n: u64) -> Result<(), RateLimited> {
        let burst = self.quota.burst_size();
        let Some(n) = NonZeroU32::new(u32::try_from(n).unwrap_or(u32::MAX).min(burst.get())) else { return Ok(()) };
        // A poisoned table is still a table of buckets: at worst one bucket is stale.
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let bucket = buckets.get_or_insert(key, || RateLimiter::direct(self.quota));
        // `n` is at most the burst, so the capacity check cannot fail.
        let checked = bucket.check_n(n).unwrap_or(Ok(()));
        self.entries.set(buckets.len() as f64);
        checked.map_err(|not_until| {
            self.refused.increment(1);
            RateLimited::until(not_until.wait_time_from(DefaultClock::default().now()))
        })
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_a_minute_are_admitted_at_once_and_the_eleventh_is_told_when_to_retry() {
        let limiter = KeyedLimiter::per_period("test_ten", 10, Duration::from_secs(60), 100);
        for _ in 0..10 {
            assert_eq!(limiter.check("ip|form"), Ok(()));
        }
        let refused = limiter.check("ip|form").expect_err("past ten a minute");
        assert!((1..=6).contains(&refused.retry_after_secs), "{refused:?}");
        assert_eq!(limiter.check("ip|other"), Ok(()), "limits are per key");
    }

    #[test]
    fn a_full_table_forgets_the_least_recently_seen_key_and_never_refuses_a_new_one() {
        let limiter = KeyedLimiter::per_period("test_full", 1, Duration::from_secs(60), 2);
        assert!(limiter.check(1).is_ok());
        assert!(limiter.check(2).is_ok());
        for key in 3..100 {
            assert!(limiter.check(key).is_ok(), "a new key is admitted: {key}");
        }
        assert_eq!(limiter.len(), 2);
        assert!(limiter.check(99).is_err(), "a remembered key is still limited");
        assert!(limiter.check(1).is_ok(), "a forgotten key starts again");
    }

    #[test]
    fn a_charge_counts_its_size_and_one_larger_than_the_burst_takes_the_whole_burst() {
        let limiter = KeyedLimiter::new("test_bytes", quota(100, Duration::from_secs(60), 100), 10);
        assert!(limiter.check_n("a", 0).is_ok(), "nothing to charge");
        assert!(limiter.check_n("a", 60).is_ok());
        assert!(limiter.check_n("a", 60).is_err(), "only 40 left");
        assert!(limiter.check_n("b", 1_000).is_ok(), "a full bucket takes one oversized charge");
        assert!(limiter.check_n("b", 1).is_err(), "which emptied it");
    }
}
