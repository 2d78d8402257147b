//! `GET /api/form/forms`: the site's forms and newsletter sign-ups, each once, ordered by
//! `formId`, for the owner and admins (whose export is `GET /api/form/submissions`).
//! Answers `{forms: [{formId, title, kind}]}` with `kind` `form` or `newsletter`.
//! Visitors get 401, other signed-in accounts 403.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::site::{BlockData, Site};

use crate::edge::method;
use crate::edge::no_store;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// One form of the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormSummary {
    /// The form's id, as the export takes it.
    pub form_id: String,
    /// The form block's title (may be empty).
    pub title: String,
    /// `form` or `newsletter`.
    pub kind: &'static str,
}

/// Every form and newsletter block of the site's pages and items, first one per `formId`.
pub fn forms_of(site: &Site) -> Vec<FormSummary> {
    let blocks = site
        .pages
        .iter()
        .flat_map(|p| p.blocks.iter())
        .chain(site.collections.iter().flat_map(|c| c.items.iter()).flat_map(|i| i.blocks.iter()));
    let mut forms = BTreeMap::new();
    for block in blocks {
        let summary = match &block.data {
            BlockData::Form(f) => FormSummary { form_id: f.form_id.clone(), title: f.title.clone(), kind: "form" },
            BlockData::Newsletter(n) => {
                FormSummary { form_id: n.form_id.clone(), title: n.title.clone(), kind: "newsletter" }
            }
            _ => continue,
        };
        forms.entry(summary.form_id.clone()).or_insert(summary);
    }
    forms.into_values().collect()
}

/// Answers the list (see the module docs).
pub async fn list(session: CurrentSession, state: web::Data<AppState>) -> HttpResponse {
    let Some(session) = session.0 else {
        return HttpResponse::Unauthorized().json(serde_json::json!({ "error": "Sign in to see the forms." }));
    };
    if !(session.owner || session.roles.contains(&ContributorRole::Admin)) {
        return HttpResponse::Forbidden()
            .json(serde_json::json!({ "error": "Only the owner and admins see the forms." }));
    }
    no_store(HttpResponse::Ok()).json(serde_json::json!({ "forms": forms_of(&state.services.site.current()) }))
}

/// Registers the route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::get_only("/api/form/forms", list));
}
