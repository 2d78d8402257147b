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

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use actix_web::web;
use veranda_actors::commerce::cart::{CartShared, Carts};
use veranda_actors::commerce::catalog::Catalog;
use veranda_actors::commerce::inventory::Inventory;
use veranda_actors::commerce::money::Currency;
use veranda_actors::commerce::order::OfflineProvider;
use veranda_actors::commerce::redis_storage::{redact, RedisStorage};
use veranda_actors::commerce::rules::StoreRules;
use veranda_actors::commerce::storage::{CommerceStorage, StoreStorage};
use veranda_actors::site::blocks::BlockData;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::edge::method;
use crate::settings::Settings;

/// How long an unused cart actor stays in memory.
pub const CART_IDLE: Duration = Duration::from_secs(300);
/// The file beside `site.toml` that may give the store's shipping, tax and coupon rules.
pub use veranda_actors::commerce::rules::RULES_FILE;

/// State the commerce routes share across workers.
pub struct CommerceState {
    /// The cart actors.
    carts: Carts,
    /// Orders.
    storage: Arc<dyn CommerceStorage>,
    /// Donation page ids the site's donation buttons name.
    donate_pages: HashSet<String>,
}

impl CommerceState {
    /// Builds the state once at start-up: the catalog, the store's rules, the
    /// inventory (levels from the store) and the cart registry. With `redis_url` set,
    /// carts, stock and orders live in Redis (shared by every instance given the same
    /// URL; see [`RedisStorage`]) instead of the data directory; the error then names
    /// the URL Redis could not be reached at.
    pub async fn new(store: Arc<dyn Store>, site: Arc<Site>, settings: &Settings) -> Result<CommerceState, String> {
        let rules = store_rules(&site)?;
        let catalog = Catalog::of_site(&site);
        let storage: Arc<dyn CommerceStorage> = match &settings.redis_url {
            None => Arc::new(StoreStorage::new(store)),
            Some(url) => {
                let fail = |e: String| format!("cannot use Redis at {}: {e}", redact(url));
                let redis = RedisStorage::connect(url).await.map_err(fail)?;
                let levels = catalog.stocked().map(|(sku, level)| (sku.to_string(), level)).collect();
                redis.seed_stock(levels).await.map_err(|e| fail(e.to_string()))?;
                Arc::new(redis)
            }
        };
        let inventory = Inventory::load(&catalog, storage.clone()).unwrap_or_else(|e| {
            tracing::error!(error = %e, "stock levels could not be read; limited products are not sold");
            Inventory::closed(&catalog, storage.clone())
        });
        let shared = CartShared {
            catalog,
            rules,
            storage: storage.clone(),
            inventory: inventory.start(),
            payments: Arc::new(OfflineProvider),
            website_id: site.settings.website.id.clone(),
            currency: Currency::parse(&site.settings.store.selected_currency).unwrap_or_default(),
            idle: CART_IDLE,
        };
        Ok(CommerceState { carts: Carts::new(shared), storage, donate_pages: donate_pages(&site) })
    }
}

/// The rules in the site's `commerce.toml`, else the built-in ones; a file with
/// problems stops the start-up with every problem named (as `veranda check-site` names
/// them).
fn store_rules(site: &Site) -> Result<StoreRules, String> {
    StoreRules::load(&site.dir).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        format!("{} problem(s) in the site directory {}:\n{}", lines.len(), site.dir.display(), lines.join("\n"))
    })
}

/// Every `donatePageId` of the site's donation buttons.
fn donate_pages(site: &Site) -> HashSet<String> {
    let page_blocks = site.pages.iter().flat_map(|p| p.blocks.iter());
    let item_blocks = site.collections.iter().flat_map(|c| c.items.iter()).flat_map(|i| i.blocks.iter());
    page_blocks
        .chain(item_blocks)
        .filter_map(|b| match &b.data {
            BlockData::DonationButton(d) => Some(d.donate_page_id.clone()),
            _ => None,
        })
        .collect()
}

/// Registers the commerce routes. Other methods on these paths get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.configure(orders_list::configure);
    cfg.service(
        web::resource("/api/commerce/cart")
            .route(crate::routes::read().to(cart_api::get))
            .default_service(method::only("GET, HEAD")),
    )
    .service(
        web::resource("/api/commerce/cart/entries")
            .route(web::post().to(cart_api::add_entry))
            .default_service(method::only("POST")),
    )
    .service(
        web::resource("/api/commerce/cart/entries/{sku}")
            .route(web::put().to(cart_api::change_quantity))
            .route(web::delete().to(cart_api::remove_entry))
            .default_service(method::only("PUT, DELETE")),
    )
    .service(
        web::resource("/api/commerce/cart/coupons")
            .route(web::post().to(cart_api::apply_coupon))
            .default_service(method::only("POST")),
    )
    .service(
        web::resource("/api/commerce/cart/coupons/{code}")
            .route(web::delete().to(cart_api::remove_coupon))
            .default_service(method::only("DELETE")),
    )
    .service(
        web::resource("/api/commerce/cart/shipping-option")
            .route(web::put().to(cart_api::select_shipping))
            .default_service(method::only("PUT")),
    )
    .service(
        web::resource("/api/commerce/cart/shipping-location")
            .route(web::put().to(cart_api::set_location))
            .default_service(method::only("PUT")),
    )
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
