//! [`BoundedTable`]: an in-memory table whose keys a visitor chooses (a page-load id, a
//! visitor id), bounded per client address and in total. An address past its bound loses
//! its own least recently used entry; a full table loses its least recently used entry
//! whatever its address. Nobody is ever refused: a flood only shortens what is
//! remembered, and mostly the flooder's own entries.
//!
//! Each table's size is the gauge [`ENTRIES_METRIC`] and its evictions the counter
//! [`EVICTIONS_METRIC`], labelled by [`Table`] (and [`Eviction`]); [`export_at_zero`]
//! exports every series from start-up.

use std::collections::HashMap;

mod bounded;
mod recency;

pub use bounded::{BoundedTable, Evicted};

/// Entries of each in-memory table, by `table`.
pub const ENTRIES_METRIC: &str = "veranda_memory_table_entries";
/// Entries evicted from each in-memory table, by `table` and `reason`.
pub const EVICTIONS_METRIC: &str = "veranda_memory_table_evictions_total";

/// The bounded in-memory tables: the `table` label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// The performance collector's page loads.
    PerfPageLoads,
    /// The error cap's page loads.
    ErrorPageLoads,
    /// The live visitor sessions.
    VisitorSessions,
    /// The live cart actors.
    CartActors,
}

impl Table {
    /// Every table.
    pub const ALL: [Table; 4] =
        [Table::PerfPageLoads, Table::ErrorPageLoads, Table::VisitorSessions, Table::CartActors];

    /// The label value.
    pub const fn label(self) -> &'static str {
        match self {
            Table::PerfPageLoads => "perf_page_loads",
            Table::ErrorPageLoads => "error_page_loads",
            Table::VisitorSessions => "visitor_sessions",
            Table::CartActors => "cart_actors",
        }
    }
}

/// Why an entry left a table early: the `reason` label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eviction {
    /// Its address had too many entries.
    PerAddress,
    /// The table was full.
    Total,
}

impl Eviction {
    /// Every reason.
    pub const ALL: [Eviction; 2] = [Eviction::PerAddress, Eviction::Total];

    /// The label value.
    pub const fn label(self) -> &'static str {
        match self {
            Eviction::PerAddress => "per_address",
            Eviction::Total => "total",
        }
    }
}

/// Registers the help texts and exports every table's size and evictions at zero.
pub fn export_at_zero() {
    metrics::describe_gauge!(ENTRIES_METRIC, "Entries held by each bounded in-memory table.");
    metrics::describe_counter!(
        EVICTIONS_METRIC,
        "Entries evicted from each bounded in-memory table, least recently used first, by reason (per_address or total)."
    );
    for table in Table::ALL {
        metrics::gauge!(ENTRIES_METRIC, "table" => table.label()).set(0.0);
        for reason in Eviction::ALL {
            metrics::counter!(EVICTIONS_METRIC, "table" => table.label(), "reason" => reason.label()).increment(0);
        }
    }
}

/// Sets `table`'s size (a table kept whole in one place).
pub fn set_entries(table: Table, count: usize) {
    metrics::gauge!(ENTRIES_METRIC, "table" => table.label()).set(count as f64);
}

/// Adds `change` (negative when entries left) to `table`'s size.
pub(super) fn add_entries(table: Table, change: f64) {
    HANDLES.with(|handles| handles[table as usize].0.increment(change));
}

/// Counts one entry evicted from `table`.
pub fn count_eviction(table: Table, reason: Eviction) {
    HANDLES.with(|handles| handles[table as usize].1[reason as usize].increment(1));
}

thread_local! {
    /// Each table's entries gauge and evictions counters (in [`Table::ALL`] and
    /// [`Eviction::ALL`] order), looked up once per thread: a lookup in the registry hashes
    /// every label, and a full table evicts on every insert.
    static HANDLES: [(metrics::Gauge, [metrics::Counter; 2]); 4] = Table::ALL.map(|table| {
        let evictions = Eviction::ALL
            .map(|reason| metrics::counter!(EVICTIONS_METRIC, "table" => table.label(), "reason" => reason.label()));
        (metrics::gauge!(ENTRIES_METRIC, "table" => table.label()), evictions)
    });
}

/// A map the request paths look up on every request, hashed as the bounded tables' keys
/// are: foldhash (hashbrown's default, through `lru`), seeded at random per process, where
/// std's SipHash costs about 200 instructions a short key. Keys a visitor chooses are no
/// easier to collide here than in the tables themselves.
pub type FastMap<K, V> = HashMap<K, V, lru::DefaultHasher>;

/// A set hashed as [`FastMap`] is.
pub type FastSet<K> = std::collections::HashSet<K, lru::DefaultHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_table_and_reason_finds_its_own_metric_handles() {
        assert!(Table::ALL.iter().enumerate().all(|(i, t)| *t as usize == i), "handles are indexed in ALL order");
        assert!(Eviction::ALL.iter().enumerate().all(|(i, r)| *r as usize == i), "handles are indexed in ALL order");
    }
}
