//! Where carts, stock and orders are kept: a small trait so a shared (Redis) backend
//! can sit beside the embedded one. [`StoreStorage`] keeps them in the durable trees of
//! the [`Store`]; every write resolves once it is on disk.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::cart::ShoppingCart;
use super::order::Order;
use crate::store::{Store, StoreError, StoreFuture, Tree};

/// Durable storage of carts, stock levels and orders.
pub trait CommerceStorage: Send + Sync + 'static {
    /// The cart with `id`, if stored.
    fn load_cart(&self, id: &str) -> Result<Option<ShoppingCart>, StoreError>;
    /// Stores `cart`; resolves once durable.
    fn save_cart(&self, cart: &ShoppingCart) -> StoreFuture<'static, ()>;
    /// The stored stock of `sku`, if any.
    fn load_stock(&self, sku: &str) -> Result<Option<u32>, StoreError>;
    /// Stores stock levels; resolves once durable.
    fn save_stock(&self, levels: Vec<(String, u32)>) -> StoreFuture<'static, ()>;
    /// The order with `id`, if stored.
    fn load_order(&self, id: &str) -> Result<Option<Order>, StoreError>;
    /// Stores `order`; resolves once durable.
    fn save_order(&self, order: &Order) -> StoreFuture<'static, ()>;
    /// Every stored order, at most `limit`.
    fn orders(&self, limit: usize) -> Result<Vec<Order>, StoreError>;
}

/// Commerce records in the durable trees of a [`Store`].
#[derive(Clone)]
pub struct StoreStorage {
    /// The store.
    store: Arc<dyn Store>,
}

impl StoreStorage {
    /// Storage in `store`.
    pub fn new(store: Arc<dyn Store>) -> StoreStorage {
        StoreStorage { store }
    }

    fn load<T: DeserializeOwned>(&self, tree: Tree, key: &str) -> Result<Option<T>, StoreError> {
        match self.store.get(tree, key.as_bytes())? {
            Some(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| StoreError::Backend(format!("a stored {} record is unreadable: {e}", tree.name()))),
            None => Ok(None),
        }
    }

    fn save<T: Serialize>(&self, tree: Tree, key: String, value: &T) -> StoreFuture<'static, ()> {
        let store = self.store.clone();
        let bytes = serde_json::to_vec(value).map_err(|e| StoreError::Backend(format!("unserialisable record: {e}")));
        Box::pin(async move { store.put(tree, key.as_bytes(), &bytes?).await })
    }
}

impl CommerceStorage for StoreStorage {
    fn load_cart(&self, id: &str) -> Result<Option<ShoppingCart>, StoreError> {
        self.load(Tree::Carts, id)
    }

    fn save_cart(&self, cart: &ShoppingCart) -> StoreFuture<'static, ()> {
        self.save(Tree::Carts, cart.id.clone(), cart)
    }

    fn load_stock(&self, sku: &str) -> Result<Option<u32>, StoreError> {
        self.load(Tree::Inventory, sku)
    }

    fn save_stock(&self, levels: Vec<(String, u32)>) -> StoreFuture<'static, ()> {
        let store = self.store.clone();
        Box::pin(async move {
            for (sku, level) in levels {
                store.put(Tree::Inventory, sku.as_bytes(), level.to_string().as_bytes()).await?;
            }
            Ok(())
        })
    }

    fn load_order(&self, id: &str) -> Result<Option<Order>, StoreError> {
        self.load(Tree::Orders, id)
    }

    fn save_order(&self, order: &Order) -> StoreFuture<'static, ()> {
        self.save(Tree::Orders, order.id.clone(), order)
    }

    fn orders(&self, limit: usize) -> Result<Vec<Order>, StoreError> {
        let entries = self.store.scan_prefix(Tree::Orders, b"", limit)?;
        Ok(entries.into_iter().filter_map(|(_, v)| serde_json::from_slice(&v).ok()).collect())
    }
}
