//! The server processes a run measures (one, or several instances sharing one Redis, each
//! with its descendants): resident memory before the sockets open and at peak (sampled
//! every 250 ms), and CPU time from just before the first event to the end of the run.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::procfs::{cpu_tree_ms, rss_tree_kib};

/// What one server process (with its descendants) used in a run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Usage {
    /// Resident memory before the sockets opened, KiB.
    pub(crate) rss_idle_kib: Option<u64>,
    /// The highest resident memory sampled, KiB.
    pub(crate) rss_peak_kib: u64,
    /// CPU time (user + system) from [`Meters::start_cpu`] to [`Meters::finish`], ms.
    pub(crate) cpu_ms: Option<u64>,
}

/// Samples the memory of every measured process until [`Meters::finish`].
pub(crate) struct Meters {
    /// The measured processes, one per instance.
    pids: Vec<u32>,
    /// Memory of each before the sockets opened, KiB.
    idle: Vec<Option<u64>>,
    /// The peak memory of each so far, KiB.
    peaks: Arc<Vec<AtomicU64>>,
    /// CPU time of each at [`Meters::start_cpu`], ms.
    cpu_before: Vec<Option<u64>>,
    /// The sampling task.
    sampler: Option<tokio::task::JoinHandle<()>>,
}

impl Meters {
    /// Reads every process's memory now and samples it every 250 ms from now on.
    pub(crate) fn start(pids: &[u32]) -> Meters {
        let idle: Vec<Option<u64>> = pids.iter().map(|&pid| rss_tree_kib(pid)).collect();
        let peaks: Arc<Vec<AtomicU64>> = Arc::new(idle.iter().map(|kib| AtomicU64::new(kib.unwrap_or(0))).collect());
        let sampler = (!pids.is_empty()).then(|| {
            let (pids, peaks) = (pids.to_vec(), peaks.clone());
            tokio::spawn(async move {
                loop {
                    let pids = pids.clone();
                    let now = tokio::task::spawn_blocking(move || pids.iter().map(|&p| rss_tree_kib(p)).collect())
                        .await
                        .unwrap_or_else(|_| Vec::new());
                    for (peak, rss) in peaks.iter().zip(now) {
                        peak.fetch_max(rss.unwrap_or(0), Ordering::Relaxed);
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            })
        });
        Meters { pids: pids.to_vec(), idle, peaks, cpu_before: Vec::new(), sampler }
    }

    /// Reads every process's CPU time: the start of the measured window.
    pub(crate) fn start_cpu(&mut self) {
        self.cpu_before = self.pids.iter().map(|&pid| cpu_tree_ms(pid)).collect();
    }

    /// Stops sampling; what each process used, in the order of the pids given.
    pub(crate) fn finish(self) -> Vec<Usage> {
        if let Some(sampler) = &self.sampler {
            sampler.abort();
        }
        self.pids
            .iter()
            .enumerate()
            .map(|(i, &pid)| {
                let before = self.cpu_before.get(i).copied().flatten();
                Usage {
                    rss_idle_kib: self.idle[i],
                    rss_peak_kib: self.peaks[i].load(Ordering::Relaxed),
                    cpu_ms: cpu_tree_ms(pid).zip(before).map(|(after, before)| after.saturating_sub(before)),
                }
            })
            .collect()
    }
}

/// The instance subscriber `n` connects to, of `instances`: evenly, in turn.
pub(crate) fn instance_of(n: usize, instances: usize) -> usize {
    n % instances.max(1)
}

/// `values` joined by `/` (one per instance), for a RESULT field.
pub(crate) fn per_instance<T: std::fmt::Display>(values: impl IntoIterator<Item = T>) -> String {
    values.into_iter().map(|v| v.to_string()).collect::<Vec<_>>().join("/")
}
