//! `GET /api/form/forms`: the site's forms and newsletter sign-ups, each once, ordered by
//! `formId`, for the owner and admins (whose export is `GET /api/form/submissions`).
//! Answers `{forms: [{formId, title, kind}]}` with `kind` `form` or `newsletter`.
//! Visitors get 401, other signed-in accounts 403.

use actix_web::{web, HttpResponse};
use veranda_actors::site::forms::forms_of;

use crate::edge::{method, no_store, Admin, Shown};
use crate::state::AppState;

/// The forms, in refusals.
pub struct Forms;

impl Shown for Forms {
    const SIGN_IN: &'static str = "Sign in to see the forms.";
    const ADMINS_ONLY: &'static str = "Only the owner and admins see the forms.";
}

/// Answers the list (see the module docs).
pub async fn list(_: Admin<Forms>, state: web::Data<AppState>) -> HttpResponse {
    no_store(HttpResponse::Ok()).json(serde_json::json!({ "forms": forms_of(&state.services.site.current()) }))
}

/// Registers the route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::get_only("/api/form/forms", list));
}
