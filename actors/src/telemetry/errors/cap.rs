//! The per-page-load cap: at most N sends (requests) of error records are accepted for
//! one page load (spec 000 §9: 20 sends per page); later sends are refused. A send carries
//! at most [`MAX_RECORDS_PER_SEND`](super::report::MAX_RECORDS_PER_SEND) records (the
//! loader's queue), which the parser enforces: with the default 20 sends, a page load
//! stores at most 200 records.
//!
//! The key is the page-load id the loader sends in `data.pageLoadId` (the one
//! `/api/1/performance/settings` hands out). Without it, the page load is approximated
//! by url, user agent and client IP together: reloads of the same page by the same
//! browser then share a cap until it is forgotten ([`PAGE_LOAD_MEMORY_MS`] after its
//! last send).

use std::collections::HashMap;

/// How long a page load's count is remembered after its last send.
pub const PAGE_LOAD_MEMORY_MS: u64 = 60 * 60 * 1000;
/// Most page loads remembered; past this the oldest half is forgotten.
pub const MAX_PAGE_LOADS: usize = 100_000;

/// What identifies one page load.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PageLoadKey {
    /// The id the loader sent.
    Id(String),
    /// url, user agent and client IP, joined.
    Approximate(String),
}

impl PageLoadKey {
    /// The key of a request: its page-load id if any, else url + user agent + client IP.
    pub fn of(page_load_id: Option<&str>, url: &str, user_agent: &str, client_ip: &str) -> PageLoadKey {
        match page_load_id {
            Some(id) => PageLoadKey::Id(id.to_string()),
            None => PageLoadKey::Approximate(format!("{url}\u{1f}{user_agent}\u{1f}{client_ip}")),
        }
    }
}

/// The answer to a send of error records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// The send fit under its page load's cap: every record in it was accepted.
    Accepted {
        /// Records accepted.
        accepted: usize,
    },
    /// The page load already used its sends: nothing accepted.
    Refused,
    /// Too many records wait for the store: nothing accepted, try again later (503).
    Busy,
}

/// Sends counted per page load.
#[derive(Debug)]
pub struct PageLoadCaps {
    /// Sends accepted per page load, and when the last one came (unix ms).
    counts: HashMap<PageLoadKey, (u32, u64)>,
    /// Sends accepted per page load.
    limit: u32,
}

impl PageLoadCaps {
    /// Caps of `limit` sends per page load.
    pub fn new(limit: u32) -> PageLoadCaps {
        PageLoadCaps { counts: HashMap::new(), limit }
    }

    /// Counts one more send for `key` at `now`: true if it fits under the cap, false (and
    /// nothing counted) if the page load already used its sends.
    pub fn admit(&mut self, key: PageLoadKey, now: u64) -> bool {
        if self.counts.len() >= MAX_PAGE_LOADS && !self.counts.contains_key(&key) {
            self.forget_oldest_half();
        }
        let entry = self.counts.entry(key).or_insert((0, now));
        if entry.0 >= self.limit {
            return false;
        }
        entry.0 += 1;
        entry.1 = now;
        true
    }

    /// Forgets page loads whose last send is older than [`PAGE_LOAD_MEMORY_MS`].
    pub fn prune(&mut self, now: u64) {
        self.counts.retain(|_, (_, last)| now.saturating_sub(*last) < PAGE_LOAD_MEMORY_MS);
    }

    /// How many page loads are remembered.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether none is remembered.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    fn forget_oldest_half(&mut self) {
        let mut times: Vec<u64> = self.counts.values().map(|(_, t)| *t).collect();
        let half = times.len() / 2;
        let (_, &mut cut, _) = times.select_nth_unstable(half);
        self.counts.retain(|_, (_, last)| *last > cut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: &str) -> PageLoadKey {
        PageLoadKey::of(Some(id), "", "", "")
    }

    #[test]
    fn the_twenty_first_send_of_a_page_load_is_refused() {
        let mut caps = PageLoadCaps::new(20);
        for _ in 0..20 {
            assert!(caps.admit(key("a"), 0));
        }
        assert!(!caps.admit(key("a"), 0));
        assert!(caps.admit(key("b"), 0), "another page load has its own sends");
    }

    #[test]
    fn a_refused_send_is_not_counted() {
        let mut caps = PageLoadCaps::new(1);
        assert!(caps.admit(key("a"), 0));
        assert!(!caps.admit(key("a"), 5));
        caps.prune(PAGE_LOAD_MEMORY_MS);
        assert!(caps.is_empty(), "the refusal did not refresh the page load's last send");
    }

    #[test]
    fn past_the_most_page_loads_the_older_half_is_forgotten() {
        let mut caps = PageLoadCaps::new(1);
        for n in 0..MAX_PAGE_LOADS as u64 {
            caps.admit(key(&n.to_string()), n);
        }
        assert_eq!(caps.len(), MAX_PAGE_LOADS);
        caps.admit(key("new"), MAX_PAGE_LOADS as u64);
        assert_eq!(caps.len(), MAX_PAGE_LOADS / 2);
        assert!(!caps.admit(key("new"), 0), "the newest is kept");
        let last = (MAX_PAGE_LOADS - 1).to_string();
        assert!(!caps.admit(key(&last), 0), "the newer half is kept");
        assert!(caps.admit(key("0"), 0), "the oldest was forgotten");
    }

    #[test]
    fn old_page_loads_are_forgotten() {
        let mut caps = PageLoadCaps::new(1);
        caps.admit(key("a"), 0);
        caps.prune(PAGE_LOAD_MEMORY_MS);
        assert!(caps.is_empty());
        assert!(caps.admit(PageLoadKey::of(None, "/p", "ua", "1.2.3.4"), 0));
        assert!(!caps.admit(PageLoadKey::of(None, "/p", "ua", "1.2.3.4"), 0));
    }
}
