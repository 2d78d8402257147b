//! Performance records (`/api/1/performance/records`) and the [`PerfCollector`]: keeps
//! the records of each `pageLoadId`, and turns the first LCP, INP, CLS, FCP and TTFB of
//! every page load into the web-vitals histograms, labelled by page path. The label set
//! is bounded: the site's known paths, else `other`.
//!
//! A record is `{pageLoadId, name, value, pagePath?, url?, rating?, navigationType?}`;
//! times are in milliseconds as the `web-vitals` library reports them, CLS unitless.
//!
//! The server runs the collector as [`PerfShards`]: N collectors, each on its own thread
//! with its share of the page-load bounds, a page load's records always going to the
//! shard its id hashes to ([`crate::telemetry::shards`]).

use std::collections::HashSet;
use std::net::IpAddr;
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message};
use serde::{Deserialize, Serialize};

use crate::store::Tree;
use crate::tables::{BoundedTable, Table};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::metrics::{self, TelemetryMetric};
use crate::telemetry::records::{now_ms, record_key, truncate_chars};
use crate::telemetry::rules::path_of;
use crate::telemetry::vitals::{PageVitals, VitalHistograms};
use crate::telemetry::writer::TelemetryWriter;

pub use shards::{PerfBusy, PerfShards};

mod shards;

/// Most records one request may carry.
pub const MAX_PERF_RECORDS: usize = 100;
/// How long a page load's records are kept in memory after its last record.
pub const PAGE_LOAD_MEMORY: Duration = Duration::from_secs(10 * 60);
/// The path label of pages outside the known set.
pub const OTHER_PATH: &str = "other";

/// One metric record of a page load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PerfRecord {
    /// The page load (from `/api/1/performance/settings`).
    pub page_load_id: String,
    /// The metric: LCP, INP, CLS, FCP, TTFB or another name.
    pub name: String,
    /// Milliseconds, or unitless for CLS.
    pub value: f64,
    /// The page's path (`pagePath`, else the path of `url`).
    #[serde(default)]
    pub page_path: Option<String>,
    /// The page's url.
    #[serde(default)]
    pub url: Option<String>,
    /// good, needs-improvement or poor.
    #[serde(default)]
    pub rating: Option<String>,
    /// navigate, reload, back-forward…
    #[serde(default)]
    pub navigation_type: Option<String>,
}

/// Why a body of performance records was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerfError {
    /// Not a JSON array of records.
    #[error("expected a JSON array of {{pageLoadId, name, value}}: {0}")]
    Malformed(String),
    /// More records than one request may carry.
    #[error("at most {MAX_PERF_RECORDS} performance records per request")]
    TooMany,
    /// A record's fields are out of range.
    #[error("record {0}: pageLoadId and name must be 1 to 64 characters and value a finite, non-negative number")]
    Invalid(usize),
}

/// Parses a JSON array of performance records.
pub fn parse_records(body: &[u8]) -> Result<Vec<PerfRecord>, PerfError> {
    let records: Vec<PerfRecord> = serde_json::from_slice(body).map_err(|e| PerfError::Malformed(e.to_string()))?;
    if records.len() > MAX_PERF_RECORDS {
        return Err(PerfError::TooMany);
    }
    records
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let ok = (1..=64).contains(&r.page_load_id.len())
                && (1..=64).contains(&r.name.len())
                && r.value.is_finite()
                && r.value >= 0.0;
            if !ok {
                return Err(PerfError::Invalid(i));
            }
            Ok(PerfRecord {
                page_path: r.page_path.map(|p| truncate_chars(&p, 2048)),
                url: r.url.map(|u| truncate_chars(&u, 2048)),
                rating: r.rating.map(|x| truncate_chars(&x, 32)),
                navigation_type: r.navigation_type.map(|x| truncate_chars(&x, 32)),
                ..r
            })
        })
        .collect()
}

/// The histogram a metric name feeds, and the factor to its unit.
fn vital(name: &str) -> Option<(TelemetryMetric, f64)> {
    match name.to_ascii_uppercase().as_str() {
        "LCP" => Some((TelemetryMetric::Lcp, 0.001)),
        "INP" => Some((TelemetryMetric::Inp, 0.001)),
        "CLS" => Some((TelemetryMetric::Cls, 1.0)),
        "FCP" => Some((TelemetryMetric::Fcp, 0.001)),
        "TTFB" => Some((TelemetryMetric::Ttfb, 0.001)),
        _ => None,
    }
}

