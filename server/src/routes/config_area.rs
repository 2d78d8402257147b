//! `/config/`: the configuration area, where the owner redirect lands. Serves the
//! dashboard entry; `frameUrl` is shown only when it is a same-site path. The shell names
//! the live panels the visitor's account may see (`data-panels`: `edits`, `errors`,
//! `forms`, `visitors`, `vitals`, `orders`) and whether anyone is signed in (`data-signed-in`), so the dashboard opens no
//! stream it would be refused.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, PreEscaped, DOCTYPE};
use serde::Deserialize;
use veranda_actors::streams::StreamName;

use crate::pages::html as respond;
use crate::render::TOKENS;
use crate::security::owner_redirect::is_same_site_path;
use crate::security::permissions;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// Query of `/config/`.
#[derive(Debug, Deserialize)]
pub struct ConfigQuery {
    /// The page to show in the preview frame.
    #[serde(rename = "frameUrl")]
    frame_url: Option<String>,
}

/// The live panels `session` may see: each needs the permission of its stream and APIs
/// (the error list and the form export are for the owner and admins).
fn panels(session: &CurrentSession) -> Vec<&'static str> {
    let Some(session) = &session.0 else { return Vec::new() };
    let admin = permissions::has_admin_permission(session);
    let mut panels = Vec::new();
    if permissions::may_watch(session, StreamName::Edits) {
        panels.push("edits");
    }
    if admin && permissions::may_watch(session, StreamName::Errors) {
        panels.push("errors");
    }
    if admin {
        panels.push("forms");
        panels.push("visitors");
        panels.push("vitals");
        panels.push("orders");
    }
    panels
}

/// Serves the dashboard shell.
pub async fn show(req: HttpRequest, state: web::Data<AppState>, session: CurrentSession) -> HttpResponse {
    let query = web::Query::<ConfigQuery>::from_query(req.query_string()).ok();
    let frame_url = query
        .and_then(|q| q.into_inner().frame_url)
        .filter(|f| is_same_site_path(f))
        .unwrap_or_else(|| "/".to_string());
    let assets = &state.assets;
    let title = format!("Configuration · {}", state.services.site.current().settings.website.title);
    let body = html! {
        (DOCTYPE)
        html lang=(state.services.site.current().settings.website.locale) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { (title) }
                style { (PreEscaped(TOKENS)) }
                @for css in &assets.dashboard_css { link rel="stylesheet" href=(css); }
            }
            body {
                main id="dashboard-root" data-frame-url=(frame_url) data-panels=(panels(&session).join(" "))
                    data-signed-in=(session.0.is_some()) {
                    h1 { (title) }
                    p { "Previewing " a href=(frame_url) { (frame_url) } }
                    // The dashboard renders the live preview frame; without scripts this one shows it.
                    noscript {
                        iframe title="Site preview" src=(frame_url) style="width:100%;height:70vh;border:1px solid #ccc" {}
                    }
                }
                @if let Some(js) = &assets.dashboard_js { script type="module" src=(js) {} }
            }
        }
    };
    respond::page(&req, StatusCode::OK, body.into_string())
}
