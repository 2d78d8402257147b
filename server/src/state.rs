//! The state every request handler shares.

use std::sync::Arc;

use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::assets::Assets;
use crate::security::crumb::CrumbKey;
use crate::services::auth::Auth;
use crate::services::commerce::Commerce;
use crate::services::forms::Forms;
use crate::services::streams::Streams;
use crate::services::telemetry::Telemetry;
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
    /// The site as it was when the server started.
    pub site: Arc<Site>,
    /// Durable and telemetry records.
    pub store: Arc<dyn Store>,
    /// Accounts, sign-in and sign-out.
    pub auth: Arc<Auth>,
    /// Forms and their submissions.
    pub forms: Arc<Forms>,
    /// Visitor telemetry ingest.
    pub telemetry: Arc<Telemetry>,
    /// Carts, inventory and orders.
    pub commerce: Arc<Commerce>,
    /// The dashboard's live streams.
    pub streams: Arc<Streams>,
}
