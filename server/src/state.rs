//! The state every request handler shares.

use crate::assets::Assets;
use crate::page_cache::PageCache;
use crate::security::crumb::CrumbKey;
use crate::services::Services;
use crate::settings::Settings;

/// Shared, read-mostly application state.
pub struct AppState {
    /// The settings the server started with.
    pub settings: Settings,
    /// The running parts: the live site, the store, actors and limiters.
    pub services: Services,
    /// The built client.
    pub assets: Assets,
    /// Signs and checks crumbs (CSRF tokens).
    pub crumb_key: CrumbKey,
    /// Pages rendered once for every visitor they are the same for.
    pub page_cache: PageCache,
}
