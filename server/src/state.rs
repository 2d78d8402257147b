//! The state every request handler shares.

use std::sync::Arc;

use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::assets::Assets;
use crate::settings::Settings;

/// Shared, read-mostly application state.
pub struct AppState {
    /// The settings the server started with.
    pub settings: Settings,
    /// The site being served.
    pub site: Arc<Site>,
    /// Durable and telemetry records.
    pub store: Arc<dyn Store>,
    /// The built client.
    pub assets: Assets,
}
