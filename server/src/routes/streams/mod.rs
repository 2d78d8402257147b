//! The admin live streams (websockets) and the edit APIs that feed them.

use std::sync::Arc;

use actix_web::web;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

/// State the stream routes share across workers.
pub struct StreamsState {}

impl StreamsState {
    /// Builds the state once at start-up.
    pub async fn new(_store: Arc<dyn Store>, _site: Arc<Site>, _settings: &Settings) -> StreamsState {
        StreamsState {}
    }
}

/// Registers the stream and edit routes.
pub fn configure(_cfg: &mut web::ServiceConfig) {}
