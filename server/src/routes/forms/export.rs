//! `GET /api/form/submissions?formId=…&format=json|csv`: a form's stored submissions
//! (or a newsletter's addresses), newest first, at most [`EXPORT_LIMIT`], for the site
//! owner and admins. Visitors get 401, other signed-in accounts 403.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::forms::definition::NEWSLETTER_EMAIL_FIELD;
use veranda_actors::forms::export::to_csv;
use veranda_actors::forms::record::{self, StoredSubmission, Subscription};
use veranda_actors::forms::{Destination, FieldValue, PageFields, Values};
use veranda_actors::store::Tree;

use super::error::FormsError;
use super::EXPORT_LIMIT;
use crate::edge::NoStore;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// The export's query.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportQuery {
    /// The form whose submissions are wanted.
    form_id: String,
    /// `json` (default) or `csv`.
    #[serde(default)]
    format: Option<String>,
}

/// Answers the export (see the module docs).
pub async fn submissions(
    session: CurrentSession,
    query: Result<web::Query<ExportQuery>, actix_web::Error>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, FormsError> {
    let Some(session) = session.0 else { return Err(FormsError::SignedOut) };
    if !(session.owner || session.roles.contains(&ContributorRole::Admin)) {
        return Err(FormsError::Forbidden);
    }
    let query = query.map_err(|_| FormsError::Malformed("Name the form with the formId query parameter.".into()))?;
    let csv = match query.format.as_deref() {
        None | Some("json") => false,
        Some("csv") => true,
        Some(_) => return Err(FormsError::Malformed("format must be json or csv.".into())),
    };
    let form = state.services.forms.index.get(&query.form_id).ok_or(FormsError::UnknownForm)?;
    let (columns, rows): (Vec<String>, Vec<StoredSubmission>) = match &form.destination {
        Destination::Submissions => {
            let prefix = record::submissions_prefix(&form.form_id);
            let entries = state.services.store.scan_prefix(Tree::Submissions, prefix.as_bytes(), EXPORT_LIMIT)?;
            let rows = entries.iter().filter_map(|(_, v)| serde_json::from_slice(v).ok()).collect();
            (form.value_field_ids().map(str::to_string).collect(), rows)
        }
        Destination::MailingList(list) => {
            let prefix = record::mailing_list_prefix(list);
            let entries = state.services.store.scan_prefix(Tree::MailingLists, prefix.as_bytes(), EXPORT_LIMIT)?;
            let mut rows: Vec<StoredSubmission> = entries
                .iter()
                .filter_map(|(_, v)| serde_json::from_slice::<Subscription>(v).ok())
                .map(|s| subscription_row(&form.form_id, s))
                .collect();
            rows.sort_by_key(|r| std::cmp::Reverse(r.submitted_at));
            (form.value_field_ids().map(str::to_string).collect(), rows)
        }
    };
    let mut response = HttpResponse::Ok();
    response.no_store();
    if csv {
        let file = format!("{}-submissions.csv", safe_file_stem(&form.form_id));
        Ok(response
            .content_type("text/csv; charset=utf-8")
            .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file}\"")))
            .body(to_csv(columns.iter().map(String::as_str), &rows)))
    } else {
        Ok(response.json(serde_json::json!({ "formId": form.form_id, "fields": columns, "submissions": rows })))
    }
}

/// A mailing-list address as an export row with one `email` value.
fn subscription_row(form_id: &str, s: Subscription) -> StoredSubmission {
    let values: Values = [(NEWSLETTER_EMAIL_FIELD.to_string(), FieldValue::Text(s.email.clone()))].into();
    StoredSubmission {
        id: s.email,
        form_id: form_id.to_string(),
        submitted_at: s.subscribed_at,
        values,
        collection_id: None,
        object_name: None,
        is_overlay_form: false,
        submit_button_text: None,
        page: PageFields::default(),
    }
}

/// A form id as a file name: letters, digits, `-` and `_` kept, the rest `_`.
fn safe_file_stem(form_id: &str) -> String {
    form_id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}
