//! [`OrderSummary`]: an order as the dashboard's orders panel lists it
//! (`GET /api/commerce/orders`).

use serde::Serialize;
use ts_rs::TS;

use super::money::{Money, MoneyJson};
use super::order::{Order, OrderKind, OrderStatus};

/// One order as the panel shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderSummary {
    /// Order id.
    pub id: String,
    /// When it was placed (unix ms).
    pub created: i64,
    /// The buyer's email.
    pub customer_email: String,
    /// How many items were bought (the sum of the quantities).
    pub item_count: u64,
    /// What was charged, as a money object.
    #[ts(as = "MoneyJson")]
    pub grand_total: Money,
    /// What was charged, in minor units.
    pub grand_total_cents: u64,
    /// Order, subscription or contribution.
    pub kind: OrderKind,
    /// Where its payment stands.
    pub status: OrderStatus,
    /// Until when (unix ms) it holds its stock while unpaid; `null` when it holds none.
    pub hold_until: Option<i64>,
}

impl OrderSummary {
    /// The summary of `order`.
    pub fn of(order: &Order) -> OrderSummary {
        let cents = i64::try_from(order.grand_total_cents).unwrap_or(i64::MAX);
        OrderSummary {
            id: order.id.clone(),
            created: order.created,
            customer_email: order.customer.email.clone(),
            item_count: order.entries.iter().map(|e| u64::from(e.quantity)).sum(),
            grand_total: Money::new(order.currency, cents).unwrap_or_else(|_| Money::zero(order.currency)),
            grand_total_cents: order.grand_total_cents,
            kind: order.kind,
            status: order.status,
            hold_until: order.hold_until,
        }
    }
}
