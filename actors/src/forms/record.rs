//! What the forms keep in the store, and under which keys.
//!
//! In [`Tree::Submissions`](crate::store::Tree::Submissions):
//! - `key:<key>` holds a submission key's issue time (unix seconds, decimal text); a key
//!   is single-use and lives [`KEY_LIFETIME_SECS`] (`[forms] key_lifetime_secs`).
//! - `sub:<formId>\0<20-digit inverted unix ms>-<id>` holds a [`StoredSubmission`] as
//!   JSON; the inverted time makes a prefix scan list the newest first.
//!
//! In [`Tree::MailingLists`](crate::store::Tree::MailingLists): `<list>\0<email in
//! lowercase>` holds a [`Subscription`] as JSON, written once per address.

use serde::{Deserialize, Serialize};

use super::payload::{PageFields, SavePayload, Values};

/// A submission key lives one hour.
pub const KEY_LIFETIME_SECS: i64 = 3600;

/// The prefix of submission keys.
pub const KEY_PREFIX: &str = "key:";

/// The prefix of stored submissions.
pub const SUBMISSION_PREFIX: &str = "sub:";

/// Longest key accepted from a page (issued keys are much shorter).
const MAX_KEY_LEN: usize = 64;

/// The store key of a submission key, if `key` looks like one the server issues
/// (letters, digits, `-` and `_`, at most 64 characters).
pub fn key_record_key(key: &str) -> Option<String> {
    let plausible = !key.is_empty()
        && key.len() <= MAX_KEY_LEN
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    plausible.then(|| format!("{KEY_PREFIX}{key}"))
}

/// Whether a key issued at `issued_at` may still be used at `now` (unix seconds).
pub fn key_is_fresh(issued_at: i64, now: i64) -> bool {
    key_is_fresh_for(issued_at, now, KEY_LIFETIME_SECS)
}

/// Whether a key issued at `issued_at` may still be used at `now` when keys live
/// `lifetime` seconds.
pub fn key_is_fresh_for(issued_at: i64, now: i64, lifetime: i64) -> bool {
    now >= issued_at && now - issued_at < lifetime
}

/// The prefix under which every submission of `form_id` is stored.
pub fn submissions_prefix(form_id: &str) -> String {
    format!("{SUBMISSION_PREFIX}{form_id}\0")
}

/// The store key of a submission of `form_id` made at `at_ms` (unix ms) with `id`.
pub fn submission_key(form_id: &str, at_ms: i64, id: &str) -> String {
    let inverted = u64::MAX - u64::try_from(at_ms).unwrap_or(0);
    format!("{}{inverted:020}-{id}", submissions_prefix(form_id))
}

/// The prefix under which every address of `list` is stored.
pub fn mailing_list_prefix(list: &str) -> String {
    format!("{list}\0")
}

/// The store key of `email` in `list`.
pub fn mailing_list_key(list: &str, email: &str) -> String {
    format!("{}{}", mailing_list_prefix(list), email.trim().to_lowercase())
}

/// One stored form submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSubmission {
    /// Random id, unique per submission.
    pub id: String,
    /// The form submitted.
    pub form_id: String,
    /// When it was stored (unix milliseconds).
    pub submitted_at: i64,
    /// Every field's value (sections skipped), shaped as spec 000 §3 says.
    pub values: Values,
    /// The collection the page belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection_id: Option<String>,
    /// The object the form sits on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_name: Option<String>,
    /// Whether the form was in the popup overlay.
    #[serde(default)]
    pub is_overlay_form: bool,
    /// The submit button's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submit_button_text: Option<String>,
    /// The page the form was sent from.
    #[serde(flatten)]
    pub page: PageFields,
}

impl StoredSubmission {
    /// The record of a valid submission.
    pub fn new(id: String, submitted_at: i64, payload: &SavePayload, values: Values) -> StoredSubmission {
        StoredSubmission {
            id,
            form_id: payload.form_id.clone(),
            submitted_at,
            values,
            collection_id: payload.collection_id.clone(),
            object_name: payload.object_name.clone(),
            is_overlay_form: payload.is_overlay_form,
            submit_button_text: payload.submit_button_text.clone(),
            page: payload.page.clone(),
        }
    }
}

/// One address on a mailing list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    /// The address as first entered (trimmed).
    pub email: String,
    /// The sign-up form.
    pub form_id: String,
    /// When the address first signed up (unix milliseconds).
    pub subscribed_at: i64,
}
