//! The per-page-load cap: at most N error records (spec 000 §9: 20 sends per page)
//! are accepted for one page load; the rest are refused.
//!
//! The key is the page-load id the loader sends in `data.pageLoadId` (the one
//! `/api/1/performance/settings` hands out). Without it, the page load is approximated
//! by url, user agent and client IP together: reloads of the same page by the same
//! browser then share a cap until it is forgotten ([`PAGE_LOAD_MEMORY_MS`] after its
//! last record).

use std::collections::HashMap;

/// How long a page load's count is remembered after its last record.
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

/// The cap's answer to a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// `accepted` records fit; `dropped` did not.
    Accepted {
        /// Records accepted.
        accepted: usize,
        /// Records past the cap, dropped.
        dropped: usize,
    },
    /// The page load already used its cap: nothing accepted.
    Refused,
    /// Too many records wait for the store: nothing accepted, try again later (503).
    Busy,
}

/// Counts per page load.
#[derive(Debug)]
pub struct PageLoadCaps {
    /// Records accepted per page load, and when the last one came (unix ms).
    counts: HashMap<PageLoadKey, (u32, u64)>,
    /// Records accepted per page load.
    limit: u32,
}

impl PageLoadCaps {
    /// Caps of `limit` records per page load.
    pub fn new(limit: u32) -> PageLoadCaps {
        PageLoadCaps { counts: HashMap::new(), limit }
    }

    /// Admits up to `wanted` more records for `key`.
    pub fn admit(&mut self, key: PageLoadKey, wanted: usize, now: u64) -> Admission {
        if self.counts.len() >= MAX_PAGE_LOADS && !self.counts.contains_key(&key) {
            self.forget_oldest_half();
        }
        let entry = self.counts.entry(key).or_insert((0, now));
        let room = self.limit.saturating_sub(entry.0) as usize;
        if room == 0 {
            return Admission::Refused;
        }
        let accepted = wanted.min(room);
        entry.0 += accepted as u32;
        entry.1 = now;
        Admission::Accepted { accepted, dropped: wanted - accepted }
    }

    /// Forgets page loads whose last record is older than [`PAGE_LOAD_MEMORY_MS`].
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
    fn the_twenty_first_record_of_a_page_load_is_refused() {
        let mut caps = PageLoadCaps::new(20);
        for _ in 0..20 {
            assert_eq!(caps.admit(key("a"), 1, 0), Admission::Accepted { accepted: 1, dropped: 0 });
        }
        assert_eq!(caps.admit(key("a"), 1, 0), Admission::Refused);
        assert_eq!(caps.admit(key("b"), 1, 0), Admission::Accepted { accepted: 1, dropped: 0 });
    }

    #[test]
    fn a_batch_past_the_cap_is_cut() {
        let mut caps = PageLoadCaps::new(20);
        assert_eq!(caps.admit(key("a"), 18, 0), Admission::Accepted { accepted: 18, dropped: 0 });
        assert_eq!(caps.admit(key("a"), 5, 0), Admission::Accepted { accepted: 2, dropped: 3 });
    }

    #[test]
    fn past_the_most_page_loads_the_older_half_is_forgotten() {
        let mut caps = PageLoadCaps::new(1);
        for n in 0..MAX_PAGE_LOADS as u64 {
            caps.admit(key(&n.to_string()), 1, n);
        }
        assert_eq!(caps.len(), MAX_PAGE_LOADS);
        caps.admit(key("new"), 1, MAX_PAGE_LOADS as u64);
        assert_eq!(caps.len(), MAX_PAGE_LOADS / 2);
        assert_eq!(caps.admit(key("new"), 1, 0), Admission::Refused, "the newest is kept");
        let last = (MAX_PAGE_LOADS - 1).to_string();
        assert_eq!(caps.admit(key(&last), 1, 0), Admission::Refused, "the newer half is kept");
        assert!(matches!(caps.admit(key("0"), 1, 0), Admission::Accepted { .. }), "the oldest was forgotten");
    }

    #[test]
    fn old_page_loads_are_forgotten() {
        let mut caps = PageLoadCaps::new(1);
        caps.admit(key("a"), 1, 0);
        caps.prune(PAGE_LOAD_MEMORY_MS);
        assert!(caps.is_empty());
        assert_eq!(
            caps.admit(PageLoadKey::of(None, "/p", "ua", "1.2.3.4"), 1, 0),
            Admission::Accepted { accepted: 1, dropped: 0 }
        );
        assert_eq!(caps.admit(PageLoadKey::of(None, "/p", "ua", "1.2.3.4"), 1, 0), Admission::Refused);
    }
}
