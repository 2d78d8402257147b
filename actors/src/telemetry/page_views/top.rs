//! [`TopKeys`]: page views per page path and per referring site, per hour for the last 24
//! hours and per UTC day for the last 30 days.
//!
//! Each bucket counts at most [`MAX_KEYS_PER_HOUR`] (or [`MAX_KEYS_PER_DAY`]) distinct
//! paths and as many referring sites; a view of a further key is not counted in that
//! bucket and is counted on `veranda_stats_keys_dropped_total{table}` instead.

use std::collections::HashMap;

use crate::tables::FastMap;

use ts_rs::TS;

use super::range::{StatsRange, DAYS, DAY_MS, HOURS, HOUR_MS};
use super::ring::Ring;
pub use crate::telemetry::metrics::KeyTable;
use crate::telemetry::records::{chars_prefix, truncate_chars};

/// Distinct paths (and referring sites) one hour's bucket counts.
pub const MAX_KEYS_PER_HOUR: usize = 250;

/// Distinct paths (and referring sites) one day's bucket counts.
pub const MAX_KEYS_PER_DAY: usize = 1_000;

/// The longest key kept, in characters; longer paths are cut.
pub const MAX_KEY_CHARS: usize = 200;

/// How many keys a top list gives.
pub const TOP_KEYS: usize = 10;

/// One line of a top list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, TS)]
pub struct KeyCount {
    /// The page path or referring site.
    pub key: String,
    /// Page views.
    pub count: u64,
}

/// The answer of `GET /api/stats/top`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, TS)]
pub struct TopReport {
    /// The window counted.
    pub range: StatsRange,
    /// The most viewed page paths, most first.
    pub pages: Vec<KeyCount>,
    /// The sites that sent the most page views, most first.
    pub referrers: Vec<KeyCount>,
}

#[derive(Debug, Default)]
struct Bucket {
    pages: FastMap<String, u64>,
    referrers: FastMap<String, u64>,
}

/// Adds one view of `key` to `counts` unless it would be its `cap + 1`th key; false when dropped.
fn add(counts: &mut FastMap<String, u64>, key: &str, cap: usize) -> bool {
    if let Some(n) = counts.get_mut(key) {
        *n += 1;
        return true;
    }
    if counts.len() >= cap {
        return false;
    }
    counts.insert(key.to_string(), 1);
    true
}

/// The referring site of a page view: the host of `referrer` when it is another site's
/// than `page_url`'s; `None` for direct visits and moves within the site.
pub fn referring_site(referrer: &str, page_url: &str) -> Option<String> {
    let from = url::Url::parse(referrer).ok()?;
    let host = from.host_str()?.trim_start_matches("www.");
    let own = url::Url::parse(page_url).ok();
    let own = own.as_ref().and_then(|u| u.host_str()).map(|h| h.trim_start_matches("www."));
    (own != Some(host)).then(|| truncate_chars(host, MAX_KEY_CHARS))
}

/// The hourly and daily rings of counts by page path and by referring site.
#[derive(Debug)]
pub struct TopKeys {
    hours: Ring<Bucket, HOURS>,
    days: Ring<Bucket, DAYS>,
}

impl Default for TopKeys {
    fn default() -> TopKeys {
        TopKeys { hours: Ring::new(HOUR_MS), days: Ring::new(DAY_MS) }
    }
}

impl TopKeys {
    /// Counts one view of `path`, sent by `referrer` (a referring site) when known, at
    /// `now`; calls `dropped` once per bucket that had no room for a key.
    pub fn record(&mut self, now: u64, path: &str, referrer: Option<&str>, mut dropped: impl FnMut(KeyTable)) {
        let path = chars_prefix(path, MAX_KEY_CHARS);
        let buckets = [(self.hours.at(now), MAX_KEYS_PER_HOUR), (self.days.at(now), MAX_KEYS_PER_DAY)];
        for (bucket, cap) in buckets {
            let Some(bucket) = bucket else { continue };
            if !add(&mut bucket.pages, path, cap) {
                dropped(KeyTable::Pages);
            }
            if let Some(site) = referrer {
                if !add(&mut bucket.referrers, site, cap) {
                    dropped(KeyTable::Referrers);
                }
            }
        }
    }

