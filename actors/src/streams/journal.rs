//! [`Journal`]: one stream's history in the store. The edits stream lives in the durable
//! edits tree, the errors stream in the telemetry errors tree (beside the error records).
//!
//! Keys, under the stream's prefix: `epoch` (the current epoch) and `e/<offset as 8
//! big-endian bytes>` (one [`StoredEvent`] as JSON), so a prefix scan reads offsets in order.

use std::sync::Arc;

use rand::RngCore;

use super::event::{StoredEvent, StreamName};
use super::history::History;
use super::limits::StreamLimits;
use crate::store::{Store, StoreError, Tree};

/// Where a stream's history lives.
#[derive(Clone)]
pub struct Journal {
    /// The store.
    store: Arc<dyn Store>,
    /// The tree (durability class) of the stream.
    tree: Tree,
    /// Key prefix of the stream inside its tree.
    prefix: &'static [u8],
}

impl Journal {
    /// The journal of `stream`.
    pub fn new(store: Arc<dyn Store>, stream: StreamName) -> Journal {
        let (tree, prefix): (Tree, &'static [u8]) = match stream {
            StreamName::Edits => (Tree::Edits, b"stream/"),
            StreamName::Errors => (Tree::Errors, b"stream/"),
        };
        Journal { store, tree, prefix }
    }

    /// A fresh random epoch: 16 lowercase hex digits.
    pub fn new_epoch() -> String {
        let mut bytes = [0u8; 8];
        rand::rng().fill_bytes(&mut bytes);
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn key(&self, suffix: &[u8]) -> Vec<u8> {
        [self.prefix, suffix].concat()
    }

    fn event_key(&self, offset: u64) -> Vec<u8> {
        [self.prefix, b"e/", &offset.to_be_bytes()].concat()
    }

    /// Reads the stored history; starts (and stores) a new epoch when none is usable.
    pub async fn load(&self, limits: &StreamLimits, now: u64) -> Result<History, StoreError> {
        let epoch = self.store.get(self.tree, &self.key(b"epoch"))?.and_then(|v| String::from_utf8(v).ok());
        // Trimming keeps the tree near `history_events`; a full scan means something is off,
        // and starting over is safer than guessing the latest offset.
        let limit = limits.history_events.saturating_mul(2).saturating_add(1024);
        let rows = self.store.scan_prefix(self.tree, &self.key(b"e/"), limit)?;
        let complete = rows.len() < limit;
        let stored: Vec<StoredEvent> = rows.iter().filter_map(|(_, v)| serde_json::from_slice(v).ok()).collect();
        if let Some(epoch) = epoch.filter(|_| complete) {
            if let Some(history) =
                History::restore(epoch, stored.clone(), limits.history_events, limits.history_ms(), now)
            {
                let kept_from = history.head() + 1 - history.len() as u64;
                self.delete(stored.iter().map(|e| e.offset).filter(|o| *o < kept_from).collect()).await;
                return Ok(history);
            }
        }
        self.delete_all().await?;
        let epoch = Journal::new_epoch();
        self.store.put(self.tree, &self.key(b"epoch"), epoch.as_bytes()).await?;
        Ok(History::fresh(epoch, limits.history_events, limits.history_ms()))
    }

    /// Writes one event; resolves per the tree's durability class.
    pub async fn append(&self, event: &StoredEvent) -> Result<(), StoreError> {
        let value = serde_json::to_vec(event).map_err(|e| StoreError::Backend(e.to_string()))?;
        self.store.put(self.tree, &self.event_key(event.offset), &value).await
    }

    /// Removes events that fell out of the history (failures are logged: they are only space).
    pub async fn delete(&self, offsets: Vec<u64>) {
        for offset in offsets {
            if let Err(error) = self.store.delete(self.tree, &self.event_key(offset)).await {
                tracing::warn!(%error, "cannot remove a stream event from the history");
            }
        }
    }

    async fn delete_all(&self) -> Result<(), StoreError> {
        loop {
            let rows = self.store.scan_prefix(self.tree, &self.key(b"e/"), 4096)?;
            if rows.is_empty() {
                return Ok(());
            }
            for (key, _) in rows {
                self.store.delete(self.tree, &key).await?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;
    use serde_json::json;

    #[actix::test]
    async fn a_history_survives_a_restart_and_a_new_store_gets_a_new_epoch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let limits = StreamLimits { history_events: 3, ..StreamLimits::default() };
        let journal = Journal::new(store.clone(), StreamName::Edits);
        let mut history = journal.load(&limits, 0).await.expect("loads");
        for i in 0..5 {
            let (event, dropped) = history.append(json!(i), 10);
            journal.append(&event).await.expect("written");
            journal.delete(dropped).await;
        }
        let restored = journal.load(&limits, 20).await.expect("reloads");
        assert_eq!(restored.epoch(), history.epoch());
        assert_eq!((restored.head(), restored.len()), (5, 3));

        let other_dir = tempfile::tempdir().expect("temp dir");
        let other: Arc<dyn Store> = Arc::new(SledStore::open(other_dir.path()).expect("opens"));
        let fresh = Journal::new(other, StreamName::Edits).load(&limits, 20).await.expect("loads");
        assert_ne!(fresh.epoch(), history.epoch());
        assert_eq!(fresh.head(), 0);
    }
}
