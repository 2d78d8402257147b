//! The site's forms as the dashboard lists them (`GET /api/form/forms`): each form and
//! newsletter sign-up once, by `formId`.

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;

use super::{BlockData, Site};

/// What a listed form is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum FormKind {
    /// A form block.
    Form,
    /// A newsletter sign-up block.
    Newsletter,
}

/// One form of the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FormSummary {
    /// The form's id, as the export takes it.
    pub form_id: String,
    /// The form block's title (may be empty).
    pub title: String,
    /// `form` or `newsletter`.
    pub kind: FormKind,
}

/// Every form and newsletter block of the site's pages and items, first one per `formId`.
pub fn forms_of(site: &Site) -> Vec<FormSummary> {
    let mut forms = BTreeMap::new();
    for block in site.blocks() {
        let summary = match &block.data {
            BlockData::Form(f) => {
                FormSummary { form_id: f.form_id.clone(), title: f.title.clone(), kind: FormKind::Form }
            }
            BlockData::Newsletter(n) => {
                FormSummary { form_id: n.form_id.clone(), title: n.title.clone(), kind: FormKind::Newsletter }
            }
            _ => continue,
        };
        forms.entry(summary.form_id.clone()).or_insert(summary);
    }
    forms.into_values().collect()
}
