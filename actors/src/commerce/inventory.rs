//! The [`Inventory`] actor: stock per counted variant. It handles one message at a
//! time, including the durable write, so two checkouts can never both take the last
//! unit: a reservation succeeds only when every line has enough stock, and its new
//! levels are on disk before it is answered. Levels start from the store, else from
//! the site's `qtyInStock`.
//!
//! When the storage is shared by several instances (Redis), the storage takes the
//! units itself in one atomic step ([`CommerceStorage::reserve_stock`]); the levels
//! here are then only this instance's last view of them.

use std::collections::HashMap;
use std::sync::Arc;

use actix::fut::{ActorFutureExt, WrapFuture};
use actix::{Actor, AtomicResponse, Context, Handler, Message};

use super::cart::CartError;
use super::catalog::Catalog;
use super::storage::{CommerceStorage, Reservation};

/// Owns the stock levels of every counted variant.
pub struct Inventory {
    /// Units left by SKU (only counted variants).
    levels: HashMap<String, u32>,
    /// Product titles by SKU, for messages.
    titles: HashMap<String, String>,
    /// Where levels are kept.
    storage: Arc<dyn CommerceStorage>,
}

impl Inventory {
    /// Levels of `catalog`'s counted variants, as stored or else as the site gives them.
    pub fn load(catalog: &Catalog, storage: Arc<dyn CommerceStorage>) -> Result<Inventory, CartError> {
        let mut levels = HashMap::new();
        let mut titles = HashMap::new();
        for (sku, initial) in catalog.stocked() {
            let level = storage.load_stock(sku)?.unwrap_or(initial);
            levels.insert(sku.to_string(), level);
            titles.insert(sku.to_string(), catalog.get(sku).map(|v| v.title.clone()).unwrap_or_default());
        }
        Ok(Inventory { levels, titles, storage })
    }

    /// Every counted variant at zero: what the server sells when the stored levels
    /// cannot be read (nothing limited is sold rather than risk overselling).
    pub fn closed(catalog: &Catalog, storage: Arc<dyn CommerceStorage>) -> Inventory {
        let levels = catalog.stocked().map(|(sku, _)| (sku.to_string(), 0)).collect();
        let titles = catalog.stocked().map(|(sku, _)| (sku.to_string(), sku.to_string())).collect();
        Inventory { levels, titles, storage }
    }

    /// The units `lines` want of each counted SKU, one line per SKU, in SKU order.
    pub fn wanted(&self, lines: &[(String, u32)]) -> Vec<(String, u32)> {
        let mut wanted: HashMap<&str, u32> = HashMap::new();
        for (sku, quantity) in lines {
            if self.levels.contains_key(sku) {
                let units = wanted.entry(sku).or_default();
                *units = units.saturating_add(*quantity);
            }
        }
        let mut wanted: Vec<(String, u32)> = wanted.into_iter().map(|(sku, units)| (sku.to_string(), units)).collect();
        wanted.sort();
        wanted
    }

    /// The refusal for `sku` having only `available` units.
    fn out_of_stock(&self, sku: &str, available: u32) -> CartError {
        let title = self.titles.get(sku).cloned().unwrap_or_else(|| sku.to_string());
        CartError::OutOfStock { title, available }
    }

    /// Takes every line's units, or none when one line lacks stock. Returns the new
    /// levels of the lines whose stock is counted.
    pub fn reserve(&mut self, lines: &[(String, u32)]) -> Result<Vec<(String, u32)>, CartError> {
        let wanted = self.wanted(lines);
        for (sku, quantity) in &wanted {
            let available = self.levels.get(sku).copied().unwrap_or(0);
            if available < *quantity {
                return Err(self.out_of_stock(sku, available));
            }
        }
        let mut changed = Vec::with_capacity(wanted.len());
        for (sku, quantity) in wanted {
            if let Some(level) = self.levels.get_mut(&sku) {
                *level -= quantity;
                changed.push((sku, *level));
            }
        }
        Ok(changed)
    }

