//! The cart without JavaScript: plain HTML form posts that add to the cart, change a
//! quantity, remove an entry and choose a shipping option, and the cart page they work
//! on, `GET /commerce/cart`. With JavaScript the islands take the same forms over and
//! use the JSON API instead ([`super::cart_api`]).
//!
//! | Route | Fields |
//! |---|---|
//! | `POST /commerce/cart/add` | `sku` (or `itemId` of a product with one variant), `quantity` (default 1) |
//! | `POST /commerce/cart/quantity` | `sku`, `quantity` |
//! | `POST /commerce/cart/remove` | `sku` |
//! | `POST /commerce/cart/shipping` | `optionId` |
//!
//! Every post may carry `returnTo`, where to go afterwards (default: the cart page).
//!
//! ## After an add
//!
//! A successful add does not go back to `returnTo` itself: it lands on the plain cart
//! page with `?added=1&from=<returnTo>` (`from` percent-encoded, left out when it is the
//! cart page), which shows the visitor a `role="status"` notice, "Added to cart.", with
//! a link to the cart, and offers `from` as the way to continue shopping. `from` is
//! checked again when the cart page renders it (a path on this site, else the home page
//! is offered), so neither the redirect nor the link can lead off the site.
//!
//! ## Checks
//!
//! Like the plain posts of forms (`routes/forms/plain.rs`): the `crumb` cookie
//! must be there and verify (it is `SameSite=Lax`, so a cross-site post never carries
//! it), and when the browser says where the post came from (`Sec-Fetch-Site`, `Origin`)
//! it must be this site. The product pages are rendered the same for everyone, so their
//! forms carry no crumb field; the cart page does, and a `crumb` field, when posted,
//! must equal the cookie. A refused check answers 403 with a fresh crumb cookie.
//!
//! Success answers `303 See Other` to `returnTo`, which must be a path on this site
//! (anything else is refused before the cart is touched: never an open redirect).
//! Refusals answer their status (400 for bad input, 404 for an entry not in the cart,
//! 409 for a product not for sale, 413 for an oversized form) with a small page giving
//! the reason and a link back. A cart cookie that is present but not a well-formed id is
//! refused (400) and cleared, so the next try starts a new cart; a missing cookie starts
//! one on add and is refused for the other changes, which need a cart.

use crate::security::cookies::site_cookie;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use maud::{html, Markup};
use serde::Deserialize;
use veranda_actors::commerce::cart::{CartChange, CartError, ShoppingCart};
use veranda_actors::commerce::rules::MAX_ENTRY_QUANTITY;
use veranda_actors::domain::enums::PageType;

use super::checkout::{html as html_response, page_crumb};
use super::cookie::{CartId, CART_COOKIE};
use super::error::{cart_status, CommerceBody, CommerceError};
use super::form::Fields;
use super::pages::{document, money, plan_terms};
use crate::edge::method;
use crate::edge::{no_store, CrumbFail, Crumbed, LimitedForm, PlainPost};
use crate::security::crumb::{crumb_cookie, CRUMB_FAIL_MESSAGE};
use crate::security::owner_redirect::is_same_site_path;
use crate::state::AppState;

/// The cart page that works without JavaScript.
pub const PLAIN_CART_PAGE: &str = "/commerce/cart";
/// Where the add form posts.
pub const ADD_PATH: &str = "/commerce/cart/add";
/// Where a quantity change posts.
pub const QUANTITY_PATH: &str = "/commerce/cart/quantity";
/// Where a removal posts.
pub const REMOVE_PATH: &str = "/commerce/cart/remove";
/// Where a shipping choice posts.
pub const SHIPPING_PATH: &str = "/commerce/cart/shipping";
/// Longest `returnTo` accepted.
const MAX_RETURN: usize = 2000;

/// A posted change without a cart cookie.
pub const NO_CART: &str =
    "Your cart could not be found. Either your session has expired or you do not have cookies enabled.";
/// A cart cookie that is not one this server makes.
pub const BAD_CART_COOKIE: &str = "Your cart cookie was not recognised and has been cleared. Please try again.";
/// A `returnTo` that is not a path on this site.
pub const BAD_RETURN: &str = "The address to return to must be a path on this site.";

/// Why a plain post was refused: the status and the message shown.
struct Refusal {
    status: StatusCode,
    message: String,
    /// Clear the cart cookie (it was malformed).
    clear_cart: bool,
    /// Issue a fresh crumb (the crumb check failed).
    fresh_crumb: bool,
}

impl Refusal {
    fn bad(message: impl Into<String>) -> Refusal {
        Refusal { status: StatusCode::BAD_REQUEST, message: message.into(), clear_cart: false, fresh_crumb: false }
    }

