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

use actix_web::{guard, web};

use crate::edge::method;

/// Registers every public route.
///
/// Actix tries the routes' patterns one after another, and a published page, the most
/// requested address, matches only the last one. So the routes are grouped by the start
/// of their paths: a path outside a group passes it with one comparison instead of one
/// pattern match per route. A group ends with the page routes, so that an address inside
/// it that none of its routes takes is answered as anywhere else.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(group(&["api/"], |cfg| {
        // Telemetry ingest first: these fixed paths take the most requests.
        cfg.configure(telemetry::configure)
            .configure(auth::configure_api)
            .configure(commerce::configure_api)
            .configure(streams::configure)
            .configure(forms::configure)
            .configure(form_list::configure)
            .configure(visitor_stats::configure)
            .configure(widget::configure)
            .configure(google_maps::configure)
            .configure(openapi::configure);
    }))
    .service(group(&commerce::PAGE_PREFIXES, commerce::configure_pages))
    .service(group(&["account/"], auth::configure_login_page))
    .service(group(&["assets/"], |cfg| {
        cfg.route("/assets/{file:.*}", method::read().to(files::assets));
    }))
    .service(group(&["s/"], |cfg| {
        cfg.route("/s/{path:.*}", method::read().to(files::serve));
    }))
    .service(group(&["images/"], |cfg| {
        cfg.route("/images/{path:.*}", method::read().to(images::serve));
    }))
    .service(group(&["pages/"], |cfg| {
        cfg.route("/pages/{id:.*}", method::read().to(panel::follow));
    }))
    .service(group(&["config"], |cfg| {
        cfg.route("/config", method::read().to(config_area::show))
            .route("/config/{tail:.*}", method::read().to(config_area::show));
    }))
    .configure(commerce::configure_cart_page)
    .route("/sitemap.xml", method::read().to(sitemap::sitemap))
    .route("/robots.txt", method::read().to(sitemap::robots))
    .route("/search", method::read().to(crate::pages::search))
    .configure(page_routes);
}

/// The routes whose paths start with `/` and one of `prefixes` (`"api/"` for `/api/…`),
/// then the page routes.
fn group(prefixes: &'static [&'static str], routes: impl FnOnce(&mut web::ServiceConfig)) -> actix_web::Scope {
    web::scope("")
        .guard(guard::fn_guard(move |ctx| {
            let path = ctx.head().uri.path().strip_prefix('/').unwrap_or_default();
            prefixes.iter().any(|prefix| path.starts_with(prefix))
        }))
        .configure(|cfg| {
            routes(cfg);
            page_routes(cfg);
        })
}

/// Every other path is a content link (a real route, so metrics label it by pattern);
/// a POST to one is a password page's unlock form.
fn page_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/{path:.*}", web::post().to(auth::unlock)).route("/{path:.*}", web::route().to(crate::pages::show));
}
