//! Writing a valid submission where its form sends it, and the request helpers the
//! forms handlers share (the client address, tokens, the time).

use std::net::{IpAddr, Ipv4Addr};

use actix_web::HttpRequest;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use veranda_actors::forms::definition::NEWSLETTER_EMAIL_FIELD;
use veranda_actors::forms::record::{self, StoredSubmission, Subscription};
use veranda_actors::forms::{Destination, FieldValue, FormDefinition, SavePayload, Values};
use veranda_actors::store::{Store, StoreError, Tree};

use super::error::FormsError;

/// Writes a valid submission where its form sends it; resolves once it is on disk.
pub(super) async fn keep(
    store: &dyn Store,
    form: &FormDefinition,
    payload: &SavePayload,
    values: Values,
) -> Result<(), FormsError> {
    let now = now_millis();
    match &form.destination {
        Destination::Submissions => {
            let id = random_token(12);
            let key = record::submission_key(&form.form_id, now, &id);
            let stored = StoredSubmission::new(id, now, payload, values);
            let bytes = serde_json::to_vec(&stored).map_err(unserialisable)?;
            store.put(Tree::Submissions, key.as_bytes(), &bytes).await?;
        }
        Destination::MailingList(list) => {
            let Some(FieldValue::Text(email)) = values.get(NEWSLETTER_EMAIL_FIELD) else {
                return Err(FormsError::Form(veranda_actors::forms::FormError::Unparseable));
            };
            let key = record::mailing_list_key(list, email);
            if store.get(Tree::MailingLists, key.as_bytes())?.is_none() {
                let entry =
                    Subscription { email: email.trim().to_string(), form_id: form.form_id.clone(), subscribed_at: now };
                let bytes = serde_json::to_vec(&entry).map_err(unserialisable)?;
                store.put(Tree::MailingLists, key.as_bytes(), &bytes).await?;
            }
        }
    }
    Ok(())
}

/// A record that would not serialise (string-keyed maps of strings always do).
fn unserialisable(e: serde_json::Error) -> FormsError {
    FormsError::Store(StoreError::Backend(format!("a form record did not serialise: {e}")))
}

/// The address the request came from: the TCP peer, or the forwarded client when the
/// peer is a trusted proxy (see [`crate::security::proxy`]).
pub(super) fn peer_ip(req: &HttpRequest) -> IpAddr {
    crate::security::proxy::ClientInfo::ip_of(req).unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
}

/// `bytes` random bytes, base64url without padding.
pub(super) fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

/// Now, in unix seconds.
pub(super) fn now_secs() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Now, in unix milliseconds.
pub(super) fn now_millis() -> i64 {
    i64::try_from(time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}