/// What is remembered of one page load.
#[derive(Debug)]
struct PageLoad {
    /// Vitals already observed (each counted once per page load).
    observed: Vec<TelemetryMetric>,
    /// When its last record came (unix ms).
    last: u64,
}

/// Owns the page loads being measured and the bounded set of path labels.
pub struct PerfCollector {
    /// Where records go.
    writer: TelemetryWriter,
    /// Page loads by id, bounded per client address and in total.
    loads: BoundedTable<String, PageLoad>,
    /// Paths that get their own label.
    known_paths: HashSet<String>,
    /// Mailbox size; a full mailbox makes requests answer 503.
    mailbox_capacity: usize,
    /// The recent vitals per path label, for the dashboard's percentiles.
    vitals: VitalHistograms,
}

impl PerfCollector {
    /// A collector labelling `known_paths` (everything else is `other`).
    pub fn new(writer: TelemetryWriter, known_paths: HashSet<String>, limits: &TelemetryLimits) -> PerfCollector {
        PerfCollector {
            writer,
            loads: BoundedTable::new(Table::PerfPageLoads, limits.perf_page_loads, limits.perf_page_loads_per_address),
            known_paths,
            mailbox_capacity: limits.mailbox_capacity,
            vitals: VitalHistograms::new(),
        }
    }

    /// The path label of a record.
    pub fn path_label(&self, record: &PerfRecord) -> String {
        let path = record.page_path.as_deref().or(record.url.as_deref()).map(path_of).unwrap_or_default();
        if self.known_paths.contains(&path) {
            path
        } else {
            OTHER_PATH.to_string()
        }
    }

    /// Notes `records` sent by `address`; returns the histogram observations they make
    /// (metric, path, value). A new page load past the address's or the table's bound
    /// makes room by forgetting the least recently used one.
    pub fn record(&mut self, records: &[PerfRecord], address: IpAddr, now: u64) -> Vec<(TelemetryMetric, String, f64)> {
        let mut observations = Vec::new();
        for record in records {
            let label = self.path_label(record);
            if !self.loads.contains(&record.page_load_id) {
                self.loads.insert(record.page_load_id.clone(), address, PageLoad { observed: Vec::new(), last: now });
            }
            let Some(load) = self.loads.get_mut(&record.page_load_id) else { continue };
            load.last = now;
            if let Some((metric, factor)) = vital(&record.name) {
                if !load.observed.contains(&metric) {
                    load.observed.push(metric);
                    self.vitals.observe(metric, &label, record.value, now);
                    observations.push((metric, label, record.value * factor));
                }
            }
        }
        observations
    }

    /// Forgets page loads idle for [`PAGE_LOAD_MEMORY`].
    pub fn prune(&mut self, now: u64) {
        let memory = PAGE_LOAD_MEMORY.as_millis() as u64;
        self.loads.retain(|_, load| now.saturating_sub(load.last) < memory);
    }
}

impl Actor for PerfCollector {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.mailbox_capacity);
        ctx.run_interval(Duration::from_secs(60), |collector, _| collector.prune(now_ms()));
    }
}

/// Records performance records: histograms now, the records into the perf tree.
#[derive(Message)]
#[rtype(result = "()")]
pub struct RecordPerf {
    /// The records of one request.
    pub records: Vec<PerfRecord>,
    /// The client address that sent them.
    pub address: IpAddr,
}

impl Handler<RecordPerf> for PerfCollector {
    type Result = ();

    fn handle(&mut self, msg: RecordPerf, _: &mut Self::Context) {
        let now = now_ms();
        for (metric, path, value) in self.record(&msg.records, msg.address, now) {
            metrics::web_vital(metric, path, value);
        }
        if let (Some(first), Ok(value)) = (msg.records.first(), serde_json::to_vec(&msg.records)) {
            let key = [first.page_load_id.as_bytes(), b"/", &record_key(now)].concat();
            if self.writer.write(Tree::Perf, key, value).is_err() {
                // After the 202: the records are lost, not refused.
                metrics::dropped(metrics::PERF_RECORDS, metrics::WRITER_BUSY, msg.records.len());
            }
        }
    }
}

/// Returns a copy of the recent vitals' histograms (a shard's, to merge with the others').
#[derive(Message)]
#[rtype(result = "VitalHistograms")]
pub struct GetVitalHistograms;

