//! A sliding-window rate limit: at most `limit` events per key in any `window`. Time is
//! passed in, so tests move it by hand.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::time::{Duration, Instant};

/// Counts recent events per key.
#[derive(Debug)]
pub struct RateLimiter<K> {
    /// Events allowed per window.
    limit: usize,
    /// The window's length.
    window: Duration,
    /// Keys kept before expired windows are swept; beyond it, new keys are refused.
    max_keys: usize,
    /// The times of each key's events inside the window, oldest first.
    hits: HashMap<K, VecDeque<Instant>>,
}

impl<K: Hash + Eq> RateLimiter<K> {
    /// A limiter of `limit` events per `window`, tracking at most `max_keys` keys.
    pub fn new(limit: usize, window: Duration, max_keys: usize) -> Self {
        RateLimiter { limit, window, max_keys, hits: HashMap::new() }
    }

    /// Records an event for `key` at `now`, or says how long until one is allowed.
    pub fn hit(&mut self, key: K, now: Instant) -> Result<(), Duration> {
        if !self.hits.contains_key(&key) && self.hits.len() >= self.max_keys {
            let window = self.window;
            self.hits.retain(|_, times| times.back().is_some_and(|t| now.saturating_duration_since(*t) < window));
            if self.hits.len() >= self.max_keys {
                return Err(self.window);
            }
        }
        let times = self.hits.entry(key).or_default();
        while times.front().is_some_and(|t| now.saturating_duration_since(*t) >= self.window) {
            times.pop_front();
        }
        if times.len() >= self.limit {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(self.window.saturating_sub(now.saturating_duration_since(oldest)));
        }
        times.push_back(now);
        Ok(())
    }
}