    /// A post whose crumb does not verify: 403, and a fresh crumb to try again with.
    fn crumb_fail() -> Refusal {
        Refusal {
            status: StatusCode::FORBIDDEN,
            message: CRUMB_FAIL_MESSAGE.into(),
            clear_cart: false,
            fresh_crumb: true,
        }
    }
}

impl From<CommerceError> for Refusal {
    fn from(e: CommerceError) -> Refusal {
        let status = e.status_code();
        if let CommerceError::Cart(CartError::Store(inner)) = &e {
            tracing::error!(error = %inner, "a cart could not be saved");
        }
        Refusal { status, message: e.to_string(), clear_cart: false, fresh_crumb: false }
    }
}

impl From<CartError> for Refusal {
    fn from(e: CartError) -> Refusal {
        CommerceError::Cart(e).into()
    }
}

/// `POST /commerce/cart/add`.
pub async fn add(req: HttpRequest, checked: Checked, body: PlainForm, state: web::Data<AppState>) -> HttpResponse {
    post(&req, checked, body, &state, |fields, state| {
        let quantity = quantity(fields.get("quantity").map(String::as_str).unwrap_or("1"))?;
        let sku = match (text(fields, "sku"), text(fields, "itemId")) {
            (Some(sku), _) => sku.to_string(),
            (None, Some(item)) => match state.services.commerce.catalog().skus_of(item) {
                [only] => only.clone(),
                [] => return Err(Refusal::bad(format!("There is no product '{item}' in this store."))),
                _ => return Err(Refusal::bad("Choose a variant: this product has several.")),
            },
            (None, None) => return Err(Refusal::bad("Choose the product to add.")),
        };
        Ok((CartChange::AddEntry { sku, quantity }, true))
    })
    .await
}

/// `POST /commerce/cart/quantity`.
pub async fn change_quantity(
    req: HttpRequest,
    checked: Checked,
    body: PlainForm,
    state: web::Data<AppState>,
) -> HttpResponse {
    post(&req, checked, body, &state, |fields, _| {
        let sku = text(fields, "sku").ok_or_else(|| Refusal::bad("Name the item to change."))?.to_string();
        let quantity = quantity(fields.get("quantity").map(String::as_str).unwrap_or_default())?;
        Ok((CartChange::ChangeQuantity { sku, quantity }, false))
    })
    .await
}

/// `POST /commerce/cart/remove`.
pub async fn remove(req: HttpRequest, checked: Checked, body: PlainForm, state: web::Data<AppState>) -> HttpResponse {
    post(&req, checked, body, &state, |fields, _| {
        let sku = text(fields, "sku").ok_or_else(|| Refusal::bad("Name the item to remove."))?.to_string();
        Ok((CartChange::RemoveEntry { sku }, false))
    })
    .await
}

/// `POST /commerce/cart/shipping`.
pub async fn shipping(req: HttpRequest, checked: Checked, body: PlainForm, state: web::Data<AppState>) -> HttpResponse {
    post(&req, checked, body, &state, |fields, _| {
        let option_id = text(fields, "optionId").ok_or_else(|| Refusal::bad("Choose a shipping option."))?.to_string();
        Ok((CartChange::SelectShipping { option_id }, false))
    })
    .await
}

/// A posted field, trimmed; `None` when missing or empty.
fn text<'a>(fields: &'a Fields, name: &str) -> Option<&'a str> {
    fields.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// A quantity as typed: a whole number from 1 to the entry limit.
fn quantity(text: &str) -> Result<u32, Refusal> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|q| (1..=MAX_ENTRY_QUANTITY).contains(q))
        .ok_or_else(|| CartError::BadQuantity { max: MAX_ENTRY_QUANTITY }.into())
}

/// The crumb check of a plain post.
type Checked = Result<PlainPost, CrumbFail>;
/// The posted form, at most the `max_body_bytes` setting.
type PlainForm = Result<LimitedForm<Fields, CommerceBody>, CommerceError>;

/// Runs one plain post: the checks, `read` turning the fields into a change (and whether
/// it may start a new cart), the change, then 303 to `returnTo`.
async fn post<F>(req: &HttpRequest, checked: Checked, body: PlainForm, state: &AppState, read: F) -> HttpResponse
where
    F: FnOnce(&Fields, &AppState) -> Result<(CartChange, bool), Refusal>,
{
    match apply(req, checked, body, state, read).await {
        Ok((location, new_cart, added)) => {
            let location = if added { added_location(&location) } else { location };
            let mut response = no_store(HttpResponse::SeeOther());
            response.insert_header((header::LOCATION, location));
            if let Some(id) = new_cart {
                response.cookie(id.cookie());
            }
            response.finish()
        }
        Err((refusal, back)) => refusal_page(req, state, refusal, &back),
    }
}

