//! [`Holds`]: settling the orders paid later. Such an order holds its counted stock from
//! checkout (the units were taken then) until the owner marks it paid (the hold becomes a
//! sale, nothing moves) or cancelled (the units return), or until its `holdUntil` passes
//! unsettled, when [`Holds::expire`] returns the units.
//!
//! Each order leaves [`OrderStatus::Unpaid`] once: the change is written with
//! [`CommerceStorage::settle_order`], which refuses an order that is no longer unpaid
//! (in shared storage, one atomic step; here the settlements also take turns), so
//! stock is never returned twice. The status is written before the units return: a
//! crash in between keeps units off sale rather than selling them twice.

use std::sync::Arc;

use actix::Addr;

use super::inventory::{Inventory, ReleaseStock};
use super::order::{Order, OrderStatus};
use super::storage::CommerceStorage;
use crate::store::StoreError;

/// Why an order could not be settled.
#[derive(Debug, thiserror::Error)]
pub enum SettleError {
    /// No order has this id.
    #[error("No order has this id.")]
    NotFound,
    /// It was settled already.
    #[error("{}", settled_message(*.0))]
    Settled(OrderStatus),
    /// The storage failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// The refusal of settling an order that is `status` already.
fn settled_message(status: OrderStatus) -> &'static str {
    match status {
        OrderStatus::Unpaid => "This order is not settled yet.",
        OrderStatus::Paid => "This order is already marked paid.",
        OrderStatus::Cancelled => "This order is already cancelled.",
        OrderStatus::Expired => "This order's hold expired and its stock was returned.",
    }
}

/// Settles unpaid orders, one at a time.
pub struct Holds {
    /// Where orders are kept.
    storage: Arc<dyn CommerceStorage>,
    /// Takes the returned units.
    inventory: Addr<Inventory>,
    /// Settlements of this instance take turns.
    turn: tokio::sync::Mutex<()>,
}

impl Holds {
    /// Settlements of the orders in `storage`, returning units to `inventory`.
    pub fn new(storage: Arc<dyn CommerceStorage>, inventory: Addr<Inventory>) -> Holds {
        Holds { storage, inventory, turn: tokio::sync::Mutex::new(()) }
    }

    /// Marks unpaid order `id` paid or cancelled (`to`); a cancelled order's units
    /// return. Returns the settled order.
    pub async fn settle(&self, id: &str, to: OrderStatus) -> Result<Order, SettleError> {
        let _turn = self.turn.lock().await;
        let order = self.storage.load_order(id)?.ok_or(SettleError::NotFound)?;
        self.settle_loaded(order, to).await
    }

    /// Settles `order`, read under the turn, as `to`.
    async fn settle_loaded(&self, order: Order, to: OrderStatus) -> Result<Order, SettleError> {
        if order.status != OrderStatus::Unpaid {
            return Err(SettleError::Settled(order.status));
        }
        let settled = Order { status: to, ..order };
        if !self.storage.settle_order(&settled).await? {
            // Another instance settled it first: say how.
            let now = self.storage.load_order(&settled.id)?.map_or(to, |o| o.status);
            return Err(SettleError::Settled(now));
        }
        if matches!(to, OrderStatus::Cancelled | OrderStatus::Expired) {
            let lines: Vec<(String, u32)> = settled.entries.iter().map(|e| (e.sku.clone(), e.quantity)).collect();
            match self.inventory.send(ReleaseStock { lines }).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    tracing::error!(error = %e, order = %settled.id, "the units of a settled order could not be returned")
                }
                Err(e) => {
                    tracing::error!(error = %e, order = %settled.id, "the units of a settled order could not be returned")
                }
            }
        }
        Ok(settled)
    }

    /// Expires every unpaid order whose hold ended before `now` (unix ms), among at
    /// most `scanned` stored orders; their units return. Returns the expired orders' ids.
    pub async fn expire(&self, now: i64, scanned: usize) -> Result<Vec<String>, StoreError> {
        let due: Vec<Order> = self
            .storage
            .orders(scanned)?
            .into_iter()
            .filter(|o| o.status == OrderStatus::Unpaid && o.hold_until.is_some_and(|until| until <= now))
            .collect();
        let mut expired = Vec::with_capacity(due.len());
        for order in due {
            let _turn = self.turn.lock().await;
            // Read again under the turn: the owner may have settled it meanwhile.
            let Some(order) = self.storage.load_order(&order.id)? else { continue };
            match self.settle_loaded(order, OrderStatus::Expired).await {
                Ok(order) => expired.push(order.id),
                Err(SettleError::Store(e)) => return Err(e),
                Err(_) => {}
            }
        }
        Ok(expired)
    }
}
