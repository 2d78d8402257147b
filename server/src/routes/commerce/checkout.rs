//! Checkout entry points and pages (spec 000 §2, §8): `/commerce/goto-checkout`,
//! `/checkout` (the cart), `/checkout/subscribe?cartToken=…`
//! and the confirmation page `/commerce/orders/{id}`. Each checkout page is a form that
//! posts back to its own address; a placed order redirects (303) to its confirmation.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use futures_util::future::LocalBoxFuture;
use serde::Deserialize;
use veranda_actors::commerce::cart::{CartChange, CartError, ShoppingCart};
use veranda_actors::commerce::membership::plan_of_sku;
use veranda_actors::commerce::order::{Order, OrderKind};
use veranda_actors::commerce::rules::ShippingLocation;
use veranda_actors::commerce::subscription::PlanTerms;

use super::cookie::CartId;
use super::error::{cart_status, CommerceBody, CommerceError};
use super::form::{self, FieldErrors, Fields};
use super::pages::{self, FormView};
use crate::edge::{no_store, Crumbed, LimitedForm};
use crate::security::crumb::{crumb_cookie, CRUMB_COOKIE, CRUMB_FAIL_MESSAGE};
use crate::services::commerce::limit::CheckoutKind;
use crate::state::AppState;

/// The cookie that holds an order's secret, scoped to that order's page.
pub const ORDER_KEY_COOKIE: &str = "order_key";
/// How long the buyer's browser keeps an order's secret.
const ORDER_KEY_DAYS: i64 = 30;

/// Checkout without a cart cookie (spec 000 §8, verbatim).
pub const NO_CART_COOKIE: &str =
    "Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.";

/// An HTML answer, with a crumb cookie when one was issued.
pub(super) fn html(status: StatusCode, body: String, crumb: Option<&str>) -> HttpResponse {
    let mut response = no_store(HttpResponse::build(status));
    if let Some(crumb) = crumb {
        response.cookie(crumb_cookie(crumb));
    }
    response.content_type("text/html; charset=utf-8").body(body)
}

/// The request's crumb when it verifies, else a fresh one (returned as issued).
pub(super) fn page_crumb(req: &HttpRequest, state: &AppState) -> (String, bool) {
    match req.cookie(CRUMB_COOKIE).filter(|c| state.crumb_key.verifies(req, c.value())) {
        Some(cookie) => (cookie.value().to_string(), false),
        None => (state.crumb_key.issue(req), true),
    }
}

/// A form page with its crumb (a fresh one also set as a cookie when the request has none
/// that verifies); `page` renders the body from the form's view.
pub(super) fn form_page(
    req: &HttpRequest,
    state: &AppState,
    status: StatusCode,
    values: &Fields,
    errors: &FieldErrors,
    notice: Option<&str>,
    page: impl FnOnce(&FormView) -> String,
) -> HttpResponse {
    let (crumb, issued) = page_crumb(req, state);
    let view = FormView { crumb: &crumb, values, errors, notice };
    html(status, page(&view), issued.then_some(crumb.as_str()))
}

/// A posted checkout form: the request, the application and the form's fields (read
/// within the commerce body limit).
pub struct CheckoutPost {
    pub req: HttpRequest,
    pub state: web::Data<AppState>,
    pub fields: Fields,
}

impl CheckoutPost {
    /// Takes one checkout attempt of `kind`; the refusal to answer with when the
    /// client's address is past its rate ([`rate_refusal`]).
    pub(super) fn rate_refusal(&self, kind: CheckoutKind) -> Option<HttpResponse> {
        rate_refusal(&self.req, &self.state, kind)
    }

    /// Whether the form's own `crumb` field fails ([`Crumbed::from_field`]).
    pub(super) fn crumb_fails(&self) -> bool {
        Crumbed::from_field(&self.req, self.fields.get("crumb").map(String::as_str)).is_err()
    }
}

impl FromRequest for CheckoutPost {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<CheckoutPost, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(LimitedForm<Fields, CommerceBody>, web::Data<AppState>)>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let (body, state) = parts.await?;
            Ok(CheckoutPost { req, state, fields: body.into_inner() })
        })
    }
}

/// Takes one checkout attempt of the client's address; when the address is past its
/// rate, the refusal to answer with instead: 429 with `Retry-After` and a JSON error.
pub(super) fn rate_refusal(req: &HttpRequest, state: &AppState, kind: CheckoutKind) -> Option<HttpResponse> {
    let ip = crate::security::proxy::client_ip(req);
    state.services.commerce.limiter.admit(ip, kind).err().map(|limited| {
        let secs = limited.retry_after_secs;
        let message = format!("Too many checkouts from your address; try again in {secs} seconds.");
        no_store(HttpResponse::TooManyRequests())
            .insert_header((header::RETRY_AFTER, secs.to_string()))
            .json(serde_json::json!({ "error": message }))
    })
}

