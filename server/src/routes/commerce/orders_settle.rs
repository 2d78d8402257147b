//! `POST /api/commerce/orders/{id}/status`: the owner settles an unpaid order, body
//! `{"status": "paid"}` (the stock it holds is sold) or `{"status": "cancelled"}` (the
//! stock returns to sale).
//!
//! Only the owner and admins settle orders: visitors get 401, other signed-in accounts
//! 403; then the crumb is checked (403 `crumbFail`). Answers 200 `{order: …}` (the
//! order as the orders list shows it), 400 for another body, 404 for an unknown order,
//! and 409 for an order that is no longer unpaid (paid, cancelled, or its hold
//! expired), each `{"error": …}`.
//!
//! Marking paid an unpaid order that joins a member area makes its buyer's account a
//! member first (the account joining made, see [`super::join`]): should that fail, the
//! order stays unpaid and the answer is 503, so marking it paid again does both.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use veranda_actors::accounts::{grant_membership, AccountError, Email};
use veranda_actors::commerce::holds::SettleError;
use veranda_actors::commerce::membership;
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
    if to == OrderStatus::Paid {
        if let Err(e) = make_member(&state, &id).await {
            tracing::error!(error = %e, order = %id, "the buyer of a paid membership could not be made a member");
            return unavailable();
        }
    }
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
            unavailable()
        }
    }
}

/// 503 with `Retry-After: 1`.
fn unavailable() -> HttpResponse {
    let mut answer = refuse(StatusCode::SERVICE_UNAVAILABLE, "The order could not be settled; try again shortly.");
    answer.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    answer
}

/// Makes the buyer of order `id` a member when it is an unpaid order joining a member
/// area and its email has an account; anything else is left to the settling.
async fn make_member(state: &AppState, id: &str) -> Result<(), AccountError> {
    let Some(order) = state.services.commerce.storage.load_order(id)? else { return Ok(()) };
    if order.status != OrderStatus::Unpaid || !membership::joins(&order.entries) {
        return Ok(());
    }
    let Ok(email) = Email::parse(&order.customer.email) else { return Ok(()) };
    if !grant_membership(state.services.store.as_ref(), &email).await? {
        tracing::warn!(order = %id, "a paid membership's buyer has no account: `veranda user add --role member` makes one");
    }
    Ok(())
}

/// Registers the route; other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::post_only("/api/commerce/orders/{id}/status", settle));
}