    /// The top [`TOP_KEYS`] paths and referring sites over `range` up to `now`.
    pub fn report(&self, range: StatsRange, now: u64) -> TopReport {
        let buckets: Vec<&Bucket> = match range {
            StatsRange::Hours => self.hours.window(now).filter_map(|(_, b)| b).collect(),
            StatsRange::Days => self.days.window(now).filter_map(|(_, b)| b).collect(),
        };
        let mut pages = HashMap::<&str, u64>::new();
        let mut referrers = HashMap::<&str, u64>::new();
        for bucket in buckets {
            for (k, n) in &bucket.pages {
                *pages.entry(k).or_default() += n;
            }
            for (k, n) in &bucket.referrers {
                *referrers.entry(k).or_default() += n;
            }
        }
        TopReport { range, pages: top(pages), referrers: top(referrers) }
    }
}

/// The [`TOP_KEYS`] largest counts, most first, then by key.
fn top(counts: HashMap<&str, u64>) -> Vec<KeyCount> {
    let mut all: Vec<_> = counts.into_iter().collect();
    all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    all.into_iter().take(TOP_KEYS).map(|(key, count)| KeyCount { key: key.to_string(), count }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(list: &[KeyCount]) -> Vec<(&str, u64)> {
        list.iter().map(|k| (k.key.as_str(), k.count)).collect()
    }

    #[test]
    fn paths_and_referring_sites_are_ranked_over_the_range() {
        let mut top = TopKeys::default();
        let midnight = 20_000 * DAY_MS;
        let none = |_: KeyTable| panic!("nothing dropped");
        top.record(midnight - 2 * DAY_MS, "/old", None, none);
        top.record(midnight + 1, "/", Some("google.com"), none);
        top.record(midnight + 2, "/about", Some("google.com"), none);
        top.record(midnight + 3, "/about", Some("duckduckgo.com"), none);
        let day = top.report(StatsRange::Hours, midnight + 5);
        assert_eq!(keys(&day.pages), [("/about", 2), ("/", 1)]);
        assert_eq!(keys(&day.referrers), [("google.com", 2), ("duckduckgo.com", 1)]);
        let month = top.report(StatsRange::Days, midnight + 5);
        assert_eq!(keys(&month.pages), [("/about", 2), ("/", 1), ("/old", 1)]);
        assert!(top.report(StatsRange::Hours, midnight + 25 * HOUR_MS).pages.is_empty());
    }

    #[test]
    fn a_bucket_counts_a_bounded_number_of_keys_and_reports_the_rest_dropped() {
        let mut top = TopKeys::default();
        let at = 20_000 * DAY_MS;
        let mut dropped = Vec::new();
        for i in 0..=250 {
            top.record(at, &format!("/p{i}"), None, |t| dropped.push(t));
        }
        assert_eq!(dropped, [KeyTable::Pages], "the hour holds 250 paths, the day still has room");
        top.record(at, "/p0", None, |t| dropped.push(t));
        assert_eq!(dropped.len(), 1, "a known path is still counted");
        let report = top.report(StatsRange::Hours, at);
        assert_eq!(report.pages.len(), 10);
        assert_eq!(keys(&report.pages[..1]), [("/p0", 2)]);
        for i in 0..1_000 {
            top.record(at, &format!("/q{i}"), None, |t| dropped.push(t));
        }
        // Each of the 1,000 new paths had no room in the hour; the day (1,000 paths) filled after 749 of them.
        assert_eq!(dropped.len(), 1 + 1_000 + 251);
        let long = "/x".repeat(300);
        assert_eq!(truncate_chars(&long, MAX_KEY_CHARS).chars().count(), 200);
    }

    #[test]
    fn the_referring_site_is_another_sites_host() {
        let page = "https://example.com/about";
        assert_eq!(referring_site("https://www.google.com/search?q=x", page).as_deref(), Some("google.com"));
        assert_eq!(referring_site("https://example.com/", page), None);
        assert_eq!(referring_site("https://www.example.com/", page), None);
        assert_eq!(referring_site("", page), None);
        assert_eq!(referring_site("not a url", page), None);
    }
}
