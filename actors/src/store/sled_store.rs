//! The sled implementation of [`Store`](super::Store).

use std::path::Path;

use super::{Durability, Store, StoreError, StoreFuture, Tree};

/// Sled, one tree per kind of record.
pub struct SledStore {
    /// The database.
    db: sled::Db,
}

impl SledStore {
    /// Opens (or creates) the database in `dir`.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let db = sled::Config::new()
            .path(dir)
            .flush_every_ms(Some(500))
            .open()
            .map_err(|e| StoreError::Backend(format!("{}: {e}", dir.display())))?;
        Ok(SledStore { db })
    }

    fn tree(&self, tree: Tree) -> Result<sled::Tree, StoreError> {
        self.db.open_tree(tree.name()).map_err(backend)
    }
}

fn backend(e: sled::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl Store for SledStore {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree(tree)?.get(key).map_err(backend)?.map(|v| v.to_vec()))
    }

    fn put<'a>(&'a self, tree: Tree, key: &'a [u8], value: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.tree(tree)?.insert(key, value).map_err(backend)?;
            if tree.durability() == Durability::Durable {
                self.db.flush_async().await.map_err(backend)?;
            }
            Ok(())
        })
    }

    fn delete<'a>(&'a self, tree: Tree, key: &'a [u8]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.tree(tree)?.remove(key).map_err(backend)?;
            if tree.durability() == Durability::Durable {
                self.db.flush_async().await.map_err(backend)?;
            }
            Ok(())
        })
    }

    fn scan_prefix(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Vec<(Vec<u8>, Vec<u8>)>, StoreError> {
        self.tree(tree)?
            .scan_prefix(prefix)
            .take(limit)
            .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(backend))
            .collect()
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.db.flush_async().await.map(|_| ()).map_err(backend) })
    }
}
