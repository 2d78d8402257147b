//! # Visitor telemetry
//!
//! The domain logic and actors behind the ingest routes: census hits and visitor
//! sessions, JavaScript error reports, trace logs and performance records. Every write
//! goes through the [`TelemetryWriter`] to a telemetry tree of the store (acknowledged once
//! queued, on disk within [`records::TELEMETRY_LOSS_WINDOW`]).
//!
//! ## Actors
//!
//! - [`VisitorSessions`]: the live visitor sessions (visit count, first/previous/current
//!   visit, pages in this visit), one map entry per visitor id; idle entries are dropped
//!   after the 30-minute visit boundary and rehydrated from the store on the next hit.
//!   It also writes census hits.
//! - [`ErrorQueue`]: JavaScript error records. Caps sends per page load, trims stacks,
//!   writes in batches every second, groups errors by fingerprint and publishes every
//!   new error and group change on the in-process [`TelemetryEvent`] stream.
//! - [`TraceFlusher`]: buffers trace-log entries; flushes every 30 s, when full and on
//!   shutdown. Each request's entries are journaled through the [`TelemetryWriter`]
//!   before its 202, so a crash loses no more of them than of any other telemetry; the
//!   journal left by a crash is replayed on start ([`traces`]).
//! - [`TelemetryWriter`] (a thread, not an actor): writes every telemetry record to the
//!   store, off the actors' and the requests' threads.
//! - [`PerfCollector`]: performance records per `pageLoadId`; feeds the web-vitals
//!   histograms, labelled by a bounded set of page paths, and the site's vitals per hour
//!   and per day ([`vital_series`]).
//!
//! ## Plain modules
//!
//! - [`cookie`]: `ss_cvr` / `ss_cvt` parsing and the visit rule.
//! - [`rules`]: when visitor analytics are recorded (spec 000 §6).
//! - [`session_ids`]: the `SS_SESSION_ID` and `SS_ANALYTICS_ID` identifiers.
//! - [`errors`]: error records, fingerprints, groups and the per-page-load cap.
//! - [`census`]: how census hits are stored, a writer round's hits as one record.
//! - [`records`]: record keys and the clock; [`stored`]: the visitor-session and
//!   error-group records retention reads back.
//! - [`capacity`]: the size limit, which drops the oldest records once the telemetry
//!   trees hold more than `max_stored_mb` (run on the [`TelemetryWriter`]'s thread).
//! - [`retention`]: the sweep that removes telemetry older than `retention_days` (run on
//!   the [`TelemetryWriter`]'s thread).
//! - [`metrics`]: the ingest metrics, documented once.
//! - [`page_views`]: the page views, visitors, top pages and referrers the census ingest
//!   counts for the dashboard, per hour and per day.
//! - [`limits`]: the tunable limits (part of the server settings).
//! - [`shards`]: how the visitor sessions and the performance collector are split into
//!   shards ([`VisitorShards`], [`PerfShards`]), one actor per shard, by a hash of the
//!   visitor id or page load id.

pub mod capacity;
pub mod census;
pub mod cookie;
pub mod errors;
pub mod events;
pub mod limits;
pub mod metrics;
pub mod page_views;
pub mod perf;
pub mod records;
pub mod retention;
pub mod rules;
pub mod session_ids;
pub mod shards;
pub mod stored;
pub mod traces;
pub mod visitor;
pub mod vital_buckets;
pub mod vital_series;
pub mod vitals;
pub mod writer;

pub use errors::ErrorQueue;
pub use events::TelemetryEvent;
pub use limits::TelemetryLimits;
pub use perf::{PerfCollector, PerfShards};
pub use traces::TraceFlusher;
pub use visitor::{VisitorSessions, VisitorShards};
pub use writer::TelemetryWriter;
