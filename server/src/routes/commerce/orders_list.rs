//! `GET /api/commerce/orders?limit=`: the newest orders, for the dashboard's orders panel.
//!
//! Only the owner and admins read it: visitors get 401, other signed-in accounts 403
//! (the same rule as `GET /api/form/forms`). Answers `{orders: [...]}`, newest first
//! (by `created`, ties by id), each with `id`, `created` (unix ms), `customerEmail`,
//! `itemCount` (the sum of the entries' quantities), `grandTotal` (a money object,
//! `{currencyCode, value}`), `grandTotalCents` (the same amount in minor units, exact)
//! and `kind` (`order`, `subscription` or `contribution`).
//!
//! `limit` is a whole number from 1 to [`MAX_LIMIT`], [`DEFAULT_LIMIT`] when absent;
//! anything else is a 400 with a message.
//!
//! Orders are keyed by a random id, so the store has no time order of its own: the
//! newest are found by reading at most [`SCANNED_ORDERS`] stored orders and sorting them
//! by `created`. A store holding more orders than that lists the newest of those read.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::commerce::storage::CommerceStorage;
use veranda_actors::commerce::summary::OrderSummary;
use veranda_actors::store::StoreError;

use crate::edge::{method, no_store, Admin, Shown};
use crate::state::AppState;

/// Orders listed when the request names no `limit`.
pub const DEFAULT_LIMIT: usize = 50;
/// The largest `limit` accepted.
pub const MAX_LIMIT: usize = 200;
/// The most stored orders read to find the newest.
pub const SCANNED_ORDERS: usize = 100_000;
/// The refusal of a bad `limit`.
pub const BAD_LIMIT: &str = "limit must be a whole number from 1 to 200.";

/// How many orders to list: a whole number from 1 to [`MAX_LIMIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit(usize);

impl Limit {
    /// The limit of the query's `limit` (absent: [`DEFAULT_LIMIT`]), or [`BAD_LIMIT`].
    pub fn parse(text: Option<&str>) -> Result<Limit, &'static str> {
        let Some(text) = text else { return Ok(Limit(DEFAULT_LIMIT)) };
        match text.parse::<usize>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) && text.bytes().all(|b| b.is_ascii_digit()) => Ok(Limit(n)),
            _ => Err(BAD_LIMIT),
        }
    }
}

/// The query string.
#[derive(Debug, Deserialize)]
struct OrdersQuery {
    /// How many orders to list.
    limit: Option<String>,
}

/// The `limit` newest of (at most [`SCANNED_ORDERS`]) stored orders, newest first.
pub fn newest_orders(storage: &dyn CommerceStorage, limit: Limit) -> Result<Vec<OrderSummary>, StoreError> {
    let mut orders = storage.orders(SCANNED_ORDERS)?;
    orders.sort_unstable_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
    orders.truncate(limit.0);
    Ok(orders.iter().map(OrderSummary::of).collect())
}

fn refuse(status: actix_web::http::StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(serde_json::json!({ "error": message }))
}

/// The orders, in refusals.
pub struct Orders;

impl Shown for Orders {
    const SIGN_IN: &'static str = "Sign in to see the orders.";
    const ADMINS_ONLY: &'static str = "Only the owner and admins see the orders.";
}

/// Answers the list (see the module docs).
pub async fn list(_: Admin<Orders>, req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    use actix_web::http::StatusCode;
    let limit = match web::Query::<OrdersQuery>::from_query(req.query_string()) {
        Ok(query) => Limit::parse(query.limit.as_deref()),
        Err(_) => Err(BAD_LIMIT),
    };
    let limit = match limit {
        Ok(limit) => limit,
        Err(message) => return refuse(StatusCode::BAD_REQUEST, message),
    };
    let storage = state.services.commerce.storage.clone();
    match web::block(move || newest_orders(storage.as_ref(), limit)).await {
        Ok(Ok(orders)) => no_store(HttpResponse::Ok()).json(serde_json::json!({ "orders": orders })),
        Ok(Err(e)) => {
            tracing::error!(error = %e, "the orders could not be read");
            refuse(StatusCode::SERVICE_UNAVAILABLE, "The orders could not be read; try again shortly.")
        }
        Err(_) => refuse(StatusCode::SERVICE_UNAVAILABLE, "The orders could not be read; try again shortly."),
    }
}

/// Registers the route; other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::get_only("/api/commerce/orders", list));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_a_whole_number_from_one_to_two_hundred() {
        assert_eq!(Limit::parse(None), Ok(Limit(DEFAULT_LIMIT)));
        assert_eq!(Limit::parse(Some("1")), Ok(Limit(1)));
        assert_eq!(Limit::parse(Some("200")), Ok(Limit(200)));
        for bad in ["0", "201", "-1", "+5", "ten", "", "1.5", " 3", "99999999999999999999999"] {
            assert_eq!(Limit::parse(Some(bad)), Err(BAD_LIMIT), "{bad:?}");
        }
    }
}