/// The answer to a placed order: publishes it, gives the buyer's browser the order's
/// secret (an HttpOnly cookie for the order's page) and sends it (303) to the
/// confirmation, whose address carries the secret too.
pub(super) fn order_placed(state: &AppState, order: &Order) -> HttpResponse {
    crate::services::streams::publish_order_placed(&state.services.streams, order);
    let page = format!("/commerce/orders/{}", order.id);
    let key = Cookie::build(ORDER_KEY_COOKIE, order.secret.clone())
        .path(page.clone())
        .http_only(true)
        .same_site(SameSite::Lax)
        .max_age(actix_web::cookie::time::Duration::days(ORDER_KEY_DAYS))
        .finish();
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("{page}?key={}", order.secret)))
        .cookie(key)
        .finish()
}

pub(super) fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, location)).finish()
}

/// The page of a checkout without a cart cookie (400).
fn no_cart_cookie(state: &AppState) -> HttpResponse {
    html(StatusCode::BAD_REQUEST, pages::message(&state.services.site.current(), "Checkout", NO_CART_COOKIE), None)
}

/// `GET /commerce/goto-checkout`: on to the checkout page, or the spec's message when
/// there is no cart cookie.
pub async fn goto_checkout(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    match CartId::from_request(&req) {
        Some(_) => see_other("/checkout"),
        None => no_cart_cookie(&state),
    }
}

/// What a cart checkout page is about.
struct CartCheckout {
    /// The cart.
    cart: ShoppingCart,
    /// The plan terms of its subscription entries.
    plans: Vec<PlanTerms>,
    /// Where the form posts.
    action: String,
    /// Order or subscription.
    kind: OrderKind,
}

/// The cart `id` ready for checkout, or the page to show instead.
async fn cart_checkout(state: &AppState, id: &CartId, kind: OrderKind) -> Result<CartCheckout, HttpResponse> {
    let site = &state.services.site.current();
    let cart = match state.services.commerce.carts.get(id.as_str()).await {
        Ok(Some(cart)) => cart,
        Ok(None) => ShoppingCart::new(id.as_str(), "", state.services.commerce.carts.shared().currency, 0),
        Err(e) => return Err(html(cart_status(&e), pages::message(site, "Checkout", &e.to_string()), None)),
    };
    if cart.is_purchased {
        return Err(see_other(&format!("/commerce/orders/{}", cart.order_id)));
    }
    if cart.entries.is_empty() {
        return Err(html(StatusCode::OK, pages::message(site, "Checkout", &CartError::Empty.to_string()), None));
    }
    // Read through the carts, every subscription entry carries its terms as the cart shows them.
    let plans: Vec<PlanTerms> = cart.entries.iter().filter_map(|e| e.plan_terms.clone()).collect();
    let action = match kind {
        OrderKind::Subscription => {
            if plans.is_empty() {
                let text = "This cart holds no subscription.";
                return Err(html(StatusCode::BAD_REQUEST, pages::message(site, "Subscription checkout", text), None));
            }
            format!("/checkout/subscribe?cartToken={}", id.as_str())
        }
        _ => "/checkout".to_string(),
    };
    let kind = if plans.is_empty() { OrderKind::Order } else { OrderKind::Subscription };
    Ok(CartCheckout { cart, plans, action, kind })
}

/// Shows a cart's checkout form (again, with `errors`, after a refused post).
fn checkout_form(
    req: &HttpRequest,
    state: &AppState,
    checkout: &CartCheckout,
    status: StatusCode,
    values: &Fields,
    errors: &FieldErrors,
    notice: Option<&str>,
) -> HttpResponse {
    form_page(req, state, status, values, errors, notice, |view| {
        pages::checkout(&state.services.site.current(), &checkout.cart, &checkout.plans, &checkout.action, view)
    })
}

/// Places the order of a cart checkout from a posted form.
async fn place_cart(post: CheckoutPost, id: CartId, kind: OrderKind) -> Result<HttpResponse, CommerceError> {
    if let Some(refused) = post.rate_refusal(CheckoutKind::Cart) {
        return Ok(refused);
    }
    let CheckoutPost { req, state, fields } = &post;
    let state: &AppState = state;
    let checkout = match cart_checkout(state, &id, kind).await {
        Ok(checkout) => checkout,
        Err(page) => return Ok(page),
    };
    let none = FieldErrors::new();
    if post.crumb_fails() {
        return Ok(checkout_form(
            req,
            state,
            &checkout,
            StatusCode::FORBIDDEN,
            fields,
            &none,
            Some(CRUMB_FAIL_MESSAGE),
        ));
    }
    let customer = match form::customer(fields, checkout.cart.requires_shipping) {
        Ok(customer) => customer,
        Err(errors) => return Ok(checkout_form(req, state, &checkout, StatusCode::BAD_REQUEST, fields, &errors, None)),
    };
    let carts = &state.services.commerce;
    let location = ShippingLocation {
        country: customer.country.clone(),
        region: customer.region.clone(),
        postal_code: customer.postal_code.clone(),
    };
    // Tax follows the address given here; the order is placed on the updated totals.
    let placed = match carts.change(id.as_str(), CartChange::SetShippingLocation(location)).await {
        Ok(_) => carts.place_order(id.as_str(), customer, checkout.kind).await,
        Err(e) => Err(e),
    };
    match placed {
        Ok(order) => Ok(order_placed(state, &order)),
        Err(e) => Ok(checkout_form(req, state, &checkout, cart_status(&e), fields, &none, Some(&e.to_string()))),
    }
}

