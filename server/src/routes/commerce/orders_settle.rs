//! `POST /api/commerce/orders/{id}/status`: the owner settles an unpaid order, body
//! `{"status": "paid"}` (the stock it holds is sold) or `{"status": "cancelled"}` (the
//! stock returns to sale).
//!
//! Only the owner and admins settle orders: visitors get 401, other signed-in accounts
//! 403; then the crumb is checked (403 `crumbFail`). Answers 200 `{order: …}` (the
//! order as the orders list shows it), 400 for another body, 404 for an unknown order,
//! and 409 for an order that is no longer unpaid (paid, cancelled, or its hold
//! expired), each `{"error": …}`.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use veranda_actors::commerce::holds::SettleError;
use veranda_actors::commerce::order::OrderStatus;
use veranda_actors::commerce::summary::OrderSummary;
use veranda_actors::store::StoreError;

use super::error::CommerceBody;
use super::orders_list::Orders;
use crate::edge::{method, no_store, Admin, Crumbed, LimitedJson};
use crate::services::commerce::sweep::HOLDS_SETTLED_METRIC;
use crate::state::AppState;

/// How the owner settles the order.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Settlement {
    /// The buyer paid.
    Paid,
    /// The order will not be paid.
    Cancelled,
}

/// The body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettleBody {
    status: Settlement,
}

fn refuse(status: StatusCode, message: &str) -> HttpResponse {
    no_store(HttpResponse::build(status)).json(serde_json::json!({ "error": message }))
}

/// Settles order `id` (see the module docs).
async fn settle(
    _: Admin<Orders>,
    _: Crumbed,
    id: web::Path<String>,
    body: LimitedJson<SettleBody, CommerceBody>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let to = match body.0.status {
        Settlement::Paid => OrderStatus::Paid,
        Settlement::Cancelled => OrderStatus::Cancelled,
    };
    match state.services.commerce.holds.settle(&id, to).await {
        Ok(order) => {
            metrics::counter!(HOLDS_SETTLED_METRIC, "outcome" => to.label()).increment(1);
            no_store(HttpResponse::Ok()).json(serde_json::json!({ "order": OrderSummary::of(&order) }))
        }
        Err(e @ SettleError::NotFound) => refuse(StatusCode::NOT_FOUND, &e.to_string()),
        Err(e @ SettleError::Settled(_)) => refuse(StatusCode::CONFLICT, &e.to_string()),
        Err(SettleError::Store(e)) => {
            if !matches!(e, StoreError::Unavailable(_)) {
                tracing::error!(error = %e, order = %id, "an order could not be settled");
            }
            let mut answer =
                refuse(StatusCode::SERVICE_UNAVAILABLE, "The order could not be settled; try again shortly.");
            answer.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
            answer
        }
    }
}

/// Registers the route; other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::post_only("/api/commerce/orders/{id}/status", settle));
}
