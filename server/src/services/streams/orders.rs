//! The `orderPlaced` event: a checkout that placed an order publishes it on the edits
//! stream, so the dashboard's orders panel refreshes at once instead of at its next poll.
//!
//! The edits stream is the one for accounts with admin permission, the same accounts that
//! may list the orders (`GET /api/commerce/orders`, owner and admins); the errors stream
//! carries only error reports, so orders never go there. The event
//! carries no customer data (no email, name or address):
//!
//! `{"type":"orderPlaced","orderId":"…","created":1700000000000,"itemCount":2,
//!   "grandTotal":{"currencyCode":"USD","value":40.84},"grandTotalCents":4084,"kind":"order"}`
//!
//! with the money fields and `kind` exactly as the order listing serialises them. Editor
//! events carry a `name`, this one a `type`, so the edits panel leaves it out. Publishing
//! never holds up the checkout: it runs after the order is stored, in the background, and
//! a failure is only logged (the order is listed by the next read of the panel).

use serde::Serialize;
use veranda_actors::commerce::money::Money;
use veranda_actors::commerce::order::{Order, OrderKind};
use veranda_actors::streams::PublishEvent;

use super::Streams;

/// The `orderPlaced` event of one order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderPlaced {
    /// Always `orderPlaced`.
    #[serde(rename = "type")]
    pub kind_of_event: &'static str,
    /// The order's id.
    pub order_id: String,
    /// When it was placed (unix ms).
    pub created: i64,
    /// How many items were bought (the sum of the quantities).
    pub item_count: u64,
    /// What was charged, as a money object.
    pub grand_total: Money,
    /// What was charged, in minor units.
    pub grand_total_cents: u64,
    /// Order, subscription or contribution.
    pub kind: OrderKind,
}

impl OrderPlaced {
    /// The event of `order`.
    pub fn of(order: &Order) -> OrderPlaced {
        let cents = i64::try_from(order.grand_total_cents).unwrap_or(i64::MAX);
        OrderPlaced {
            kind_of_event: "orderPlaced",
            order_id: order.id.clone(),
            created: order.created,
            item_count: order.entries.iter().map(|e| u64::from(e.quantity)).sum(),
            grand_total: Money::new(order.currency, cents).unwrap_or_else(|_| Money::zero(order.currency)),
            grand_total_cents: order.grand_total_cents,
            kind: order.kind,
        }
    }
}

/// Publishes the `orderPlaced` event of `order` on the edits stream, in the background.
pub fn publish_order_placed(streams: &Streams, order: &Order) {
    let Ok(data) = serde_json::to_value(OrderPlaced::of(order)) else { return };
    let hub = streams.edits.clone();
    let order_id = order.id.clone();
    actix_web::rt::spawn(async move {
        match hub.send(PublishEvent(data)).await {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => tracing::warn!(%error, order_id, "an order's event could not be published"),
            Err(_) => tracing::warn!(order_id, "the edits stream is stopped; an order's event was not published"),
        }
    });
}
