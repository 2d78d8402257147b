//! # Page views
//!
//! What the census ingest counts as it records each page view, so the dashboard's figures
//! never scan the census tree. Everything lives in memory and starts at zero when the
//! server starts.
//!
//! - [`counter`]: [`PageViewCounter`], the one counter the ingest feeds: views today and in
//!   the last hour, and the series and top lists below.
//! - [`ring`]: [`ring::Ring`], consecutive hour or day buckets in fixed memory.
//! - [`range`]: [`StatsRange`], `24h` (per hour) or `30d` (per UTC day).
//! - [`series`]: page views and distinct visitors per bucket.
//! - [`top`]: views per page path and per referring site, a bounded number of keys per bucket.

pub mod counter;
pub mod range;
pub mod ring;
pub mod series;
pub mod top;

pub use counter::{PageView, PageViewCounter, PageViews, VisitorStats};
pub use range::{BadRange, StatsRange};
pub use series::{TrafficPoint, TrafficReport};
pub use top::{KeyCount, KeyTable, TopReport};
