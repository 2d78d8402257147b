//! The commerce routes (spec 000 §2, §7): the cart's JSON API, checkout entry points,
//! the checkout page (works without JavaScript) and the confirmation pages.
//!
//! ## Layout
//!
//! - [`cookie`]: the cart cookie and its parsing.
//! - [`cart_api`]: `/api/commerce/cart…`, the cart's JSON API.
//! - [`checkout`]: `/commerce/goto-checkout`, `/checkout`, `/checkout/subscribe` and
//!   `/commerce/orders/{id}`.
//! - [`direct`]: `/checkout/donate` and `/checkout/giftcard`, checkouts without a cart.
//! - [`join`]: `/checkout/join`, joining a member area (a subscription without a cart).
//! - [`pages`]: the HTML of the checkout and confirmation pages.
//! - [`form`]: reading and checking the checkout forms.
//! - [`plain`]: the cart without JavaScript: `/commerce/cart` and its form posts.
//! - [`cart_root`]: `GET /cart`, the site's cart page with the visitor's cart in it.
//! - [`error`]: every refusal and the status it maps to.
//! - `orders_list` and `orders_settle`: the dashboard's orders (`/api/commerce/orders`),
//!   and marking an unpaid order paid or cancelled.

mod cart_api;
pub(crate) mod cart_root;
mod checkout;
pub mod cookie;
mod direct;
mod error;
mod form;
pub mod fullstory;
mod join;
mod orders_list;
mod orders_settle;
mod pages;
mod plain;

use actix_web::{web, FromRequest, Handler, Resource, Responder};

use crate::edge::method;
pub use crate::services::commerce::{CART_IDLE, RULES_FILE};

/// Registers the commerce routes under `/api/`. Other methods on these paths get 405.
pub fn configure_api(cfg: &mut web::ServiceConfig) {
    cfg.configure(orders_list::configure);
    cfg.configure(orders_settle::configure);
    cfg.service(method::read_only("/api/commerce/cart", cart_api::get))
        .service(method::read_only("/api/commerce/fullstory/getId", fullstory::get_id))
        .service(method::post_only("/api/commerce/cart/entries", cart_api::add_entry))
        .service(
            method::resource("/api/commerce/cart/entries/{sku}", "PUT, DELETE")
                .put(cart_api::change_quantity)
                .delete(cart_api::remove_entry),
        )
        .service(method::post_only("/api/commerce/cart/coupons", cart_api::apply_coupon))
        .service(method::resource("/api/commerce/cart/coupons/{code}", "DELETE").delete(cart_api::remove_coupon))
        .service(method::put_only("/api/commerce/cart/shipping-option", cart_api::select_shipping))
        .service(method::put_only("/api/commerce/cart/shipping-location", cart_api::set_location));
}

/// The path prefixes (after the leading `/`) of the routes [`configure_pages`] registers.
pub const PAGE_PREFIXES: [&str; 2] = ["commerce/", "checkout"];

/// Registers the commerce pages and their form posts, every path under
/// [`PAGE_PREFIXES`]. Other methods on these paths get 405.
pub fn configure_pages(cfg: &mut web::ServiceConfig) {
    cfg.service(method::read_only("/commerce/goto-checkout", checkout::goto_checkout))
        .service(form_route("/checkout", checkout::show, checkout::place))
        .service(form_route("/checkout/subscribe", checkout::show_subscribe, checkout::place_subscribe))
        .service(form_route("/checkout/donate", direct::show_donate, direct::place_donation))
        .service(form_route("/checkout/giftcard", direct::show_gift_card, direct::place_gift_card))
        .service(form_route("/checkout/join", join::show_join, join::place_join))
        .service(method::read_only("/commerce/orders/{id}", checkout::confirmation));
    plain::configure(cfg);
}

/// Registers `GET /cart`, the site's cart page. Only GET and HEAD: other methods on
/// /cart go on to the page routes (unlocking).
pub fn configure_cart_page(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(cart_root::CART_PAGE)
            .guard(actix_web::guard::Any(actix_web::guard::Get()).or(actix_web::guard::Head()))
            .route(web::route().to(cart_root::show)),
    );
}

/// A checkout form's address: GET and HEAD `show` the form, POST `place`s the order it
/// posts; other methods get 405.
fn form_route<S, SArgs, P, PArgs>(path: &str, show: S, place: P) -> Resource
where
    S: Handler<SArgs>,
    SArgs: FromRequest + 'static,
    S::Output: Responder + 'static,
    P: Handler<PArgs>,
    PArgs: FromRequest + 'static,
    P::Output: Responder + 'static,
{
    method::resource(path, "GET, HEAD, POST").route(method::read().to(show)).post(place)
}
