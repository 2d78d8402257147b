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
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroUsize;

use lru::LruCache;

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
fn add_entries(table: Table, change: f64) {
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

/// The entries an insert evicted, oldest first.
pub type Evicted<K, V> = smallvec::SmallVec<[(K, V); 2]>;

/// A table of at most `total` entries, at most `per_address` of them made by one address.
#[derive(Debug)]
pub struct BoundedTable<K: Hash + Eq, V> {
    /// Which table it is, for its metrics.
    table: Table,
    /// The entries with the address that made them, least recently used first out.
    entries: LruCache<K, (IpAddr, V)>,
    /// Each address's keys, its least recently used first out.
    by_address: FastMap<IpAddr, LruCache<K, ()>>,
    /// Most entries one address may hold.
    per_address: usize,
    /// The size this table last added to its gauge: several tables of one kind (the
    /// shards of an actor) add up to one gauge, so each adds its own changes.
    reported: usize,
}

impl<K: Hash + Eq + Clone, V> BoundedTable<K, V> {
    /// An empty table (a bound of 0 counts as 1).
    pub fn new(table: Table, total: usize, per_address: usize) -> BoundedTable<K, V> {
        BoundedTable {
            table,
            entries: LruCache::new(NonZeroUsize::new(total).unwrap_or(NonZeroUsize::MIN)),
            by_address: HashMap::default(),
            per_address: per_address.max(1),
            reported: 0,
        }
    }

    /// Adds the change of size since the last report to the table's gauge.
    fn report_size(&mut self) {
        let (now, before) = (self.entries.len(), self.reported);
        if now != before {
            add_entries(self.table, now as f64 - before as f64);
            self.reported = now;
        }
    }

    /// The entry of `key`, now the most recently used.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let (address, value) = self.entries.get_mut(key)?;
        if let Some(keys) = self.by_address.get_mut(address) {
            keys.promote(key);
        }
        Some(value)
    }

    /// The entry of `key`, leaving its place as it is.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.entries.peek(key).map(|(_, value)| value)
    }

    /// Whether `key` has an entry.
    pub fn contains(&self, key: &K) -> bool {
        self.entries.contains(key)
    }

    /// Puts `value` under `key` (made by `address`, unless the key is already there: an
    /// entry stays its maker's). Returns the entries evicted to make room, oldest first
    /// (one or two but when the per-address bound shrank).
    pub fn insert(&mut self, key: K, address: IpAddr, value: V) -> Evicted<K, V> {
        let mut out = Evicted::new();
        if let Some(slot) = self.get_mut(&key) {
            *slot = value;
            return out;
        }
        if let Some(keys) = self.by_address.get_mut(&address) {
            while keys.len() >= self.per_address {
                let Some((old, ())) = keys.pop_lru() else { break };
                if let Some((_, value)) = self.entries.pop(&old) {
                    count_eviction(self.table, Eviction::PerAddress);
                    out.push((old, value));
                }
            }
        }
        if self.entries.len() >= self.entries.cap().get() {
            if let Some((old, (owner, value))) = self.entries.pop_lru() {
                self.forget_key(&owner, &old);
                count_eviction(self.table, Eviction::Total);
                out.push((old, value));
            }
        }
        self.by_address.entry(address).or_insert_with(LruCache::unbounded).put(key.clone(), ());
        self.entries.put(key, (address, value));
        self.report_size();
        out
    }

    /// Removes the entry of `key`.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let (address, value) = self.entries.pop(key)?;
        self.forget_key(&address, key);
        self.report_size();
        Some(value)
    }

    /// Keeps only the entries `keep` accepts; returns the others.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) -> Vec<(K, V)> {
        let gone: Vec<K> = self.entries.iter().filter(|(k, (_, v))| !keep(k, v)).map(|(k, _)| k.clone()).collect();
        let removed = gone.into_iter().filter_map(|k| self.remove(&k).map(|v| (k, v))).collect();
        self.by_address.shrink_to_fit();
        self.report_size();
        removed
    }

    /// The entries, most recently used first.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, (_, v))| (k, v))
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many entries `address` made.
    pub fn len_of(&self, address: &IpAddr) -> usize {
        self.by_address.get(address).map_or(0, LruCache::len)
    }

    fn forget_key(&mut self, address: &IpAddr, key: &K) {
        if let Some(keys) = self.by_address.get_mut(address) {
            keys.pop(key);
            if keys.is_empty() {
                self.by_address.remove(address);
            }
        }
    }
}

impl<K: Hash + Eq, V> Drop for BoundedTable<K, V> {
    /// A table that goes takes its entries out of the gauge.
    fn drop(&mut self) {
        if self.reported > 0 {
            add_entries(self.table, -(self.reported as f64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    #[test]
    fn each_table_and_reason_finds_its_own_metric_handles() {
        assert!(Table::ALL.iter().enumerate().all(|(i, t)| *t as usize == i), "handles are indexed in ALL order");
        assert!(Eviction::ALL.iter().enumerate().all(|(i, r)| *r as usize == i), "handles are indexed in ALL order");
    }

    #[test]
    fn an_address_past_its_bound_loses_its_own_oldest_entry() {
        let mut table = BoundedTable::new(Table::PerfPageLoads, 100, 3);
        table.insert("other", ip(2), 0);
        for (n, key) in ["a", "b", "c"].into_iter().enumerate() {
            assert!(table.insert(key, ip(1), n).is_empty());
        }
        table.get_mut(&"a");
        assert_eq!(table.insert("d", ip(1), 3).as_slice(), [("b", 1)], "b is the address's least recently used");
        assert_eq!(table.len_of(&ip(1)), 3);
        assert!(table.contains(&"other"), "another address keeps its entry");
        assert!(table.contains(&"a") && table.contains(&"c") && table.contains(&"d"));
    }

    #[test]
    fn a_full_table_loses_its_least_recently_used_entry_whoever_made_it() {
        let mut table = BoundedTable::new(Table::VisitorSessions, 3, 10);
        table.insert("a", ip(1), 1);
        table.insert("b", ip(2), 2);
        table.insert("c", ip(3), 3);
        table.get_mut(&"a");
        assert_eq!(table.insert("d", ip(4), 4).as_slice(), [("b", 2)]);
        assert_eq!(table.len(), 3);
        assert_eq!(table.len_of(&ip(2)), 0, "the evicted entry's address is forgotten");
        assert_eq!(table.peek(&"a"), Some(&1));
    }

    #[test]
    fn replacing_an_entry_evicts_nothing_and_keeps_its_maker() {
        let mut table = BoundedTable::new(Table::ErrorPageLoads, 2, 1);
        table.insert("a", ip(1), 1);
        assert!(table.insert("a", ip(2), 5).is_empty());
        assert_eq!((table.len_of(&ip(1)), table.len_of(&ip(2))), (1, 0));
        assert_eq!(table.remove(&"a"), Some(5));
        assert!(table.is_empty());
        assert_eq!(table.len_of(&ip(1)), 0);
    }

    #[test]
    fn retain_removes_entries_and_their_addresses() {
        let mut table = BoundedTable::new(Table::CartActors, 10, 10);
        for n in 0..6u8 {
            table.insert(n, ip(n % 2), u32::from(n));
        }
        let removed = table.retain(|_, v| *v >= 4);
        assert_eq!(removed.len(), 4);
        assert_eq!(table.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![5, 4]);
        assert_eq!((table.len_of(&ip(0)), table.len_of(&ip(1))), (1, 1));
    }
}
