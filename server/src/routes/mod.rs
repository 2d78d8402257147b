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

use actix_web::{guard, web, Route};

/// A route answering GET and HEAD (HEAD gets the same headers, no body).
fn read() -> Route {
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

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
        .route("/assets/{file:.*}", read().to(files::assets))
        .route("/s/{path:.*}", read().to(files::serve))
        .route("/images/{path:.*}", read().to(images::serve))
        .route("/sitemap.xml", read().to(sitemap::sitemap))
        .route("/robots.txt", read().to(sitemap::robots))
        .route("/pages/{id:.*}", read().to(panel::follow))
        .route("/config", read().to(config_area::show))
        .route("/config/{tail:.*}", read().to(config_area::show))
        .route("/search", read().to(crate::pages::search))
        .route("/{path:.*}", web::post().to(auth::unlock))
        // Every other path is a content link; a real route so metrics label it by pattern.
        .route("/{path:.*}", web::route().to(crate::pages::show));
}