/// The checks and the change; the address to go to, the new cart's id, if one was
/// made, and whether the change was an add; or the refusal with the address to offer
/// as the way back.
async fn apply<F>(
    req: &HttpRequest,
    checked: Checked,
    body: PlainForm,
    state: &AppState,
    read: F,
) -> Result<(String, Option<CartId>, bool), (Refusal, String)>
where
    F: FnOnce(&Fields, &AppState) -> Result<(CartChange, bool), Refusal>,
{
    let fallback = || PLAIN_CART_PAGE.to_string();
    if checked.is_err() {
        return Err((Refusal::crumb_fail(), fallback()));
    }
    let fields = body.map_err(|e| (e.into(), fallback()))?.into_inner();
    let back = match text(&fields, "returnTo") {
        None => fallback(),
        Some(path) if path.len() <= MAX_RETURN && is_same_site_path(path) => path.to_string(),
        Some(_) => return Err((Refusal::bad(BAD_RETURN), fallback())),
    };
    let fail = |refusal: Refusal| (refusal, back.clone());
    if fields.get("crumb").is_some_and(|field| Crumbed::from_field(req, Some(field)).is_err()) {
        return Err(fail(Refusal::crumb_fail()));
    }
    let (change, may_start) = read(&fields, state).map_err(fail)?;
    let (id, new) = match (req.cookie(CART_COOKIE), CartId::from_request(req)) {
        (_, Some(id)) => (id, false),
        (Some(_), None) => {
            let refusal = Refusal {
                status: StatusCode::BAD_REQUEST,
                message: BAD_CART_COOKIE.into(),
                clear_cart: true,
                fresh_crumb: false,
            };
            return Err(fail(refusal));
        }
        (None, None) if may_start => (CartId::generate(), true),
        (None, None) => return Err(fail(Refusal::bad(NO_CART))),
    };
    let added = matches!(change, CartChange::AddEntry { .. });
    state.services.commerce.change(id.as_str(), change).await.map_err(|e| fail(e.into()))?;
    Ok((back, new.then_some(id), added))
}

/// Where a successful add from `back` lands: the plain cart page with its notice.
fn added_location(back: &str) -> String {
    if back == PLAIN_CART_PAGE {
        return format!("{PLAIN_CART_PAGE}?added=1");
    }
    format!("{PLAIN_CART_PAGE}?added=1&from={}", encode_component(back))
}

/// `text` percent-encoded for a query value (everything but unreserved characters).
fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The query of the plain cart page after an add.
#[derive(Deserialize, Default)]
struct CartPageQuery {
    /// `1` after an add.
    #[serde(default)]
    added: String,
    /// The page the add came from.
    #[serde(default)]
    from: String,
}

/// The page of a refused post: its reason and a link back.
fn refusal_page(req: &HttpRequest, state: &AppState, refusal: Refusal, back: &str) -> HttpResponse {
    let body = html! {
        p class="notice" role="alert" { (refusal.message) }
        p { a href=(back) { "Go back" } }
        p { a href=(PLAIN_CART_PAGE) { "View your cart" } }
    };
    let page = document(&state.services.site.current(), PageType::ShowCart, "Your cart was not changed", body);
    let mut response = html_response(refusal.status, page, None);
    if refusal.fresh_crumb {
        let _ = response.add_cookie(&crumb_cookie(&state.crumb_key.issue(req)));
    }
    if refusal.clear_cart && req.cookie(CART_COOKIE).is_some() {
        let mut gone = site_cookie(CART_COOKIE, "").finish();
        gone.make_removal();
        let _ = response.add_cookie(&gone);
    }
    response
}

/// `GET /commerce/cart`: the visitor's cart with a form for every change.
pub async fn cart_page(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let carts = &state.services.commerce.carts;
    let cart = match CartId::from_request(&req) {
        Some(id) => match carts.get(id.as_str()).await {
            Ok(cart) => cart,
            Err(e) => {
                let page = document(
                    &state.services.site.current(),
                    PageType::ShowCart,
                    "Your cart",
                    html! { p role="alert" { (e) } },
                );
                return html_response(cart_status(&e), page, None);
            }
        },
        None => None,
    };
    let cart = cart.unwrap_or_else(|| ShoppingCart::new("", "", carts.shared().currency, 0));
    let (crumb, issued) = page_crumb(&req, &state);
    let query = web::Query::<CartPageQuery>::from_query(req.query_string()).map(|q| q.into_inner()).unwrap_or_default();
    let from = query.from.trim();
    let continue_to = if from.len() <= MAX_RETURN && is_same_site_path(from) { from } else { "/" };
    let body = html! {
        @if query.added == "1" {
            p class="notice cart__added" role="status" { "Added to cart. " a href=(PLAIN_CART_PAGE) { "View your cart" } }
        }
        (cart_body(&cart, &crumb, PLAIN_CART_PAGE, continue_to))
    };
    let page = document(&state.services.site.current(), PageType::ShowCart, "Your cart", body);
    html_response(StatusCode::OK, page, issued.then_some(crumb.as_str()))
}

