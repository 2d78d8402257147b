//! The public route table. One module per area; handlers parse, call one function and
//! map the result.

pub mod auth;
pub mod commerce;
mod config_area;
mod files;
mod form_list;
pub mod forms;
pub mod google_maps;
mod images;
mod openapi;
mod panel;
mod sitemap;
pub mod streams;
pub mod telemetry;
mod visitor_stats;
pub mod widget;

use actix_web::web;

use crate::edge::method;

/// Registers every public route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // Telemetry ingest first: routes are tried in order, and these fixed paths take the
    // most requests (no other route matches them).
    cfg.configure(telemetry::configure)
        .configure(auth::configure)
        .configure(commerce::configure)
        .configure(streams::configure)
        .configure(forms::configure)
        .configure(form_list::configure)
        .configure(visitor_stats::configure)
        .configure(widget::configure)
        .configure(google_maps::configure)
        .configure(openapi::configure)
        .route("/assets/{file:.*}", method::read().to(files::assets))
        .route("/s/{path:.*}", method::read().to(files::serve))
        .route("/images/{path:.*}", method::read().to(images::serve))
        .route("/sitemap.xml", method::read().to(sitemap::sitemap))
        .route("/robots.txt", method::read().to(sitemap::robots))
        .route("/pages/{id:.*}", method::read().to(panel::follow))
        .route("/config", method::read().to(config_area::show))
        .route("/config/{tail:.*}", method::read().to(config_area::show))
        .route("/search", method::read().to(crate::pages::search))
        .route("/{path:.*}", web::post().to(auth::unlock))
        // Every other path is a content link; a real route so metrics label it by pattern.
        .route("/{path:.*}", web::route().to(crate::pages::show));
}
