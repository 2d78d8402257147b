//! Failed sign-ins (and page unlocks), counted so that guessing is slow and nobody can
//! lock anybody else out: OWASP's "device cookie" pattern.
//!
//! Failures are counted per client address, per (account, address) pair, per account,
//! and per device cookie, each within [`WINDOW`]. An attempt is refused when:
//!
//! - it carries a valid device cookie for the account (see [`super::device`]) and that
//!   device has [`MAX_FAILURES`] failures: nothing else counts for it, so a device that
//!   once signed in keeps working however the account or its address is attacked;
//! - otherwise, when the address has [`MAX_FAILURES`] failures (any account), or the pair
//!   has, or the account has and the address has at least one failure of its own. A
//!   client with no recent failures therefore always gets its attempt: a correct
//!   password from it always works, and while an account is under attack each new
//!   address still gets one guess per window, no more.
//!
//! An attempt is counted as a failure when it starts, and uncounted when it succeeds:
//! concurrent guesses cannot slip past the limit while the (slow) password check runs.
//! A success clears the account's, the pair's and the device's failures; the address
//! keeps its others.
//!
//! Bounds: every attempt without a device cookie counts against its address, which is
//! refused at [`MAX_FAILURES`], so one address adds at most `2 × MAX_FAILURES + 1`
//! entries per window; each entry keeps at most [`MAX_FAILURES`] times. In total the
//! table holds `[security] throttle_max_entries` keys, evicting the least recently used
//! (never refusing everyone once full). Its size is the gauge
//! `veranda_auth_throttle_entries{table}`. Counters live in this process (several
//! instances each count their own).

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use lru::LruCache;

/// Failures allowed within [`WINDOW`] before attempts are refused.
pub const MAX_FAILURES: usize = 5;
/// How long a failure counts.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// The gauge holding each table's size.
const ENTRIES_GAUGE: &str = crate::ops::metrics::ServerMetric::AuthThrottleEntries.name();

/// Failed attempts by key, least recently used evicted first.
pub struct LoginThrottle {
    /// Start times of the failed (or still running) attempts in the window, oldest first.
    failures: Mutex<LruCache<String, VecDeque<Instant>>>,
    /// The `table` label of the size gauge (`sign_in`, `unlock`).
    table: &'static str,
}

/// Who is attempting: the account (or page), the client address and, when the request
/// carries a valid device cookie for that account, the device's id.
#[derive(Debug, Clone, Copy)]
pub struct Attempter<'a> {
    /// The account's address as typed (lowercased here), or a page's key.
    pub account: &'a str,
    /// The client address.
    pub address: &'a str,
    /// The id of a device cookie already verified for `account`.
    pub device: Option<&'a str>,
}

/// A sign-in attempt under way, counted until [`LoginThrottle::succeeded`].
#[derive(Debug)]
pub struct Attempt {
    /// The keys that were counted and the keys a success clears.
    keys: Keys,
    /// When the attempt started.
    at: Instant,
}

/// The table keys of one attempter.
#[derive(Debug, Clone)]
struct Keys {
    account: String,
    address: String,
    pair: String,
    device: Option<String>,
}

impl Keys {
    fn of(who: Attempter<'_>) -> Keys {
        let account: String = who.account.trim().to_lowercase().chars().take(300).collect();
        Keys {
            pair: format!("pair:{}:{account}", who.address),
            account: format!("account:{account}"),
            address: format!("ip:{}", who.address),
            device: who.device.map(|d| format!("device:{}", d.chars().take(64).collect::<String>())),
        }
    }
}

impl LoginThrottle {
    /// A table of at most `max_entries` keys (at least one), reported under `table`.
    pub fn new(max_entries: usize, table: &'static str) -> LoginThrottle {
        let cap = NonZeroUsize::new(max_entries).unwrap_or(NonZeroUsize::MIN);
        metrics::gauge!(ENTRIES_GAUGE, "table" => table).set(0.0);
        LoginThrottle { failures: Mutex::new(LruCache::new(cap)), table }
    }

    /// Starts an attempt by `who` at `now`, or says how long to wait.
    pub fn begin(&self, who: Attempter<'_>, now: Instant) -> Result<Attempt, Duration> {
        let keys = Keys::of(who);
        let mut failures = self.failures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut wait = |key: &str| -> (usize, Duration) {
            let Some(times) = failures.get_mut(key) else { return (0, Duration::ZERO) };
            expire(times, now);
            let oldest = times.front().copied().unwrap_or(now);
            (times.len(), WINDOW.saturating_sub(now.saturating_duration_since(oldest)))
        };
        let counted: Vec<&String> = match &keys.device {
            Some(device) => {
                let (n, until) = wait(device);
                if n >= MAX_FAILURES {
                    return Err(until);
                }
                vec![device]
            }
            None => {
                let (on_address, address_until) = wait(&keys.address);
                let (on_pair, pair_until) = wait(&keys.pair);
                let (on_account, account_until) = wait(&keys.account);
                let mut refusal = Duration::ZERO;
                if on_address >= MAX_FAILURES {
                    refusal = refusal.max(address_until);
                }
                if on_pair >= MAX_FAILURES {
                    refusal = refusal.max(pair_until);
                }
                if on_account >= MAX_FAILURES && on_address > 0 {
                    refusal = refusal.max(account_until.min(address_until));
                }
                if !refusal.is_zero() {
                    return Err(refusal);
                }
                vec![&keys.address, &keys.pair, &keys.account]
            }
        };
        for key in counted {
            if let Some(times) = failures.get_mut(key) {
                times.push_back(now);
                while times.len() > MAX_FAILURES {
                    times.pop_front();
                }
            } else {
                failures.put(key.clone(), VecDeque::from([now]));
            }
        }
        self.report(failures.len());
        Ok(Attempt { keys, at: now })
    }

    /// The attempt succeeded: the account's, the pair's and the device's failures are
    /// cleared and this attempt no longer counts against the address.
    pub fn succeeded(&self, attempt: Attempt) {
        let mut failures = self.failures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Keys { account, address, pair, device } = attempt.keys;
        for key in [Some(account), Some(pair), device].into_iter().flatten() {
            failures.pop(&key);
        }
        if let Some(times) = failures.peek_mut(&address) {
            if let Some(i) = times.iter().rposition(|t| *t == attempt.at) {
                times.remove(i);
            }
            if times.is_empty() {
                failures.pop(&address);
            }
        }
        self.report(failures.len());
    }

    /// How many keys the table holds.
    pub fn len(&self) -> usize {
        self.failures.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }

    /// Whether the table holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn report(&self, len: usize) {
        metrics::gauge!(ENTRIES_GAUGE, "table" => self.table).set(len as f64);
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
mod tests;
