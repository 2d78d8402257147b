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
//! - [`pages`]: the HTML of the checkout and confirmation pages.
//! - [`form`]: reading and checking the checkout forms.
//! - [`plain`]: the cart without JavaScript: `/commerce/cart` and its form posts.
//! - [`cart_root`]: `GET /cart`, the site's cart page with the visitor's cart in it.
//! - [`error`]: every refusal and the status it maps to.

mod cart_api;
mod cart_root;
mod checkout;
pub mod cookie;
mod direct;
mod error;
mod form;
mod orders_list;
mod pages;
mod plain;

use actix_web::web;

use crate::edge::method;
pub use crate::services::commerce::{CART_IDLE, RULES_FILE};

/// Registers the commerce routes. Other methods on these paths get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.configure(orders_list::configure);
    cfg.service(
        web::resource("/api/commerce/cart")
            .route(crate::routes::read().to(cart_api::get))
            .default_service(method::only("GET, HEAD")),
    )
    .service(method::post_only("/api/commerce/cart/entries", cart_api::add_entry))
    .service(
        web::resource("/api/commerce/cart/entries/{sku}")
            .route(web::put().to(cart_api::change_quantity))
            .route(web::delete().to(cart_api::remove_entry))
            .default_service(method::only("PUT, DELETE")),
    )
    .service(method::post_only("/api/commerce/cart/coupons", cart_api::apply_coupon))
    .service(
        web::resource("/api/commerce/cart/coupons/{code}")
            .route(web::delete().to(cart_api::remove_coupon))
            .default_service(method::only("DELETE")),
    )
    .service(method::put_only("/api/commerce/cart/shipping-option", cart_api::select_shipping))
    .service(method::put_only("/api/commerce/cart/shipping-location", cart_api::set_location))
    .service(
        web::resource("/commerce/goto-checkout")
            .route(crate::routes::read().to(checkout::goto_checkout))
            .default_service(method::only("GET, HEAD")),
    )
    .service(
        web::resource("/checkout")
            .route(crate::routes::read().to(checkout::show))
            .route(web::post().to(checkout::place))
            .default_service(method::only("GET, HEAD, POST")),
    )
    .service(
        web::resource("/checkout/subscribe")
            .route(crate::routes::read().to(checkout::show_subscribe))
            .route(web::post().to(checkout::place_subscribe))
            .default_service(method::only("GET, HEAD, POST")),
    )
    .service(
        web::resource("/checkout/donate")
            .route(crate::routes::read().to(direct::show_donate))
            .route(web::post().to(direct::place_donation))
            .default_service(method::only("GET, HEAD, POST")),
    )
    .service(
        web::resource("/checkout/giftcard")
            .route(crate::routes::read().to(direct::show_gift_card))
            .route(web::post().to(direct::place_gift_card))
            .default_service(method::only("GET, HEAD, POST")),
    )
    .service(
        web::resource("/commerce/orders/{id}")
            .route(crate::routes::read().to(checkout::confirmation))
            .default_service(method::only("GET, HEAD")),
    );
    plain::configure(cfg);
    // Only GET and HEAD: other methods on /cart go on to the page routes (unlocking).
    cfg.service(
        web::resource(cart_root::CART_PAGE)
            .guard(actix_web::guard::Any(actix_web::guard::Get()).or(actix_web::guard::Head()))
            .route(web::route().to(cart_root::show)),
    );
}
