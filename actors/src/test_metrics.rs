//! A metrics recorder for tests: install it as the thread's local recorder
//! (`metrics::with_local_recorder`) and read back what the code under test counted and set.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The counters and gauges registered on the thread it is the local recorder of, by name
/// (labels are not told apart). Histograms are not kept.
#[derive(Default)]
pub struct Recorded(Mutex<HashMap<String, Arc<AtomicU64>>>);

impl Recorded {
    /// The counter `name` (0 when never registered).
    pub fn counter(&self, name: &str) -> u64 {
        self.cell(name).map_or(0, |n| n.load(Ordering::Relaxed))
    }

    /// The gauge `name` (`None` when never registered).
    pub fn gauge(&self, name: &str) -> Option<f64> {
        self.cell(name).map(|n| f64::from_bits(n.load(Ordering::Relaxed)))
    }

    fn cell(&self, name: &str) -> Option<Arc<AtomicU64>> {
        self.0.lock().expect("not poisoned").get(name).cloned()
    }

    fn register(&self, key: &metrics::Key) -> Arc<AtomicU64> {
        self.0.lock().expect("not poisoned").entry(key.name().to_owned()).or_default().clone()
    }
}

/// Runs `future` to its end on a runtime of this thread, with a fresh recorder as the
/// thread's local one; returns what it counted and set.
pub fn recorded_while(future: impl std::future::Future) -> Recorded {
    let recorded = Recorded::default();
    metrics::with_local_recorder(&recorded, || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(future);
    });
    recorded
}

impl metrics::Recorder for Recorded {
    fn describe_counter(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
    fn describe_gauge(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
    fn describe_histogram(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}

    fn register_counter(&self, key: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Counter {
        metrics::Counter::from_arc(self.register(key))
    }

    fn register_gauge(&self, key: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Gauge {
        metrics::Gauge::from_arc(self.register(key))
    }

    fn register_histogram(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Histogram {
        metrics::Histogram::noop()
    }
}
