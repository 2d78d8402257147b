//! [`BoundedTable`]: the entries in slots of one vector, each slot in two recency lists
//! ([`super::recency`]), an index from key to slot.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::net::IpAddr;

use hashbrown::HashTable;

use super::recency::{Chain, Link, Links, ALL, NONE, OWN};
use super::{add_entries, count_eviction, Eviction, FastMap, Table};

/// The entries an insert evicted, oldest first.
pub type Evicted<K, V> = smallvec::SmallVec<[(K, V); 2]>;

/// One entry: its key, the address that made it, its value.
#[derive(Debug)]
struct Entry<K, V> {
    key: K,
    address: IpAddr,
    value: V,
}

/// A table of at most `total` entries, at most `per_address` of them made by one address.
///
/// The entries sit in slots of one vector, each slot in two recency lists threaded through
/// the slots by index (the whole table's and its address's), and an index hashes keys to
/// slots. A slot freed is reused by the next insert, so a full table, whose every insert
/// evicts, allocates nothing per entry; the key is held once.
#[derive(Debug)]
pub struct BoundedTable<K: Hash + Eq, V> {
    /// Which table it is, for its metrics.
    table: Table,
    /// The entries; `None` in a free slot.
    entries: Vec<Option<Entry<K, V>>>,
    /// Each slot's place in the two recency lists.
    links: Vec<Links>,
    /// The free slots.
    free: Vec<u32>,
    /// The slot of each key.
    index: HashTable<u32>,
    /// Hashes the keys (foldhash, as [`FastMap`]).
    hasher: lru::DefaultHasher,
    /// The whole table's recency list.
    all: Chain,
    /// Each address's recency list.
    by_address: FastMap<IpAddr, Chain>,
    /// Most entries.
    total: usize,
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
            entries: Vec::new(),
            links: Vec::new(),
            free: Vec::new(),
            index: HashTable::new(),
            hasher: lru::DefaultHasher::default(),
            all: Chain::EMPTY,
            by_address: HashMap::default(),
            total: total.clamp(1, NONE as usize - 1),
            per_address: per_address.max(1),
            reported: 0,
        }
    }

    /// Adds the change of size since the last report to the table's gauge.
    fn report_size(&mut self) {
        let (now, before) = (self.all.len, self.reported);
        if now != before {
            add_entries(self.table, now as f64 - before as f64);
            self.reported = now;
        }
    }

    /// The slot holding `key`.
    fn slot_of(&self, key: &K) -> Option<u32> {
        let entries = &self.entries;
        let hash = self.hasher.hash_one(key);
        self.index.find(hash, |&slot| entries[slot as usize].as_ref().is_some_and(|e| e.key == *key)).copied()
    }

    /// The entry in `slot` (a slot the index or a list names holds one).
    fn entry(&self, slot: u32) -> Option<&Entry<K, V>> {
        self.entries.get(slot as usize).and_then(Option::as_ref)
    }

    /// Makes `slot` the most recently used, in all and of its address.
    fn promote(&mut self, slot: u32) {
        self.all.promote(&mut self.links, ALL, slot);
        let Some(address) = self.entry(slot).map(|e| e.address) else { return };
        if let Some(own) = self.by_address.get_mut(&address) {
            own.promote(&mut self.links, OWN, slot);
        }
    }

    /// The entry of `key`, now the most recently used.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let slot = self.slot_of(key)?;
        self.promote(slot);
        self.entries[slot as usize].as_mut().map(|e| &mut e.value)
    }

    /// The entry of `key`, leaving its place as it is.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.slot_of(key).and_then(|slot| self.entry(slot)).map(|e| &e.value)
    }

    /// Whether `key` has an entry.
    pub fn contains(&self, key: &K) -> bool {
        self.slot_of(key).is_some()
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
        while let Some(oldest) =
            self.by_address.get(&address).filter(|own| own.len >= self.per_address).map(|own| own.oldest)
        {
            let Some((old, value)) = self.take(oldest) else { break };
            count_eviction(self.table, Eviction::PerAddress);
            out.push((old, value));
        }
        if self.all.len >= self.total {
            if let Some((old, value)) = self.take(self.all.oldest) {
                count_eviction(self.table, Eviction::Total);
                out.push((old, value));
            }
        }
        self.place(Entry { key, address, value });
        self.report_size();
        out
    }

    /// Puts `entry` in a free slot (or a new one) as the most recently used, in all and
    /// of its address.
    fn place(&mut self, entry: Entry<K, V>) {
        let (hash, address) = (self.hasher.hash_one(&entry.key), entry.address);
        let slot = match self.free.pop() {
            Some(slot) => {
                self.entries[slot as usize] = Some(entry);
                slot
            }
            None => {
                self.entries.push(Some(entry));
                self.links.push([Link::DETACHED; 2]);
                (self.entries.len() - 1) as u32
            }
        };
        let (entries, hasher) = (&self.entries, &self.hasher);
        self.index.insert_unique(hash, slot, |&s| entries[s as usize].as_ref().map_or(0, |e| hasher.hash_one(&e.key)));
        self.all.push_newest(&mut self.links, ALL, slot);
        self.by_address.entry(address).or_insert(Chain::EMPTY).push_newest(&mut self.links, OWN, slot);
    }

    /// Takes the entry out of `slot`, freeing the slot.
    fn take(&mut self, slot: u32) -> Option<(K, V)> {
        let entry = self.entries.get_mut(slot as usize)?.take()?;
        let hash = self.hasher.hash_one(&entry.key);
        if let Ok(found) = self.index.find_entry(hash, |&s| s == slot) {
            found.remove();
        }
        self.all.unlink(&mut self.links, ALL, slot);
        if let Some(own) = self.by_address.get_mut(&entry.address) {
            own.unlink(&mut self.links, OWN, slot);
            if own.len == 0 {
                self.by_address.remove(&entry.address);
            }
        }
        self.free.push(slot);
        Some((entry.key, entry.value))
    }

    /// Removes the entry of `key`.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let slot = self.slot_of(key)?;
        let (_, value) = self.take(slot)?;
        self.report_size();
        Some(value)
    }

    /// Keeps only the entries `keep` accepts; returns the others. Memory the table no
    /// longer needs (after a flood went) is given back.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) -> Vec<(K, V)> {
        let gone: Vec<u32> = self
            .slots_newest_first()
            .filter(|&slot| self.entry(slot).is_some_and(|e| !keep(&e.key, &e.value)))
            .collect();
        let removed = gone.into_iter().filter_map(|slot| self.take(slot)).collect();
        if self.all.len <= self.entries.len() / 4 {
            self.compact();
        }
        self.by_address.shrink_to_fit();
        self.report_size();
        removed
    }

    /// Moves the entries into slots of a table of their own size, oldest first, so each
    /// address's order stays what it was.
    fn compact(&mut self) {
        let mut oldest_first: Vec<u32> = self.slots_newest_first().collect();
        oldest_first.reverse();
        let mut entries = std::mem::take(&mut self.entries);
        self.links = Vec::with_capacity(oldest_first.len());
        self.entries = Vec::with_capacity(oldest_first.len());
        self.free = Vec::new();
        self.index = HashTable::with_capacity(oldest_first.len());
        self.all = Chain::EMPTY;
        self.by_address.clear();
        for slot in oldest_first {
            if let Some(entry) = entries.get_mut(slot as usize).and_then(Option::take) {
                self.place(entry);
            }
        }
    }

    /// The occupied slots, most recently used first.
    fn slots_newest_first(&self) -> impl Iterator<Item = u32> + '_ {
        self.all.newest_first(&self.links, ALL)
    }

    /// The entries, most recently used first.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.slots_newest_first().filter_map(|slot| self.entry(slot)).map(|e| (&e.key, &e.value))
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.all.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.all.len == 0
    }

    /// How many entries `address` made.
    pub fn len_of(&self, address: &IpAddr) -> usize {
        self.by_address.get(address).map_or(0, |own| own.len)
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

    /// What the table must do, written the slow way: the entries most recently used
    /// first.
    #[derive(Default)]
    struct Model {
        entries: Vec<(u16, IpAddr, u32)>,
    }

    impl Model {
        fn touch(&mut self, key: u16) -> Option<u32> {
            let at = self.entries.iter().position(|e| e.0 == key)?;
            let entry = self.entries.remove(at);
            self.entries.insert(0, entry);
            Some(entry.2)
        }

        fn insert(&mut self, key: u16, address: IpAddr, value: u32, total: usize, per: usize) -> Vec<(u16, u32)> {
            if self.touch(key).is_some() {
                self.entries[0].2 = value;
                return Vec::new();
            }
            let mut out = Vec::new();
            while self.entries.iter().filter(|e| e.1 == address).count() >= per {
                let at = self.entries.iter().rposition(|e| e.1 == address).expect("one of the address");
                let (k, _, v) = self.entries.remove(at);
                out.push((k, v));
            }
            if self.entries.len() >= total {
                let (k, _, v) = self.entries.pop().expect("full");
                out.push((k, v));
            }
            self.entries.insert(0, (key, address, value));
            out
        }
    }

    #[test]
    fn a_long_mixed_run_keeps_every_order_and_bound_as_the_slow_model_does() {
        let (total, per) = (40, 7);
        let mut table = BoundedTable::new(Table::PerfPageLoads, total, per);
        let mut model = Model::default();
        // A fixed xorshift sequence: the same run every time.
        let mut seed = 0x2545_f491_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for step in 0..20_000u32 {
            let (op, key, address) = (next() % 10, (next() % 90) as u16, ip((next() % 9) as u8));
            match op {
                0..=4 => {
                    let evicted = table.insert(key, address, step);
                    let expected = model.insert(key, address, step, total, per);
                    assert_eq!(evicted.into_vec(), expected, "step {step}: evictions");
                }
                5..=6 => assert_eq!(table.get_mut(&key).copied(), model.touch(key), "step {step}: get_mut"),
                7 => {
                    let at = model.entries.iter().position(|e| e.0 == key);
                    let expected = at.map(|at| model.entries.remove(at).2);
                    assert_eq!(table.remove(&key), expected, "step {step}: remove");
                }
                8 => {
                    let cut = next() % 20_000;
                    let removed: Vec<(u16, u32)> = table.retain(|_, v| *v >= cut);
                    let expected: Vec<(u16, u32)> =
                        model.entries.iter().filter(|e| e.2 < cut).map(|e| (e.0, e.2)).collect();
                    model.entries.retain(|e| e.2 >= cut);
                    assert_eq!(removed, expected, "step {step}: retain, most recently used first");
                }
                _ => assert_eq!(table.peek(&key).copied(), model.entries.iter().find(|e| e.0 == key).map(|e| e.2)),
            }
            let listed: Vec<(u16, u32)> = table.iter().map(|(k, v)| (*k, *v)).collect();
            let expected: Vec<(u16, u32)> = model.entries.iter().map(|e| (e.0, e.2)).collect();
            assert_eq!(listed, expected, "step {step}: the entries, most recently used first");
            for n in 0..9 {
                let count = model.entries.iter().filter(|e| e.1 == ip(n)).count();
                assert_eq!(table.len_of(&ip(n)), count, "step {step}: entries of address {n}");
                assert!(count <= per);
            }
            assert!(table.len() <= total);
        }
    }

    #[test]
    fn a_table_that_emptied_after_a_flood_gives_its_slots_back_and_keeps_its_order() {
        let mut table = BoundedTable::new(Table::VisitorSessions, 10_000, 10_000);
        for n in 0..10_000u32 {
            table.insert(n, ip((n % 3) as u8), n);
        }
        table.get_mut(&3);
        let removed = table.retain(|k, _| *k < 10 || *k == 9_999);
        assert_eq!(removed.len(), 9_989);
        assert!(table.entries.capacity() < 100, "the slots left are {}", table.entries.capacity());
        assert_eq!(table.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [3, 9_999, 9, 8, 7, 6, 5, 4, 2, 1, 0]);
        assert_eq!(table.insert(20, ip(0), 20).len(), 0);
        assert_eq!((table.len_of(&ip(0)), table.len_of(&ip(1)), table.len_of(&ip(2))), (6, 3, 3));
        assert_eq!(table.peek(&9_999), Some(&9_999));
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
