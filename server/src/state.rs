//! The state every request handler shares.

use std::sync::Arc;

use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::assets::Assets;
use crate::routes::auth::AuthState;
use crate::routes::commerce::CommerceState;
use crate::routes::forms::FormsState;
use crate::routes::streams::StreamsState;
use crate::routes::telemetry::TelemetryState;
use crate::security::crumb::CrumbKey;
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
    /// Signs and checks crumbs (CSRF tokens).
    pub crumb_key: CrumbKey,
    /// Accounts, sign-in and sign-out.
    pub auth: AuthState,
    /// Forms and their submissions.
    pub forms: FormsState,
    /// Visitor telemetry ingest.
    pub telemetry: TelemetryState,
    /// Carts, inventory and orders.
    pub commerce: CommerceState,
    /// The dashboard's live streams and the edits that feed them.
    pub streams: StreamsState,
}
