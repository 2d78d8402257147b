//! [`Commerce`]: the carts (one actor per cart), the inventory actor, the store's rules
//! and where carts and orders are kept (the data directory, or Redis with `--redis-url`).
//!
//! ## Layout
//!
//! - [`limit`]: how often one client address may check out.
//! - [`sweep`]: removing expired carts and ending expired holds.

pub mod limit;
pub mod sweep;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use veranda_actors::commerce::cart::{CartChange, CartError, ShoppingCart};
use veranda_actors::commerce::carts::{CartShared, Carts};
use veranda_actors::commerce::catalog::Catalog;
use veranda_actors::commerce::holds::Holds;
use veranda_actors::commerce::inventory::Inventory;
use veranda_actors::commerce::money::Currency;
use veranda_actors::commerce::order::{Customer, OfflineProvider, Order, OrderKind};
use veranda_actors::commerce::redis_storage::{redact, RedisStorage};
use veranda_actors::commerce::rules::StoreRules;
use veranda_actors::commerce::storage::{CommerceStorage, StoreStorage};
use veranda_actors::site::blocks::BlockData;
use veranda_actors::site::{Site, SiteProblem};
use veranda_actors::store::Store;

use super::site::LiveSite;
use crate::settings::Settings;

/// Why the store could not start.
#[derive(Debug, thiserror::Error)]
pub enum CommerceStartError {
    /// The site's `commerce.toml` has problems: every one is named, as
    /// `veranda check-site` names them.
    #[error("{} problem(s) in the site directory {}:\n{}", problems.len(), dir.display(), lines(problems))]
    Rules {
        /// The site directory.
        dir: PathBuf,
        /// What is wrong, file and field.
        problems: Vec<SiteProblem>,
    },
    /// Redis (`--redis-url`) cannot be used for carts, stock and orders.
    #[error("cannot use Redis at {url}: {reason}")]
    Redis {
        /// The URL, its password redacted.
        url: String,
        /// What went wrong.
        reason: String,
    },
}

/// One problem a line.
fn lines(problems: &[SiteProblem]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// How long an unused cart actor stays in memory.
pub const CART_IDLE: Duration = Duration::from_secs(300);
/// The file beside `site.toml` that may give the store's shipping, tax and coupon rules.
pub use veranda_actors::commerce::rules::RULES_FILE;

/// The carts, the inventory and the orders, shared by the commerce routes across workers.
pub struct Commerce {
    /// The cart actors.
    pub carts: Carts,
    /// Orders.
    pub storage: Arc<dyn CommerceStorage>,
    /// Donation page ids the site's donation buttons name.
    pub donate_pages: HashSet<String>,
    /// The site as visitors see it: what it no longer shows is no longer sold.
    site: Arc<LiveSite>,
    /// The site snapshot the catalog in force was built from.
    seen: std::sync::Mutex<Arc<Site>>,
    /// Checkout attempts per client address.
    pub limiter: limit::CheckoutLimiter,
    /// Settles unpaid orders: paid, cancelled, or their hold expired.
    pub holds: Holds,
}

impl Commerce {
    /// Builds the state once at start-up: the catalog, the store's rules, the
    /// inventory (levels from the store) and the cart registry. With `redis_url` set,
    /// carts, stock and orders live in Redis (shared by every instance given the same
    /// URL; see [`RedisStorage`]) instead of the data directory; the error then names
    /// the URL Redis could not be reached at.
    pub async fn start(
        store: Arc<dyn Store>,
        live: Arc<LiveSite>,
        settings: &Settings,
    ) -> Result<Commerce, CommerceStartError> {
        let site = &*live.current();
        let rules = StoreRules::load(&site.dir)
            .map_err(|problems| CommerceStartError::Rules { dir: site.dir.clone(), problems })?;
        for problem in rules.unshipped(site) {
            tracing::warn!(%problem, "a physical product cannot be shipped; `veranda check-site` refuses this site");
        }
        let catalog = Catalog::of_site(site);
        let storage: Arc<dyn CommerceStorage> = match &settings.redis_url {
            None => Arc::new(StoreStorage::new(store)),
            Some(url) => {
                let fail = |reason: String| CommerceStartError::Redis { url: redact(url), reason };
                let lifetime = Duration::from_secs(settings.commerce.cart_lifetime_secs);
                let redis = RedisStorage::connect(url)
                    .await
                    .map_err(fail)?
                    .with_cart_lifetime(lifetime)
                    .with_key_prefix(&settings.redis.key_prefix);
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
            catalog: catalog.into(),
            rules,
            storage: storage.clone(),
            inventory: inventory.start(),
            payments: Arc::new(OfflineProvider),
            website_id: site.settings.website.id.clone(),
            currency: Currency::parse(&site.settings.store.selected_currency).unwrap_or_default(),
            idle: CART_IDLE,
            hold: Duration::from_secs(settings.commerce.offline_hold_secs),
        };
        let inventory = shared.inventory.clone();
        sweep::export_metrics();
        let seen = std::sync::Mutex::new(live.current());
        Ok(Commerce {
            carts: Carts::bounded(shared, settings.commerce.live_carts),
            storage: storage.clone(),
            donate_pages: donate_pages(site),
            site: live,
            seen,
            limiter: limit::CheckoutLimiter::new(&settings.commerce),
            holds: Holds::new(storage.clone(), inventory),
        })
    }
}

impl Commerce {
    /// The catalog of the site as visitors see it now, rebuilt when the site was edited
    /// since it was last read: prices, visibility and access come from the live site.
    pub fn catalog(&self) -> Arc<Catalog> {
        let site = self.site.current();
        // Only the comparison and the swap run under the lock; a poisoned one still holds
        // a whole snapshot.
        let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !Arc::ptr_eq(&seen, &site) {
            self.carts.shared().catalog.replace(Catalog::of_site(&site));
            *seen = site;
        }
        self.carts.shared().catalog.current()
    }

    /// Applies `change` to cart `id` (made when new). Adding a variant the site does
    /// not sell now (hidden, drafted or members-only) is refused as not for sale.
    pub async fn change(&self, id: &str, change: CartChange) -> Result<ShoppingCart, CartError> {
        self.catalog();
        self.carts.change(id, change).await
    }

    /// Checks cart `id` out at the prices in force. A cart holding a product the site
    /// does not sell now is refused as not for sale, naming the product, and nothing is
    /// ordered.
    pub async fn place_order(&self, id: &str, customer: Customer, kind: OrderKind) -> Result<Order, CartError> {
        let catalog = self.catalog();
        if let Some(cart) = self.carts.get(id).await? {
            for entry in &cart.entries {
                if let Some(variant) = catalog.get(&entry.sku).filter(|v| !v.sellable) {
                    return Err(CartError::NotForSale(variant.title.clone()));
                }
            }
        }
        self.carts.place_order(id, customer, kind).await
    }
}

/// Every `donatePageId` of the site's donation buttons.
fn donate_pages(site: &Site) -> HashSet<String> {
    site.blocks()
        .filter_map(|b| match &b.data {
            BlockData::DonationButton(d) => Some(d.donate_page_id.clone()),
            _ => None,
        })
        .collect()
}
