//! The checkouts that need no cart from the visitor: `/checkout/donate?donatePageId=…`
//! (a donation button's page) and `/checkout/giftcard?websiteId=…&giftCardProductId=…&sku=…`
//! (one gift card). Each is a form posting back to its own address; the placed order
//! redirects (303) to its confirmation.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::commerce::cart::CartChange;
use veranda_actors::commerce::carts::checkout::donate;
use veranda_actors::commerce::catalog::CatalogVariant;
use veranda_actors::commerce::order::{Customer, OrderKind};
use veranda_actors::domain::enums::ProductType;

use super::checkout::{bad_link, form_page, order_placed, CheckoutPost};
use super::cookie::CartId;
use super::error::{cart_status, CommerceError};
use super::form::{self, FieldErrors, Fields};
use super::pages;
use crate::security::crumb::CRUMB_FAIL_MESSAGE;
use crate::services::commerce::limit::CheckoutKind;
use crate::state::AppState;

/// `?donatePageId=…` of the donation checkout.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DonateQuery {
    #[serde(default)]
    donate_page_id: String,
}

fn donate_form(
    req: &HttpRequest,
    state: &AppState,
    page_id: &str,
    status: StatusCode,
    values: &Fields,
    errors: &FieldErrors,
    notice: Option<&str>,
) -> HttpResponse {
    let action = format!("/checkout/donate?donatePageId={}", crate::render::util::encode_query(page_id));
    form_page(req, state, status, values, errors, notice, |view| {
        pages::donate(&state.services.site.current(), &action, &[], view)
    })
}

/// `GET /checkout/donate?donatePageId=…`: the donation form of a donation button.
pub async fn show_donate(req: HttpRequest, query: web::Query<DonateQuery>, state: web::Data<AppState>) -> HttpResponse {
    if !state.services.commerce.donate_pages.contains(&query.donate_page_id) {
        return bad_link(&state, "Donate");
    }
    donate_form(&req, &state, &query.donate_page_id, StatusCode::OK, &Fields::new(), &FieldErrors::new(), None)
}

/// `POST /checkout/donate?donatePageId=…`: takes the donation.
pub async fn place_donation(query: web::Query<DonateQuery>, post: CheckoutPost) -> Result<HttpResponse, CommerceError> {
    let page_id = &query.donate_page_id;
    if !post.state.services.commerce.donate_pages.contains(page_id) {
        return Ok(bad_link(&post.state, "Donate"));
    }
    if let Some(refused) = post.rate_refusal(CheckoutKind::Donation) {
        return Ok(refused);
    }
    let CheckoutPost { req, state, fields } = &post;
    let none = FieldErrors::new();
    if post.crumb_fails() {
        return Ok(donate_form(req, state, page_id, StatusCode::FORBIDDEN, fields, &none, Some(CRUMB_FAIL_MESSAGE)));
    }
    let shared = state.services.commerce.carts.shared();
    let amount = form::amount(fields.get("amount").map(String::as_str).unwrap_or_default(), shared.currency);
    let (customer, amount) = match (form::customer(fields, false), amount) {
        (Ok(customer), Ok(amount)) => (customer, amount),
        (customer, amount) => {
            let mut errors = customer.err().unwrap_or_default();
            if let Err(message) = amount {
                errors.insert("amount", message.to_string());
            }
            return Ok(donate_form(req, state, page_id, StatusCode::BAD_REQUEST, fields, &errors, None));
        }
    };
    match donate(shared, page_id, amount, customer).await {
        Ok(order) => Ok(order_placed(state, &order)),
        Err(e) => Ok(donate_form(req, state, page_id, cart_status(&e), fields, &none, Some(&e.to_string()))),
    }
}

/// `?websiteId=…&giftCardProductId=…&sku=…` of the gift card checkout.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiftCardQuery {
    #[serde(default)]
    website_id: String,
    #[serde(default)]
    gift_card_product_id: String,
    #[serde(default)]
    sku: String,
}

impl GiftCardQuery {
    /// The gift card variant the link names, if it is one of this site's.
    fn variant(&self, state: &AppState) -> Option<CatalogVariant> {
        let shared = state.services.commerce.carts.shared();
        let variant = state.services.commerce.catalog().get(&self.sku)?.clone();
        let ok = self.website_id == shared.website_id
            && variant.item_id == self.gift_card_product_id
            && variant.product_type == ProductType::GiftCard
            && variant.sellable;
        ok.then_some(variant)
    }

    fn action(&self) -> String {
        use crate::render::util::encode_query;
        format!(
            "/checkout/giftcard?websiteId={}&giftCardProductId={}&sku={}",
            encode_query(&self.website_id),
            encode_query(&self.gift_card_product_id),
            encode_query(&self.sku)
        )
    }
}

fn gift_card_form(
    req: &HttpRequest,
    state: &AppState,
    query: &GiftCardQuery,
    status: StatusCode,
    values: &Fields,
    errors: &FieldErrors,
    notice: Option<&str>,
) -> HttpResponse {
    let Some(variant) = query.variant(state) else { return bad_link(state, "Gift card checkout") };
    let currency = state.services.commerce.carts.shared().currency;
    form_page(req, state, status, values, errors, notice, |view| {
        pages::gift_card(&state.services.site.current(), &variant, currency, &query.action(), view)
    })
}

/// `GET /checkout/giftcard?…`: the checkout of one gift card.
pub async fn show_gift_card(
    req: HttpRequest,
    query: web::Query<GiftCardQuery>,
    state: web::Data<AppState>,
) -> HttpResponse {
    gift_card_form(&req, &state, &query, StatusCode::OK, &Fields::new(), &FieldErrors::new(), None)
}

/// `POST /checkout/giftcard?…`: buys the gift card (a one-entry cart of its own).
pub async fn place_gift_card(
    query: web::Query<GiftCardQuery>,
    post: CheckoutPost,
) -> Result<HttpResponse, CommerceError> {
    let Some(variant) = query.variant(&post.state) else { return Ok(bad_link(&post.state, "Gift card checkout")) };
    if let Some(refused) = post.rate_refusal(CheckoutKind::GiftCard) {
        return Ok(refused);
    }
    let CheckoutPost { req, state, fields } = &post;
    let none = FieldErrors::new();
    if post.crumb_fails() {
        return Ok(gift_card_form(req, state, &query, StatusCode::FORBIDDEN, fields, &none, Some(CRUMB_FAIL_MESSAGE)));
    }
    let customer: Customer = match form::customer(fields, false) {
        Ok(customer) => customer,
        Err(errors) => return Ok(gift_card_form(req, state, &query, StatusCode::BAD_REQUEST, fields, &errors, None)),
    };
    let carts = &state.services.commerce;
    let id = CartId::generate();
    let placed = async {
        carts.change(id.as_str(), CartChange::AddEntry { sku: variant.sku.clone(), quantity: 1 }).await?;
        carts.place_order(id.as_str(), customer, OrderKind::Order).await
    };
    match placed.await {
        Ok(order) => Ok(order_placed(state, &order)),
        Err(e) => Ok(gift_card_form(req, state, &query, cart_status(&e), fields, &none, Some(&e.to_string()))),
    }
}
