//! [`PageViewCounter`]: page views today (UTC) and in the last hour, counted by the census
//! ingest as each page view is recorded, so reading them never scans the census tree; it
//! also feeds the hourly and daily [`TrafficSeries`] and [`TopKeys`].
//!
//! The counts live in memory: one count per minute for the last 60 minutes and one for the
//! current UTC day. They start at zero when the server starts.

use std::sync::{Mutex, MutexGuard};

use ts_rs::TS;

use super::range::StatsRange;
use super::series::{TrafficReport, TrafficSeries};
use super::top::{referring_site, TopKeys, TopReport};
use crate::telemetry::metrics::TelemetryMetric;

/// Milliseconds in a minute.
const MINUTE_MS: u64 = 60_000;

/// Milliseconds in a day.
const DAY_MS: u64 = 86_400_000;

/// Minutes in the last-hour window.
const HOUR_MINUTES: usize = 60;

/// The dashboard's visitor figures (`GET /api/stats/visitors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VisitorStats {
    /// Visitors seen in the last five minutes.
    pub live_visitors: usize,
    /// Page views counted by the census ingest.
    pub page_views: PageViews,
}

/// Page views today and in the last hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageViews {
    /// Since midnight UTC.
    pub today: u64,
    /// In the last 60 minutes.
    pub last_hour: u64,
}

#[derive(Debug)]
struct Counts {
    /// `(minute number, views)` per slot, slot = minute % 60.
    minutes: [(u64, u64); HOUR_MINUTES],
    /// The UTC day number of `today`.
    day: u64,
    /// Views on `day`.
    today: u64,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts { minutes: [(0, 0); HOUR_MINUTES], day: 0, today: 0 }
    }
}

/// One page view, as the census ingest records it.
#[derive(Debug, Clone, Copy)]
pub struct PageView<'a> {
    /// When (unix ms).
    pub at: u64,
    /// The page URL the view names.
    pub url: &'a str,
    /// The page path.
    pub path: &'a str,
    /// The visitor id, when identifiers may be stored.
    pub visitor: Option<&'a str>,
    /// `document.referrer`, when the page sent one.
    pub referrer: Option<&'a str>,
}

/// Counts page views as they are recorded; shared by the ingest workers.
#[derive(Debug, Default)]
pub struct PageViewCounter {
    counts: Mutex<Counts>,
    /// Views and visitors per hour and per day.
    series: Mutex<TrafficSeries>,
    /// Views per path and per referring site, per hour and per day.
    top: Mutex<TopKeys>,
}

/// `mutex`'s value, also after a panic elsewhere (the counts stay usable).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl PageViewCounter {
    /// No views yet.
    pub fn new() -> PageViewCounter {
        PageViewCounter::default()
    }

    /// Counts one page view everywhere: today, the last hour, the series and the top lists.
    pub fn record_view(&self, view: &PageView<'_>) {
        self.record(view.at);
        lock(&self.series).record(view.at, view.visitor);
        let site = view.referrer.and_then(|r| referring_site(r, view.url));
        lock(&self.top).record(view.at, view.path, site.as_deref(), |table| {
            metrics::counter!(TelemetryMetric::StatsKeysDropped.name(), "table" => table.label()).increment(1);
        });
    }

    /// Page views and visitors per bucket of `range`, up to `now`.
    pub fn series(&self, range: StatsRange, now: u64) -> TrafficReport {
        lock(&self.series).report(range, now)
    }

    /// The most viewed paths and the top referring sites over `range`, up to `now`.
    pub fn top(&self, range: StatsRange, now: u64) -> TopReport {
        lock(&self.top).report(range, now)
    }

    /// Counts one page view at `now` (unix ms) in today's and the last hour's views.
    pub fn record(&self, now: u64) {
        let mut counts = lock(&self.counts);
        let minute = now / MINUTE_MS;
        let slot = &mut counts.minutes[(minute % HOUR_MINUTES as u64) as usize];
        if slot.0 != minute {
            *slot = (minute, 0);
        }
        slot.1 += 1;
        let day = now / DAY_MS;
        if counts.day != day {
            counts.day = day;
            counts.today = 0;
        }
        counts.today += 1;
    }

    /// The views today and in the 60 minutes up to `now`.
    pub fn read(&self, now: u64) -> PageViews {
        let counts = lock(&self.counts);
        let minute = now / MINUTE_MS;
        let oldest = minute.saturating_sub(HOUR_MINUTES as u64 - 1);
        let last_hour = counts.minutes.iter().filter(|(m, _)| *m >= oldest && *m <= minute).map(|(_, n)| n).sum();
        let today = if counts.day == now / DAY_MS { counts.today } else { 0 };
        PageViews { today, last_hour }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_count_today_and_within_the_last_hour_only() {
        let counter = PageViewCounter::new();
        let midnight = 20_000 * DAY_MS;
        counter.record(midnight - 1);
        counter.record(midnight + 1);
        counter.record(midnight + 45 * MINUTE_MS);
        counter.record(midnight + 90 * MINUTE_MS);
        assert_eq!(counter.read(midnight + 90 * MINUTE_MS), PageViews { today: 3, last_hour: 2 });
        assert_eq!(counter.read(midnight + 150 * MINUTE_MS), PageViews { today: 3, last_hour: 0 });
        assert_eq!(counter.read(midnight + DAY_MS), PageViews { today: 0, last_hour: 0 });
        counter.record(midnight + DAY_MS);
        assert_eq!(counter.read(midnight + DAY_MS).today, 1);
    }
}
