//! The edit APIs (owner, admins, editors; crumb-checked; on disk before the 2xx), each
//! publishing an editor event on the edits stream:
//!
//! | route | methods | body / answer |
//! |---|---|---|
//! | `/api/site-header-footer` | GET, PUT | `{header, footer}` |
//! | `/api/multilingual/settings` | GET | `{defaultLanguage, languages}` |
//! | `/api/multilingual/status` | GET | `{enabled, defaultLanguage, languageCount}` |
//! | `/api/multilingual/languages` | PUT | `{languages: [tag, ...]}` → `{languages}` (default first) |

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use veranda_actors::site::settings::HeaderFooter;
use veranda_actors::streams::EditKind;

use super::editor::{EditRequest, Editor};
use super::error::StreamError;
use crate::edge::no_store;
use crate::services::streams::{LanguageTag, MAX_HEADER_FOOTER_CHARS};
use crate::state::AppState;

/// Publishes the event of a site-wide configuration edit of `kind`.
async fn publish_site_edit(edit: &EditRequest, kind: EditKind) -> Result<(), StreamError> {
    let site_id = edit.state.services.site.current().settings.website.id.clone();
    edit.publish(kind, &site_id, Vec::new()).await
}

/// `GET /api/site-header-footer`.
pub async fn header_footer(_: Editor, state: web::Data<AppState>) -> HttpResponse {
    no_store(HttpResponse::Ok()).json(state.services.streams.site_edits.header_footer())
}

/// `PUT /api/site-header-footer`: replaces both texts.
pub async fn save_header_footer(edit: EditRequest) -> Result<HttpResponse, StreamError> {
    let value: HeaderFooter = edit.json()?;
    if value.header.chars().count() > MAX_HEADER_FOOTER_CHARS || value.footer.chars().count() > MAX_HEADER_FOOTER_CHARS
    {
        return Err(StreamError::BadRequest(format!(
            "header and footer are limited to {MAX_HEADER_FOOTER_CHARS} characters each."
        )));
    }
    edit.state.services.streams.site_edits.set_header_footer(value.clone()).await?;
    publish_site_edit(&edit, EditKind::SiteHeaderFooter).await?;
    Ok(no_store(HttpResponse::Ok()).json(value))
}

/// `GET /api/multilingual/settings`.
pub async fn multilingual_settings(_: Editor, state: web::Data<AppState>) -> HttpResponse {
    let edits = &state.services.streams.site_edits;
    no_store(HttpResponse::Ok()).json(serde_json::json!({
        "defaultLanguage": edits.default_language(),
        "languages": edits.languages(),
    }))
}

/// `GET /api/multilingual/status`.
pub async fn multilingual_status(_: Editor, state: web::Data<AppState>) -> HttpResponse {
    let edits = &state.services.streams.site_edits;
    let count = edits.languages().len();
    no_store(HttpResponse::Ok()).json(serde_json::json!({
        "enabled": count > 1,
        "defaultLanguage": edits.default_language(),
        "languageCount": count,
    }))
}

/// The body of `PUT /api/multilingual/languages`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguagesBody {
    /// The site's language tags.
    languages: Vec<String>,
}

/// `PUT /api/multilingual/languages`: replaces the language list (the default language is kept).
pub async fn save_languages(edit: EditRequest) -> Result<HttpResponse, StreamError> {
    let body: LanguagesBody = edit.json()?;
    let tags = LanguageTag::parse_list(&body.languages).map_err(StreamError::BadRequest)?;
    let languages = edit.state.services.streams.site_edits.set_languages(tags).await?;
    publish_site_edit(&edit, EditKind::Languages).await?;
    Ok(no_store(HttpResponse::Ok()).json(serde_json::json!({ "languages": languages })))
}
