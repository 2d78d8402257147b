//! Placeholder for the auth routes.

use std::sync::Arc;

use actix_web::web;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

/// State the auth routes share across workers.
pub struct AuthState {}

impl AuthState {
    /// Builds the state once at start-up.
    pub async fn new(_store: Arc<dyn Store>, _site: Arc<Site>, _settings: &Settings) -> AuthState {
        AuthState {}
    }
}

/// Registers the auth routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
