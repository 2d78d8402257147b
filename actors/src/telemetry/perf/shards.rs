//! [`PerfShards`]: the performance collector as N [`PerfCollector`] actors, each on its
//! own arbiter (thread) with its share of `[telemetry] perf_page_loads` and
//! `perf_page_loads_per_address`. A request's records go to the shard their page load id
//! hashes to (a body naming several page loads is split), so each page load's first
//! vitals are counted once; the dashboard's p75 merges every shard's histograms.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;

use actix::{Actor, Addr, MailboxError};

use super::{GetVitalHistograms, PerfCollector, PerfRecord, RecordPerf};
use crate::telemetry::limits::TelemetryLimits;
use crate::telemetry::page_views::StatsRange;
use crate::telemetry::records::now_ms;
use crate::telemetry::shards::{shard_count, shard_of, start_on_arbiters, Arbiters};
use crate::telemetry::vitals::{PageVitals, VitalHistograms, VitalSeriesReport};
use crate::telemetry::writer::TelemetryWriter;

/// A shard's mailbox is full: the records it was to take are not recorded (503).
#[derive(Debug, thiserror::Error)]
#[error("the performance collector is busy")]
pub struct PerfBusy;

/// The performance-collector shards; clones share them.
#[derive(Clone)]
pub struct PerfShards {
    /// The shards' actors, by number.
    shards: Arc<[Addr<PerfCollector>]>,
    /// The threads the shards run on (kept for as long as the shards are).
    _arbiters: Arc<Arbiters>,
}

impl PerfShards {
    /// Starts `[telemetry] shards` collectors (see [`shard_count`]) labelling
    /// `known_paths`, each on a new arbiter; call inside the actix system.
    pub fn start(writer: TelemetryWriter, known_paths: HashSet<String>, limits: &TelemetryLimits) -> PerfShards {
        let count = shard_count(limits.shards).max(1);
        let share = limits.shard(count);
        let (shards, arbiters) = start_on_arbiters(count, |arbiter| {
            let collector = PerfCollector::new(writer.clone(), known_paths.clone(), &share);
            PerfCollector::start_in_arbiter(arbiter, move |_| collector)
        });
        PerfShards { shards, _arbiters: arbiters }
    }

    /// How many shards there are.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// Whether there is none (never: at least one is started).
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }

    /// The shard of the page load `page_load_id`.
    pub fn shard_of(&self, page_load_id: &str) -> usize {
        shard_of(page_load_id.as_bytes(), self.shards.len())
    }

    /// Hands `records` from `address` to their page loads' shards without waiting;
    /// refused when a shard's mailbox is full (the records of other shards in the same
    /// body are then recorded all the same).
    pub fn offer(&self, records: Vec<PerfRecord>, address: IpAddr) -> Result<(), PerfBusy> {
        let mut by_shard: Vec<(usize, Vec<PerfRecord>)> = Vec::new();
        for record in records {
            let shard = self.shard_of(&record.page_load_id);
            match by_shard.iter_mut().find(|(s, _)| *s == shard) {
                Some((_, records)) => records.push(record),
                None => by_shard.push((shard, vec![record])),
            }
        }
        let mut busy = false;
        for (shard, records) in by_shard {
            busy |= self.shards[shard].try_send(RecordPerf { records, address }).is_err();
        }
        if busy {
            Err(PerfBusy)
        } else {
            Ok(())
        }
    }

    /// The p75 of each web vital per page path over every shard's recent records.
    pub async fn page_vitals(&self) -> Result<Vec<PageVitals>, MailboxError> {
        // Every shard is asked before any answer is awaited.
        let asked: Vec<_> = self.shards.iter().map(|shard| shard.send(GetVitalHistograms)).collect();
        let now = now_ms();
        let mut all = VitalHistograms::new();
        for answer in asked {
            all.merge(answer.await?, now);
        }
        Ok(all.report(now))
    }

    /// Every page's p75 of each vital per bucket of `range`, from every shard's series.
    pub async fn vital_series(&self, range: StatsRange) -> Result<VitalSeriesReport, MailboxError> {
        let asked: Vec<_> = self.shards.iter().map(|shard| shard.send(GetVitalHistograms)).collect();
        let now = now_ms();
        let mut all = VitalHistograms::new();
        for answer in asked {
            all.merge(answer.await?, now);
        }
        Ok(all.series(range, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{SledStore, Store, Tree};
    use crate::telemetry::perf::parse_records;

    fn sharded(limits: TelemetryLimits) -> (tempfile::TempDir, Arc<dyn Store>, TelemetryWriter, PerfShards) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let writer = TelemetryWriter::start(store.clone());
        let known = HashSet::from(["/about".to_string()]);
        let shards = PerfShards::start(writer.clone(), known, &limits);
        (dir, store, writer, shards)
    }

    fn lcp(load: &str, value: u32) -> Vec<PerfRecord> {
        let body = format!(r#"[{{"pageLoadId":"{load}","name":"LCP","value":{value},"pagePath":"/about"}}]"#);
        parse_records(body.as_bytes()).expect("valid")
    }

    /// Offers `records` until their shards have room: a shard's mailbox is bounded, and a
    /// record offered twice counts once (a page load's second LCP is not counted).
    async fn offer(shards: &PerfShards, records: Vec<PerfRecord>, address: IpAddr) {
        for _ in 0..200 {
            if shards.offer(records.clone(), address).is_ok() {
                return;
            }
            actix::clock::sleep(std::time::Duration::from_millis(5)).await;
        }
        panic!("no room in a shard for a second");
    }

    #[actix::test]
    async fn a_page_load_counts_once_whatever_its_shard_and_the_vitals_merge() {
        let (_dir, store, writer, shards) = sharded(TelemetryLimits { shards: 4, ..TelemetryLimits::default() });
        let address = IpAddr::from([10, 0, 0, 1]);
        let loads: Vec<String> = (0..20).map(|n| format!("load-{n}")).collect();
        let homes: HashSet<usize> = loads.iter().map(|l| shards.shard_of(l)).collect();
        assert_eq!(homes.len(), 4, "twenty page loads spread over the four shards");
        for load in &loads {
            offer(&shards, lcp(load, 1_000), address).await;
            offer(&shards, lcp(load, 9_000), address).await;
        }
        // One body naming two page loads is split between their shards.
        let mut both = lcp("load-0", 9_000);
        both.extend(lcp("split-load", 1_000));
        offer(&shards, both, address).await;
        let pages = shards.page_vitals().await.expect("answers");
        assert_eq!(pages.len(), 1);
        let lcp = pages[0].lcp.expect("LCP measured");
        assert_eq!((pages[0].path.as_str(), lcp.count, lcp.p75), ("/about", 21, 1_000.0));
        // Each shard wrote before it answered: the writes are queued.
        writer.drained().await;
        let stored = store.scan_prefix(Tree::Perf, b"", 100).expect("scans");
        assert_eq!(stored.len(), 42, "every request's records are written, the split body in two");
    }
}
