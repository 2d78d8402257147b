//! Placeholder for the telemetry routes.

use std::sync::Arc;

use actix_web::web;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

/// State the telemetry routes share across workers.
pub struct TelemetryState {}

impl TelemetryState {
    /// Builds the state once at start-up.
    pub async fn new(_store: Arc<dyn Store>, _site: Arc<Site>, _settings: &Settings) -> TelemetryState {
        TelemetryState {}
    }
}

/// Registers the telemetry routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
