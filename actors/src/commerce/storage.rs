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
    /// Writes `settled` (an order leaving [`OrderStatus::Unpaid`](super::order::OrderStatus))
    /// only when the stored order is still unpaid; resolves to whether it was written.
    /// Storage several instances share does so in one atomic step; the default reads,
    /// then writes (its one instance's settlements take turns).
    fn settle_order(&self, settled: &Order) -> StoreFuture<'static, bool> {
        use super::order::OrderStatus;
        let unpaid = match self.load_order(&settled.id) {
            Ok(stored) => Ok(stored.is_some_and(|o| o.status == OrderStatus::Unpaid)),
            Err(e) => Err(e),
        };
        let write = self.save_order(settled);
        Box::pin(async move {
            if !unpaid? {
                return Ok(false);
            }
            write.await?;
            Ok(true)
        })
    }

    /// Every stored order, at most `limit`.
    fn orders(&self, limit: usize) -> Result<Vec<Order>, StoreError>;

    /// Stores `order` and the `cart` it purchased together; resolves once both are
    /// durable. Storage that can write them in one step a crash cannot split does so,
    /// so no order is ever left with its cart still open; the default writes the order,
    /// then the cart.
    fn save_purchase(&self, order: &Order, cart: &ShoppingCart) -> StoreFuture<'static, ()> {
        let (order, cart) = (self.save_order(order), self.save_cart(cart));
        Box::pin(async move {
            order.await?;
            cart.await
        })
    }

    /// Removes every open (never checked out) cart last changed before `before` (unix
    /// ms); resolves to the removed carts' ids once the removal is durable. Carts that
    /// were checked out are kept with their orders. Storage that expires carts by itself
    /// (Redis key lifetimes) removes nothing here.
    fn expire_carts(&self, _before: i64) -> StoreFuture<'static, Vec<String>> {
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    /// Whether other server instances write to this storage too. Then a cart actor
    /// cannot trust its cached cart: it re-reads the cart before each change and writes
    /// with [`save_cart_versioned`](Self::save_cart_versioned).
    fn is_shared(&self) -> bool {
        false
    }

    /// The cart with `id` and its version, if stored. Unshared storage has no versions
    /// (its one cart actor is the only writer) and answers version 0.
    fn load_cart_versioned(&self, id: &str) -> StoreFuture<'static, Option<VersionedCart>> {
        let loaded = self.load_cart(id).map(|cart| cart.map(|cart| VersionedCart { cart, version: 0 }));
        Box::pin(std::future::ready(loaded))
    }

    /// Stores `cart` only if its stored version is still `expected` (0: not stored)
    /// and, unless `checkout` (the write of the checkout holding the claim), no
    /// checkout of it is under way; resolves once durable. Unshared storage writes
    /// unconditionally.
    fn save_cart_versioned(
        &self,
        cart: &ShoppingCart,
        expected: u64,
        _checkout: bool,
    ) -> StoreFuture<'static, CartWrite> {
        let write = self.save_cart(cart);
        Box::pin(async move {
            write.await?;
            Ok(CartWrite::Saved(expected))
        })
    }

    /// Takes the units of `lines` (distinct SKUs) atomically in the storage itself, for
    /// storage several instances share; `None` when the caller keeps the levels (the
    /// [`Inventory`](super::inventory::Inventory) actor then serialises reservations).
    fn reserve_stock(&self, _lines: Vec<(String, u32)>) -> Option<StoreFuture<'static, Reservation>> {
        None
    }

    /// Claims cart `id` for one checkout across instances; `false` when another
    /// checkout of it is under way. The claim lapses by itself after a while, so a
    /// crashed instance cannot keep it. Unshared storage needs no claim (the cart's
    /// one actor runs one checkout at a time).
    fn claim_checkout(&self, _id: &str) -> StoreFuture<'static, bool> {
        Box::pin(std::future::ready(Ok(true)))
    }

    /// Ends the claim of [`claim_checkout`](Self::claim_checkout).
    fn end_checkout(&self, _id: &str) -> StoreFuture<'static, ()> {
        Box::pin(std::future::ready(Ok(())))
    }

    /// Gives back the units of `lines` in the storage itself; `None` as for
    /// [`reserve_stock`](Self::reserve_stock). Resolves to the new levels.
    fn release_stock(&self, _lines: Vec<(String, u32)>) -> Option<StoreFuture<'static, Vec<(String, u32)>>> {
        None
    }

    /// Places a checkout in one atomic step, for storage several instances share:
    /// takes the stock of every line, stores the order and marks the cart purchased,
    /// all or nothing. Idempotent: committing the same order again (a retry after an
    /// answer was lost) changes nothing and answers [`CommitOutcome::AlreadyCommitted`].
    /// `None` when the caller places checkouts itself (the cart's one actor and the
    /// [`Inventory`](super::inventory::Inventory) actor serialise them).
    fn commit_checkout(&self, _commit: &CheckoutCommit) -> Option<StoreFuture<'static, CommitOutcome>> {
        None
    }
}

