//! `GET /api/openapi.json`: the OpenAPI 3 description of the HTTP API.
//!
//! The document is a file of its own, `server/openapi/openapi.json`, kept next to the
//! code rather than generated from the handlers, so describing a route never touches
//! its handler. It is embedded at build time and served as is. The API tests check
//! that every path and method it lists is answered and that every `/api/` route the
//! server registers is listed.

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use crate::edge::method;

/// The document, as served.
pub const DOCUMENT: &str = include_str!("../../openapi/openapi.json");

/// The route path.
pub const PATH: &str = "/api/openapi.json";

async fn document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .body(DOCUMENT)
}

/// Registers the route; other methods get 405 with `Allow`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::read_only(PATH, document));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_is_openapi_3_json() {
        let doc: serde_json::Value = serde_json::from_str(DOCUMENT).expect("the document is JSON");
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
        assert!(doc["paths"][PATH]["get"].is_object(), "the document describes itself");
    }
}