/// The checkout form of cart `id`, or the page to show instead.
async fn show_cart(req: &HttpRequest, state: &AppState, id: &CartId, kind: OrderKind) -> HttpResponse {
    match cart_checkout(state, id, kind).await {
        Ok(checkout) => checkout_form(req, state, &checkout, StatusCode::OK, &Fields::new(), &FieldErrors::new(), None),
        Err(page) => page,
    }
}

/// `GET /checkout`: the checkout page of the visitor's cart.
pub async fn show(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let Some(id) = CartId::from_request(&req) else { return no_cart_cookie(&state) };
    show_cart(&req, &state, &id, OrderKind::Order).await
}

/// `POST /checkout`: places the order of the visitor's cart.
pub async fn place(post: CheckoutPost) -> Result<HttpResponse, CommerceError> {
    let Some(id) = CartId::from_request(&post.req) else { return Ok(no_cart_cookie(&post.state)) };
    place_cart(post, id, OrderKind::Order).await
}

/// `?cartToken=…` of the subscription checkout.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscribeQuery {
    #[serde(default)]
    cart_token: String,
}

pub(super) fn bad_link(state: &AppState, title: &str) -> HttpResponse {
    html(
        StatusCode::NOT_FOUND,
        pages::message(&state.services.site.current(), title, "This checkout link is not valid."),
        None,
    )
}

/// `GET /checkout/subscribe?cartToken=…`: the checkout of a subscription cart.
pub async fn show_subscribe(
    req: HttpRequest,
    query: web::Query<SubscribeQuery>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let Some(id) = CartId::parse(&query.cart_token) else { return bad_link(&state, "Subscription checkout") };
    show_cart(&req, &state, &id, OrderKind::Subscription).await
}

/// `POST /checkout/subscribe?cartToken=…`: places the subscription order.
pub async fn place_subscribe(
    query: web::Query<SubscribeQuery>,
    post: CheckoutPost,
) -> Result<HttpResponse, CommerceError> {
    let Some(id) = CartId::parse(&query.cart_token) else { return Ok(bad_link(&post.state, "Subscription checkout")) };
    place_cart(post, id, OrderKind::Subscription).await
}

/// `?key=…` of the confirmation page.
#[derive(Deserialize)]
pub struct OrderQuery {
    #[serde(default)]
    key: String,
}

/// `GET /commerce/orders/{id}?key=…`: the confirmation of a placed order, shown only
/// with the order's secret (in `key`, or the buyer's order cookie): its id, which the
/// cart shows, is not enough.
pub async fn confirmation(
    req: HttpRequest,
    id: web::Path<String>,
    query: Option<web::Query<OrderQuery>>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let cookie = req.cookie(ORDER_KEY_COOKIE).map(|c| c.value().to_string()).unwrap_or_default();
    let key = query.map(|q| q.into_inner().key).filter(|k| !k.is_empty()).unwrap_or(cookie);
    let order = match state.services.commerce.storage.load_order(&id) {
        Ok(Some(order)) if order.opens_with(&key) => order,
        Ok(_) => {
            return html(
                StatusCode::NOT_FOUND,
                pages::message(&state.services.site.current(), "Order", "There is no such order."),
                None,
            )
        }
        Err(e) => {
            tracing::error!(error = %e, "an order could not be read");
            let text = "The order could not be read; please try again.";
            return html(
                StatusCode::INTERNAL_SERVER_ERROR,
                pages::message(&state.services.site.current(), "Order", text),
                None,
            );
        }
    };
    let catalog = state.services.commerce.catalog();
    // The terms the order was placed under; a membership, or an order placed before they were
    // kept, takes them from its plan.
    let plans: Vec<PlanTerms> = order
        .entries
        .iter()
        .filter_map(|e| {
            e.plan_terms.clone().or_else(|| {
                let plan = catalog.get(&e.sku).and_then(|v| v.subscription.clone()).or_else(|| plan_of_sku(&e.sku))?;
                PlanTerms::of_cents(&plan, e.total_cents, order.currency)
            })
        })
        .collect();
    html(StatusCode::OK, pages::confirmation(&state.services.site.current(), &order, &plans), None)
}