/// Everything a checkout writes, for [`CommerceStorage::commit_checkout`].
#[derive(Debug, Clone, PartialEq)]
pub struct CheckoutCommit {
    /// The order, paid.
    pub order: Order,
    /// The cart marked purchased by the order.
    pub cart: ShoppingCart,
    /// The stored version of the cart the order was made from; the commit is refused
    /// when the cart changed since.
    pub expected: u64,
    /// Units to take of each counted SKU (distinct SKUs).
    pub lines: Vec<(String, u32)>,
}

/// The outcome of [`CommerceStorage::commit_checkout`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommitOutcome {
    /// Stock taken, order stored, cart purchased; the new stock levels.
    Committed(Vec<(String, u32)>),
    /// This very order had been committed already; nothing changed.
    AlreadyCommitted,
    /// The cart had been purchased by another order (its id); nothing changed.
    Purchased(String),
    /// The cart changed since the order was made from it; nothing changed.
    Stale,
    /// Nothing changed: `sku` has only `available` units.
    Short {
        /// The first line that lacks units.
        sku: String,
        /// Units it has.
        available: u32,
    },
}

/// A stored cart and the version it was stored at.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionedCart {
    /// The cart.
    pub cart: ShoppingCart,
    /// Its version: 1 for the first write, one more for each later one.
    pub version: u64,
}

/// The outcome of a versioned cart write.
#[derive(Debug, Clone, PartialEq)]
pub enum CartWrite {
    /// Written; the new version.
    Saved(u64),
    /// Someone else wrote first; the cart as it now stands (`None`: not stored).
    Conflict(Option<Box<VersionedCart>>),
    /// Not written: a checkout of the cart is under way.
    CheckingOut,
}

/// The outcome of a stock reservation in shared storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reservation {
    /// Every line was taken; the new levels.
    Reserved(Vec<(String, u32)>),
    /// Nothing was taken: `sku` has only `available` units.
    Short {
        /// The first line that lacks units.
        sku: String,
        /// Units it has.
        available: u32,
    },
}

/// Carts read at once while looking for expired ones.
const EXPIRY_PAGE: usize = 1_000;

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

    fn save_purchase(&self, order: &Order, cart: &ShoppingCart) -> StoreFuture<'static, ()> {
        let store = self.store.clone();
        let json = serde_json::to_vec(order)
            .and_then(|o| Ok((o, serde_json::to_vec(cart)?)))
            .map_err(|e| StoreError::Backend(format!("unserialisable record: {e}")));
        let (order_key, cart_key) = (order.id.clone().into_bytes(), cart.id.clone().into_bytes());
        Box::pin(async move {
            let (order, cart) = json?;
            store.put_atomic(&[(Tree::Orders, order_key, order), (Tree::Carts, cart_key, cart)]).await
        })
    }

    fn orders(&self, limit: usize) -> Result<Vec<Order>, StoreError> {
        let entries = self.store.scan_prefix(Tree::Orders, b"", limit)?;
        Ok(entries.into_iter().filter_map(|(_, v)| serde_json::from_slice(&v).ok()).collect())
    }

    fn expire_carts(&self, before: i64) -> StoreFuture<'static, Vec<String>> {
        let store = self.store.clone();
        Box::pin(async move {
            let mut removed = Vec::new();
            let mut start = Vec::new();
            loop {
                let page = store.scan_range(Tree::Carts, &start, None, EXPIRY_PAGE)?;
                let Some((last, _)) = page.last() else { break };
                // The next page starts just after this one's last key.
                start = [last.as_slice(), &[0]].concat();
                let stale: Vec<Vec<u8>> = page
                    .iter()
                    .filter(|(_, v)| {
                        serde_json::from_slice::<ShoppingCart>(v)
                            .is_ok_and(|cart| !cart.is_purchased && cart.last_changed() < before)
                    })
                    .map(|(k, _)| k.clone())
                    .collect();
                if !stale.is_empty() {
                    store.delete_all(Tree::Carts, &stale).await?;
                    removed.extend(stale.iter().map(|k| String::from_utf8_lossy(k).into_owned()));
                }
                if page.len() < EXPIRY_PAGE {
                    break;
                }
            }
            Ok(removed)
        })
    }
}
