//! [`TreeSizes`]: a running count of the bytes (key and value lengths) each telemetry
//! tree holds, so the telemetry size limit is checked without walking the trees.
//!
//! Sled keeps no per-tree size, so the count is taken by one scan of the telemetry
//! trees when the store opens, then moved by every write and removal: sled's `insert`
//! and `remove` (also inside transactions) hand back the value they replaced, so each
//! change is counted exactly, whatever else writes at the same time. Durable trees are
//! not counted ([`TreeSizes::get`] gives `None` for them).

use std::sync::atomic::{AtomicU64, Ordering};

use super::{Durability, Tree};

/// Bytes held per tree.
#[derive(Debug, Default)]
pub struct TreeSizes {
    /// By [`Tree::ALL`]'s order.
    bytes: [AtomicU64; Tree::ALL.len()],
}

/// A tree's place in [`Tree::ALL`].
fn slot(tree: Tree) -> usize {
    Tree::ALL.iter().position(|t| *t == tree).unwrap_or(0)
}

/// The bytes one entry takes in the count.
pub fn entry_bytes(key: &[u8], value: &[u8]) -> u64 {
    (key.len() + value.len()) as u64
}

impl TreeSizes {
    /// Whether `tree`'s bytes are counted (the telemetry trees).
    pub fn counts(tree: Tree) -> bool {
        tree.durability() == Durability::Telemetry
    }

    /// Sets `tree`'s count (the scan at start-up).
    pub fn set(&self, tree: Tree, bytes: u64) {
        self.bytes[slot(tree)].store(bytes, Ordering::Relaxed);
    }

    /// Moves `tree`'s count by `added` bytes written and `removed` bytes replaced or
    /// removed; never below zero.
    pub fn change(&self, tree: Tree, added: u64, removed: u64) {
        if !Self::counts(tree) || added == removed {
            return;
        }
        let cell = &self.bytes[slot(tree)];
        let _ = cell.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |now| {
            Some(now.saturating_add(added).saturating_sub(removed))
        });
    }

    /// The bytes `tree` holds; `None` for a tree that is not counted.
    pub fn get(&self, tree: Tree) -> Option<u64> {
        Self::counts(tree).then(|| self.bytes[slot(tree)].load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telemetry_trees_are_counted_durable_ones_are_not() {
        let sizes = TreeSizes::default();
        sizes.change(Tree::Census, 30, 0);
        sizes.change(Tree::Census, 10, 25);
        sizes.change(Tree::Errors, 7, 0);
        sizes.change(Tree::Accounts, 100, 0);
        assert_eq!(sizes.get(Tree::Census), Some(15));
        assert_eq!(sizes.get(Tree::Errors), Some(7));
        assert_eq!(sizes.get(Tree::Perf), Some(0));
        assert_eq!(sizes.get(Tree::Accounts), None);
        sizes.change(Tree::Errors, 0, 50);
        assert_eq!(sizes.get(Tree::Errors), Some(0), "never below zero");
        assert_eq!(entry_bytes(b"key", b"value"), 8);
    }
}
