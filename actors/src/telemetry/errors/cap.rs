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
//!
//! The counts are a [`BoundedTable`]: at most `[telemetry] error_page_loads` page loads,
//! at most `error_page_loads_per_address` of them from one client address. Past a bound
//! the least recently used page load (of that address, or of all) is forgotten, so an
//! address inventing page-load ids only shortens its own memory, not everyone's.

use std::net::IpAddr;

use crate::tables::{BoundedTable, Table};

/// How long a page load's count is remembered after its last send.
pub const PAGE_LOAD_MEMORY_MS: u64 = 60 * 60 * 1000;
/// Most page loads remembered by default (`[telemetry] error_page_loads`).
pub const MAX_PAGE_LOADS: usize = 100_000;
/// Most page loads of one client address remembered by default
/// (`[telemetry] error_page_loads_per_address`).
pub const MAX_PAGE_LOADS_PER_ADDRESS: usize = 1_000;

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
    pub fn of(page_load_id: Option<&str>, url: &str, user_agent: &str, client_ip: Option<IpAddr>) -> PageLoadKey {
        match page_load_id {
            Some(id) => PageLoadKey::Id(id.to_string()),
            None => {
                let ip = client_ip.map(|ip| ip.to_string()).unwrap_or_default();
                PageLoadKey::Approximate(format!("{url}\u{1f}{user_agent}\u{1f}{ip}"))
            }
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
    /// Sends accepted per page load, and when the last one came (unix ms), by the page
    /// load's digest: 8 bytes an entry however long the id, and no copy of it.
    counts: BoundedTable<u64, (u32, u64)>,
    /// Digests page-load keys, with keys of its own drawn at start, so nobody can make two
    /// page loads share a digest (and a cap) on purpose; by chance, two of 100,000 share one
    /// less than once in a billion.
    digests: std::hash::RandomState,
    /// Sends accepted per page load.
    limit: u32,
}

impl PageLoadCaps {
    /// Caps of `limit` sends per page load, with the default bounds.
    pub fn new(limit: u32) -> PageLoadCaps {
        PageLoadCaps::bounded(limit, MAX_PAGE_LOADS, MAX_PAGE_LOADS_PER_ADDRESS)
    }

    /// Caps of `limit` sends per page load, remembering at most `total` page loads and
    /// `per_address` of one client address.
    pub fn bounded(limit: u32, total: usize, per_address: usize) -> PageLoadCaps {
        PageLoadCaps {
            counts: BoundedTable::new(Table::ErrorPageLoads, total, per_address),
            digests: std::hash::RandomState::new(),
            limit,
        }
    }

    /// Counts one more send for `key` from `address` at `now`: true if it fits under the
    /// cap, false (and nothing counted) if the page load already used its sends.
    pub fn admit(&mut self, key: PageLoadKey, address: IpAddr, now: u64) -> bool {
        use std::hash::BuildHasher;
        let key = self.digests.hash_one(&key);
        // One lookup for a page load already counted; a new one is inserted with its first
        // send.
        if let Some(entry) = self.counts.get_mut(&key) {
            if entry.0 >= self.limit {
                return false;
            }
            entry.0 += 1;
            entry.1 = now;
            return true;
        }
        if self.limit == 0 {
            return false;
        }
        self.counts.insert(key, address, (1, now));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    fn key(id: &str) -> PageLoadKey {
        PageLoadKey::of(Some(id), "", "", None)
    }

    #[test]
    fn the_twenty_first_send_of_a_page_load_is_refused() {
        let mut caps = PageLoadCaps::new(20);
        for _ in 0..20 {
            assert!(caps.admit(key("a"), LOCAL, 0));
        }
        assert!(!caps.admit(key("a"), LOCAL, 0));
        assert!(caps.admit(key("b"), LOCAL, 0), "another page load has its own sends");
    }

    #[test]
    fn a_cap_of_zero_refuses_every_send_and_remembers_nothing() {
        let mut caps = PageLoadCaps::new(0);
        assert!(!caps.admit(key("a"), LOCAL, 0));
        assert!(caps.is_empty());
    }

    #[test]
    fn a_refused_send_is_not_counted() {
        let mut caps = PageLoadCaps::new(1);
        assert!(caps.admit(key("a"), LOCAL, 0));
        assert!(!caps.admit(key("a"), LOCAL, 5));
        caps.prune(PAGE_LOAD_MEMORY_MS);
        assert!(caps.is_empty(), "the refusal did not refresh the page load's last send");
    }

    #[test]
    fn past_the_most_page_loads_the_least_recently_used_is_forgotten() {
        let mut caps = PageLoadCaps::bounded(1, 4, 4);
        for n in 0..4u8 {
            caps.admit(key(&n.to_string()), IpAddr::from([10, 0, 0, n]), u64::from(n));
        }
        assert!(!caps.admit(key("0"), IpAddr::from([10, 0, 0, 0]), 4), "a refusal still uses the page load");
        caps.admit(key("new"), IpAddr::from([10, 0, 0, 9]), 5);
        assert_eq!(caps.len(), 4);
        assert!(!caps.admit(key("new"), LOCAL, 6), "the newest is kept");
        assert!(!caps.admit(key("0"), LOCAL, 6), "the recently used is kept");
        assert!(caps.admit(key("1"), LOCAL, 6), "the least recently used was forgotten");
    }

    #[test]
    fn an_address_inventing_page_loads_forgets_only_its_own() {
        let mut caps = PageLoadCaps::bounded(1, 100, 3);
        let other = IpAddr::from([10, 0, 0, 2]);
        assert!(caps.admit(key("theirs"), other, 0));
        for n in 0..50 {
            assert!(caps.admit(key(&format!("made-up {n}")), LOCAL, n), "each invented page load is new");
        }
        assert_eq!(caps.len(), 4);
        assert!(!caps.admit(key("theirs"), other, 60), "the other address's page load is still capped");
        assert!(!caps.admit(key("made-up 49"), LOCAL, 60), "the address's newest is kept");
    }

    #[test]
    fn old_page_loads_are_forgotten() {
        let mut caps = PageLoadCaps::new(1);
        caps.admit(key("a"), LOCAL, 0);
        caps.prune(PAGE_LOAD_MEMORY_MS);
        assert!(caps.is_empty());
        assert!(caps.admit(PageLoadKey::of(None, "/p", "ua", Some([1, 2, 3, 4].into())), LOCAL, 0));
        assert!(!caps.admit(PageLoadKey::of(None, "/p", "ua", Some([1, 2, 3, 4].into())), LOCAL, 0));
    }
}
