//! Joining a member area: `/checkout/join?memberAreaId=…&pricingOption=…` buys the area's
//! pricing option `pricingOption` (0 for the left one, 1 for the right) as a subscription
//! (see [`veranda_actors::commerce::membership`]). The member area's join buttons are
//! submit buttons of a GET form to this address, so joining works with or without scripts.
//! Like the other checkouts it is a form posting back to its own address; the placed
//! order redirects (303) to its confirmation.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::commerce::cart::CartEntry;
use veranda_actors::commerce::carts::checkout::join;
use veranda_actors::commerce::membership::{self, plan_of_sku};

use super::checkout::{bad_link, form_page, order_placed, CheckoutPost};
use super::error::{cart_status, CommerceError};
use super::form::{self, FieldErrors, Fields};
use super::pages;
use crate::render::util::encode_query;
use crate::security::crumb::CRUMB_FAIL_MESSAGE;
use crate::services::commerce::limit::CheckoutKind;
use crate::state::AppState;

/// The page's title.
const TITLE: &str = "Membership checkout";

/// `?memberAreaId=…&pricingOption=…` of the membership checkout.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinQuery {
    #[serde(default)]
    member_area_id: String,
    #[serde(default)]
    pricing_option: String,
}

impl JoinQuery {
    /// The entry the link buys, when it names a member area of the site as visitors see it
    /// and one of its pricing options.
    fn entry(&self, state: &AppState) -> Option<CartEntry> {
        let index = self.pricing_option.trim().parse::<usize>().ok()?;
        let site = state.services.site.current();
        let area = membership::find_area(&site, &self.member_area_id)?;
        membership::entry(&self.member_area_id, area, index)
    }

    fn action(&self) -> String {
        format!(
            "/checkout/join?memberAreaId={}&pricingOption={}",
            encode_query(&self.member_area_id),
            encode_query(self.pricing_option.trim())
        )
    }
}

fn join_form(
    req: &HttpRequest,
    state: &AppState,
    query: &JoinQuery,
    status: StatusCode,
    values: &Fields,
    errors: &FieldErrors,
    notice: Option<&str>,
) -> HttpResponse {
    let Some(entry) = query.entry(state) else { return bad_link(state, TITLE) };
    let currency = state.services.commerce.carts.shared().currency;
    let plan = plan_of_sku(&entry.sku);
    form_page(req, state, status, values, errors, notice, |view| {
        pages::join(&state.services.site.current(), &entry, plan.as_ref(), currency, &query.action(), view)
    })
}

/// `GET /checkout/join?…`: the checkout of one membership.
pub async fn show_join(req: HttpRequest, query: web::Query<JoinQuery>, state: web::Data<AppState>) -> HttpResponse {
    join_form(&req, &state, &query, StatusCode::OK, &Fields::new(), &FieldErrors::new(), None)
}

/// `POST /checkout/join?…`: buys the membership (a subscription order).
pub async fn place_join(query: web::Query<JoinQuery>, post: CheckoutPost) -> Result<HttpResponse, CommerceError> {
    let Some(entry) = query.entry(&post.state) else { return Ok(bad_link(&post.state, TITLE)) };
    if let Some(refused) = post.rate_refusal(CheckoutKind::Cart) {
        return Ok(refused);
    }
    let CheckoutPost { req, state, fields } = &post;
    let none = FieldErrors::new();
    if post.crumb_fails() {
        return Ok(join_form(req, state, &query, StatusCode::FORBIDDEN, fields, &none, Some(CRUMB_FAIL_MESSAGE)));
    }
    let customer = match form::customer(fields, false) {
        Ok(customer) => customer,
        Err(errors) => return Ok(join_form(req, state, &query, StatusCode::BAD_REQUEST, fields, &errors, None)),
    };
    match join(state.services.commerce.carts.shared(), entry, customer).await {
        Ok(order) => Ok(order_placed(state, &order)),
        Err(e) => Ok(join_form(req, state, &query, cart_status(&e), fields, &none, Some(&e.to_string()))),
    }
}
