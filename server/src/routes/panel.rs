//! `/pages/{24 lowercase alphanumerics}`: collection-panel links, redirected to the page
//! or collection with that id.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};

use crate::pages;
use crate::pages::html;
use crate::state::AppState;

/// A well-formed collection-panel id.
pub struct PanelId(String);

impl PanelId {
    /// Exactly 24 characters, each a lowercase ASCII letter or digit.
    pub fn parse(raw: &str) -> Option<PanelId> {
        (raw.len() == 24 && raw.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
            .then(|| PanelId(raw.to_string()))
    }
}

/// Follows a panel link: 302 to its page, collection or published item, 404 when nothing
/// visible has the id, 400 when the id is not 24 lowercase alphanumerics.
pub async fn follow(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let Some(id) = PanelId::parse(&id) else {
        return html::plain(
            StatusCode::BAD_REQUEST,
            "A collection panel link is /pages/ followed by 24 lowercase letters or digits.",
        );
    };
    match state.services.site.current().path_of_panel_id(&id.0) {
        Some(path) => HttpResponse::Found().insert_header((header::LOCATION, path)).finish(),
        None => pages::not_found(&req, &state),
    }
}
