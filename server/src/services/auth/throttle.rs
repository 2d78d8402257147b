//! Failed sign-ins, counted per account (email) and per client address: after
//! [`MAX_FAILURES`] within [`WINDOW`], further attempts are refused until the oldest
//! failure leaves the window.
//!
//! An attempt is counted as a failure when it starts, and uncounted when it succeeds:
//! concurrent guesses cannot slip past the limit while the (slow) password check runs.
//! A success also clears the account's failures; the address keeps its others.
//! Counters live in this process (several instances each count their own).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures allowed within [`WINDOW`] before attempts are refused.
pub const MAX_FAILURES: usize = 5;
/// How long a failure counts.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Most keys tracked at once; beyond it (after dropping expired ones) new keys are
/// refused for a full window rather than left uncounted.
const MAX_KEYS: usize = 100_000;

/// Failed sign-ins by key.
#[derive(Default)]
pub struct LoginThrottle {
    /// Start times of the failed (or still running) attempts in the window, oldest first.
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

/// A sign-in attempt under way, counted until [`LoginThrottle::succeeded`].
#[derive(Debug)]
pub struct Attempt {
    /// The account key (`email:` + the address as typed, lowercase).
    account: String,
    /// The address key (`ip:` + the client address).
    address: String,
    /// When the attempt started.
    at: Instant,
}

impl LoginThrottle {
    /// Starts an attempt on `email` from `address` at `now`, or says how long to wait.
    pub fn begin(&self, email: &str, address: &str, now: Instant) -> Result<Attempt, Duration> {
        let account: String = format!("email:{}", email.trim().to_lowercase()).chars().take(300).collect();
        let address = format!("ip:{address}");
        let mut failures = self.failures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut wait = Duration::ZERO;
        for key in [&account, &address] {
            if let Some(times) = failures.get_mut(key) {
                expire(times, now);
                if times.len() >= MAX_FAILURES {
                    let oldest = times.front().copied().unwrap_or(now);
                    wait = wait.max(WINDOW.saturating_sub(now.saturating_duration_since(oldest)));
                }
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        if failures.len() + 2 > MAX_KEYS {
            failures.retain(|_, times| {
                expire(times, now);
                !times.is_empty()
            });
            if failures.len() + 2 > MAX_KEYS {
                return Err(WINDOW);
            }
        }
        for key in [&account, &address] {
            failures.entry(key.clone()).or_default().push_back(now);
        }
        Ok(Attempt { account, address, at: now })
    }

    /// The attempt succeeded: the account's failures are cleared and this attempt no
    /// longer counts against the address.
    pub fn succeeded(&self, attempt: Attempt) {
        let mut failures = self.failures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        failures.remove(&attempt.account);
        if let Some(times) = failures.get_mut(&attempt.address) {
            if let Some(i) = times.iter().rposition(|t| *t == attempt.at) {
                times.remove(i);
            }
            if times.is_empty() {
                failures.remove(&attempt.address);
            }
        }
    }
}

/// Drops failures older than the window.
fn expire(times: &mut VecDeque<Instant>, now: Instant) {
    while times.front().is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW) {
        times.pop_front();
    }
}

/// Whole seconds to wait, rounded up, at least one (the `Retry-After` value).
pub fn retry_after_secs(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_failure_on_an_account_is_refused_until_the_window_passes() {
        let throttle = LoginThrottle::default();
        let start = Instant::now();
        for i in 0..MAX_FAILURES {
            let at = start + Duration::from_secs(i as u64);
            throttle.begin("Ann@example.com", &format!("10.0.0.{i}"), at).expect("allowed");
        }
        let later = start + Duration::from_secs(60);
        let wait = throttle.begin("ann@example.com", "10.0.0.99", later).expect_err("refused");
        assert_eq!(wait, WINDOW - Duration::from_secs(60));
        assert_eq!(retry_after_secs(wait), 840);
        assert!(throttle.begin("ann@example.com", "10.0.0.99", start + WINDOW).is_ok(), "the oldest failure expired");
    }

    #[test]
    fn an_address_is_limited_across_accounts() {
        let throttle = LoginThrottle::default();
        let now = Instant::now();
        for i in 0..MAX_FAILURES {
            throttle.begin(&format!("user{i}@example.com"), "10.0.0.1", now).expect("allowed");
        }
        assert!(throttle.begin("other@example.com", "10.0.0.1", now).is_err());
        assert!(throttle.begin("other@example.com", "10.0.0.2", now).is_ok());
    }

    #[test]
    fn a_success_clears_the_account_and_uncounts_itself() {
        let throttle = LoginThrottle::default();
        let now = Instant::now();
        for _ in 0..MAX_FAILURES - 1 {
            throttle.begin("ann@example.com", "10.0.0.1", now).expect("allowed");
        }
        let attempt = throttle.begin("ann@example.com", "10.0.0.1", now).expect("the fifth is allowed");
        throttle.succeeded(attempt);
        assert!(throttle.begin("ann@example.com", "10.0.0.2", now).is_ok(), "account cleared");
        assert!(throttle.begin("bob@example.com", "10.0.0.1", now).is_ok(), "the success does not count");
        assert!(throttle.begin("carl@example.com", "10.0.0.1", now).is_err(), "the address keeps its other failures");
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1500)), 2);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
    }
}
