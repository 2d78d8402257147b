//! Placeholder for the forms routes.

use std::sync::Arc;

use actix_web::web;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

/// State the forms routes share across workers.
pub struct FormsState {}

impl FormsState {
    /// Builds the state once at start-up.
    pub async fn new(_store: Arc<dyn Store>, _site: Arc<Site>, _settings: &Settings) -> FormsState {
        FormsState {}
    }
}

/// Registers the forms routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
