//! [`PageViewCounter`]: page views today (UTC) and in the last hour, counted by the census
//! ingest as each page view is recorded, so reading them never scans the census tree.
//!
//! The counts live in memory: one count per minute for the last 60 minutes and one for the
//! current UTC day. They start at zero when the server starts.

use std::sync::Mutex;

use ts_rs::TS;

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

/// Counts page views as they are recorded; shared by the ingest workers.
#[derive(Debug, Default)]
pub struct PageViewCounter {
    counts: Mutex<Counts>,
}

impl PageViewCounter {
    /// No views yet.
    pub fn new() -> PageViewCounter {
        PageViewCounter::default()
    }

    /// Counts one page view at `now` (unix ms).
    pub fn record(&self, now: u64) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
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
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
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