    /// Gives back the units of `lines`. Returns the new levels.
    pub fn release(&mut self, lines: &[(String, u32)]) -> Vec<(String, u32)> {
        let mut changed = Vec::new();
        for (sku, quantity) in lines {
            if let Some(level) = self.levels.get_mut(sku) {
                *level = level.saturating_add(*quantity);
                changed.push((sku.clone(), *level));
            }
        }
        changed
    }

    /// Units left of `sku`; `None` when its stock is not counted.
    pub fn level(&self, sku: &str) -> Option<u32> {
        self.levels.get(sku).copied()
    }
}

impl Actor for Inventory {
    type Context = Context<Self>;
}

/// Takes stock for an order: every line or none. Answers once the new levels are
/// durable; a failed write puts the stock back.
#[derive(Message, Clone)]
#[rtype(result = "Result<(), CartError>")]
pub struct ReserveStock {
    /// SKU and units; lines whose stock is not counted are ignored.
    pub lines: Vec<(String, u32)>,
}

impl Handler<ReserveStock> for Inventory {
    type Result = AtomicResponse<Self, Result<(), CartError>>;

    fn handle(&mut self, msg: ReserveStock, _: &mut Self::Context) -> Self::Result {
        if let Some(reserving) = self.storage.reserve_stock(self.wanted(&msg.lines)) {
            return AtomicResponse::new(Box::pin(reserving.into_actor(self).map(|result, inventory, _| {
                match result.map_err(CartError::from)? {
                    Reservation::Reserved(levels) => {
                        inventory.levels.extend(levels);
                        Ok(())
                    }
                    Reservation::Short { sku, available } => {
                        inventory.levels.insert(sku.clone(), available);
                        Err(inventory.out_of_stock(&sku, available))
                    }
                }
            })));
        }
        let changed = match self.reserve(&msg.lines) {
            Ok(changed) => changed,
            Err(e) => return AtomicResponse::new(Box::pin(actix::fut::ready(Err(e)))),
        };
        let write = self.storage.save_stock(changed);
        AtomicResponse::new(Box::pin(write.into_actor(self).map(move |result, inventory, _| match result {
            Ok(()) => Ok(()),
            Err(e) => {
                inventory.release(&msg.lines);
                Err(CartError::from(e))
            }
        })))
    }
}

/// Gives stock back (a checkout that failed after reserving). Answers once durable.
#[derive(Message, Clone)]
#[rtype(result = "Result<(), CartError>")]
pub struct ReleaseStock {
    /// SKU and units.
    pub lines: Vec<(String, u32)>,
}

impl Handler<ReleaseStock> for Inventory {
    type Result = AtomicResponse<Self, Result<(), CartError>>;

    fn handle(&mut self, msg: ReleaseStock, _: &mut Self::Context) -> Self::Result {
        if let Some(releasing) = self.storage.release_stock(self.wanted(&msg.lines)) {
            return AtomicResponse::new(Box::pin(releasing.into_actor(self).map(|result, inventory, _| {
                inventory.levels.extend(result?);
                Ok(())
            })));
        }
        let levels = self.release(&msg.lines);
        let write = self.storage.save_stock(levels);
        AtomicResponse::new(Box::pin(write.into_actor(self).map(|result, _, _| result.map_err(CartError::from))))
    }
}

/// Records levels read from shared storage (a checkout committed there), so this
/// instance's view of them follows.
#[derive(Message)]
#[rtype(result = "()")]
pub struct NoteLevels(pub Vec<(String, u32)>);

impl Handler<NoteLevels> for Inventory {
    type Result = ();

    fn handle(&mut self, msg: NoteLevels, _: &mut Self::Context) {
        for (sku, level) in msg.0 {
            if let Some(known) = self.levels.get_mut(&sku) {
                *known = level;
            }
        }
    }
}

/// Returns the units left of a SKU (`None` when not counted).
#[derive(Message)]
#[rtype(result = "Option<u32>")]
pub struct GetStock(pub String);

impl Handler<GetStock> for Inventory {
    type Result = Option<u32>;

    fn handle(&mut self, msg: GetStock, _: &mut Self::Context) -> Option<u32> {
        self.level(&msg.0)
    }
}
