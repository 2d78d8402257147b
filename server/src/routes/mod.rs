//! The public route table. One module per area; handlers parse, call one function and
//! map the result.

mod config_area;
mod files;
mod html;
mod pages;
mod panel;

use actix_web::web;

/// Registers every public route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/assets/{file:.*}", web::get().to(crate::assets::serve))
        .route("/s/{path:.*}", web::get().to(files::serve))
        .route("/pages/{id:.*}", web::get().to(panel::follow))
        .route("/config", web::get().to(config_area::show))
        .route("/config/{tail:.*}", web::get().to(config_area::show))
        .route("/search", web::get().to(pages::search))
        .default_service(web::route().to(pages::show));
}