impl Handler<GetVitalHistograms> for PerfCollector {
    type Result = actix::MessageResult<GetVitalHistograms>;

    fn handle(&mut self, _: GetVitalHistograms, _: &mut Self::Context) -> Self::Result {
        actix::MessageResult(self.vitals.clone())
    }
}

/// Returns the p75 of each web vital per page path over the recent records.
#[derive(Message)]
#[rtype(result = "Vec<PageVitals>")]
pub struct GetPageVitals;

impl Handler<GetPageVitals> for PerfCollector {
    type Result = actix::MessageResult<GetPageVitals>;

    fn handle(&mut self, _: GetPageVitals, _: &mut Self::Context) -> Self::Result {
        actix::MessageResult(self.vitals.report(now_ms()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::store::{SledStore, Store};

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn records_parse_and_out_of_range_ones_are_refused() {
        let ok =
            parse_records(br#"[{"pageLoadId":"p1","name":"LCP","value":1200.5,"pagePath":"/about"}]"#).expect("valid");
        assert_eq!(ok[0].page_path.as_deref(), Some("/about"));
        assert!(matches!(parse_records(b"{}"), Err(PerfError::Malformed(_))));
        assert_eq!(parse_records(br#"[{"pageLoadId":"","name":"LCP","value":1}]"#), Err(PerfError::Invalid(0)));
        assert_eq!(parse_records(br#"[{"pageLoadId":"p","name":"LCP","value":-1}]"#), Err(PerfError::Invalid(0)));
    }

    #[test]
    fn vitals_are_observed_once_per_page_load_with_bounded_labels() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store);
        let known = HashSet::from(["/about".to_string()]);
        let mut collector = PerfCollector::new(writer, known, &TelemetryLimits::default());
        let records = parse_records(
            br#"[{"pageLoadId":"p1","name":"LCP","value":1500,"url":"https://x.example/about?a=1"},
                 {"pageLoadId":"p1","name":"CLS","value":0.25,"pagePath":"/nowhere"},
                 {"pageLoadId":"p1","name":"LCP","value":1700,"pagePath":"/about"},
                 {"pageLoadId":"p1","name":"custom","value":3}]"#,
        )
        .expect("valid");
        let seen = collector.record(&records, LOCAL, 0);
        assert_eq!(
            seen,
            vec![(TelemetryMetric::Lcp, "/about".to_string(), 1.5), (TelemetryMetric::Cls, "other".to_string(), 0.25)]
        );
        let report = collector.vitals.report(0);
        assert_eq!(report.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), vec!["/about", "other"]);
        assert_eq!(report[0].lcp.map(|v| (v.p75, v.count)), Some((1500.0, 1)), "the first LCP of the page load only");
        collector.prune(PAGE_LOAD_MEMORY.as_millis() as u64);
        assert_eq!(collector.record(&records[..1], LOCAL, 0).len(), 1, "a forgotten page load counts again");
    }

    #[test]
    fn page_loads_are_bounded_per_address_and_in_total() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let limits =
            TelemetryLimits { perf_page_loads: 5, perf_page_loads_per_address: 3, ..TelemetryLimits::default() };
        let mut collector = PerfCollector::new(TelemetryWriter::start(store), HashSet::new(), &limits);
        let lcp = |id: &str| parse_records(format!(r#"[{{"pageLoadId":"{id}","name":"LCP","value":1}}]"#).as_bytes());
        let other = IpAddr::from([10, 0, 0, 2]);
        assert_eq!(collector.record(&lcp("theirs").expect("valid"), other, 0).len(), 1);
        for n in 0..50 {
            collector.record(&lcp(&format!("flood{n}")).expect("valid"), LOCAL, n);
        }
        assert_eq!(collector.loads.len(), 4, "three of the flooding address, one of the other");
        assert_eq!(collector.record(&lcp("theirs").expect("valid"), other, 60).len(), 0, "still remembered");
        assert_eq!(collector.record(&lcp("flood0").expect("valid"), LOCAL, 60).len(), 1, "forgotten: counts again");
        for n in 0..5u8 {
            collector.record(&lcp(&format!("crowd{n}")).expect("valid"), IpAddr::from([10, 1, 0, n]), 70);
        }
        assert_eq!(collector.loads.len(), 5, "the table's total bound");
    }
}
