//! The commerce routes (spec 000 §2, §7): carts, checkout and orders.

use std::sync::Arc;

use actix_web::web;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

/// State the commerce routes share across workers.
pub struct CommerceState {}

impl CommerceState {
    /// Builds the state once at start-up.
    pub async fn new(_store: Arc<dyn Store>, _site: Arc<Site>, _settings: &Settings) -> CommerceState {
        CommerceState {}
    }
}

/// Registers the commerce routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
