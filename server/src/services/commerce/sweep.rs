//! The commerce sweep: every `[commerce] sweep_secs` it removes the open carts unchanged
//! for `cart_lifetime_secs` (Redis expires its carts by itself) and ends the holds of
//! unpaid orders past their `holdUntil`, returning their stock. Both are counted on
//! `/metrics`, exported at zero from start-up.

use std::sync::Arc;
use std::time::Duration;

use veranda_actors::commerce::order::OrderStatus;

use super::Commerce;
use crate::settings::CommerceSettings;

/// Open carts removed for having gone unchanged past their lifetime.
pub const CARTS_EXPIRED_METRIC: &str = "veranda_commerce_carts_expired_total";
/// Unpaid orders settled, by `outcome`: `paid` and `cancelled` by the owner, `expired`
/// by the sweep (the stock of `cancelled` and `expired` returned).
pub const HOLDS_SETTLED_METRIC: &str = "veranda_commerce_holds_settled_total";

/// The most stored orders a sweep reads looking for expired holds.
pub const SWEPT_ORDERS: usize = 100_000;

/// Describes the sweep's metrics and exports them at zero.
pub fn export_metrics() {
    crate::ops::metrics::install();
    metrics::describe_counter!(CARTS_EXPIRED_METRIC, "Open carts removed after going unchanged past their lifetime.");
    metrics::describe_counter!(
        HOLDS_SETTLED_METRIC,
        "Unpaid orders settled: marked paid or cancelled by the owner, or their stock hold expired."
    );
    metrics::counter!(CARTS_EXPIRED_METRIC).increment(0);
    for status in [OrderStatus::Paid, OrderStatus::Cancelled, OrderStatus::Expired] {
        metrics::counter!(HOLDS_SETTLED_METRIC, "outcome" => status.label()).increment(0);
    }
}

/// Starts the sweep of `commerce` (see the module docs).
pub fn start(commerce: Arc<Commerce>, settings: &CommerceSettings) {
    let every = Duration::from_secs(settings.sweep_secs.max(1));
    let lifetime = i64::try_from(settings.cart_lifetime_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
    actix::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            sweep(&commerce, lifetime).await;
        }
    });
}

/// One sweep: expired carts, then expired holds.
async fn sweep(commerce: &Commerce, lifetime_ms: i64) {
    let now = veranda_actors::commerce::now_ms();
    match commerce.storage.expire_carts(now.saturating_sub(lifetime_ms)).await {
        Ok(removed) => {
            for id in &removed {
                commerce.carts.forget(id);
            }
            if !removed.is_empty() {
                tracing::info!(carts = removed.len(), "expired carts removed");
                metrics::counter!(CARTS_EXPIRED_METRIC).increment(removed.len() as u64);
            }
        }
        Err(e) => tracing::warn!(error = %e, "expired carts could not be removed; trying again at the next sweep"),
    }
    match commerce.holds.expire(now, SWEPT_ORDERS).await {
        Ok(expired) => {
            for id in &expired {
                tracing::info!(order = %id, "an unpaid order's hold expired; its stock returned");
            }
            metrics::counter!(HOLDS_SETTLED_METRIC, "outcome" => OrderStatus::Expired.label())
                .increment(expired.len() as u64);
        }
        Err(e) => tracing::warn!(error = %e, "expired holds could not be ended; trying again at the next sweep"),
    }
}