/// The hidden fields every cart form carries: the crumb and where to come back to.
fn hidden(crumb: &str, return_to: &str) -> Markup {
    html! {
        input type="hidden" name="crumb" value=(crumb);
        input type="hidden" name="returnTo" value=(return_to);
    }
}

/// The cart's entries, shipping choice and totals, each change a form of its own that
/// comes back to `return_to`; `continue_to` is where "Continue shopping" goes. The one
/// rendering of a cart without JavaScript: `GET /commerce/cart` and the cart root of
/// `GET /cart` ([`super::cart_root`]) both show it.
pub(super) fn cart_body(cart: &ShoppingCart, crumb: &str, return_to: &str, continue_to: &str) -> Markup {
    let currency = cart.subtotal_amount.currency();
    let m = |c| money(c, currency);
    let selected = cart.selected_shipping_option.as_ref().map(|o| o.id.as_str());
    html! {
        @if cart.entries.is_empty() {
            p class="cart__empty" { "Your cart is empty." }
            p { a href=(continue_to) { "Continue shopping" } }
        } @else {
            table class="cart-entries" {
                caption { "Items in your cart" }
                thead { tr { th scope="col" { "Item" } th scope="col" { "Price" } th scope="col" { "Quantity" } th scope="col" { "Total" } th scope="col" { "Remove" } } }
                tbody {
                    @for (i, e) in cart.entries.iter().enumerate() {
                        tr data-sku=(e.sku) {
                            th scope="row" {
                                (e.title) @if !e.options.is_empty() { br; small { (e.options.join(", ")) } }
                                @if let Some(terms) = &e.plan_terms { (plan_terms(terms)) }
                            }
                            td { (m(e.unit_price_cents)) }
                            td {
                                form method="post" action=(QUANTITY_PATH) class="cart-quantity" {
                                    (hidden(crumb, return_to))
                                    input type="hidden" name="sku" value=(e.sku);
                                    label for={ "quantity-" (i) } class="visually-hidden" { "Quantity of " (e.title) }
                                    input id={ "quantity-" (i) } name="quantity" type="number" min="1" max=(MAX_ENTRY_QUANTITY) value=(e.quantity) inputmode="numeric" style="width:5rem";
                                    " "
                                    button type="submit" aria-label={ "Update quantity of " (e.title) } { "Update" }
                                }
                            }
                            td { (m(e.total_cents)) }
                            td {
                                form method="post" action=(REMOVE_PATH) class="cart-remove" {
                                    (hidden(crumb, return_to))
                                    input type="hidden" name="sku" value=(e.sku);
                                    button type="submit" aria-label={ "Remove " (e.title) } { "Remove" }
                                }
                            }
                        }
                    }
                }
            }
            @if cart.requires_shipping && !cart.shipping_options.is_empty() {
                form method="post" action=(SHIPPING_PATH) class="cart-shipping" {
                    (hidden(crumb, return_to))
                    fieldset {
                        legend { "Shipping" }
                        @for (i, o) in cart.shipping_options.iter().enumerate() {
                            p {
                                input type="radio" id={ "shipping-" (i) } name="optionId" value=(o.id) checked[selected == Some(o.id.as_str())];
                                " "
                                label for={ "shipping-" (i) } style="display:inline" { (o.name) ": " (m(o.cost_cents)) }
                            }
                        }
                    }
                    button type="submit" { "Choose shipping" }
                }
            }
            dl class="cart-totals" {
                dt { "Subtotal" } dd { (m(cart.subtotal_cents)) }
                @if cart.discount_cents > 0 { dt { "Discount" } dd { "−" (m(cart.discount_cents)) } }
                @if cart.requires_shipping { dt { "Shipping" } dd { (m(cart.shipping_cost_cents)) } }
                @if cart.tax_cents > 0 { dt { "Tax" } dd { (m(cart.tax_cents)) } }
                dt { "Total" } dd { strong { (m(cart.grand_total_cents)) } }
            }
            p { a class="cart-checkout" href="/commerce/goto-checkout" { "Checkout" } }
            p { a href=(continue_to) { "Continue shopping" } }
        }
    }
}

/// Registers the plain cart page and its form posts. Other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::read_only(PLAIN_CART_PAGE, cart_page));
    for (path, handler) in [(ADD_PATH, 0), (QUANTITY_PATH, 1), (REMOVE_PATH, 2), (SHIPPING_PATH, 3)] {
        let route = match handler {
            0 => web::post().to(add),
            1 => web::post().to(change_quantity),
            2 => web::post().to(remove),
            _ => web::post().to(shipping),
        };
        cfg.service(web::resource(path).route(route).default_service(method::only("POST")));
    }
}
