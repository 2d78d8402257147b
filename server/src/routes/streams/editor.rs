//! The edit APIs' extractors: [`Editor`], the signed-in account allowed to edit, and
//! [`EditRequest`], a crumb-checked edit by an editor with its body, which publishes
//! the edit's event.

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::{ready, LocalBoxFuture, Ready};
use veranda_actors::accounts::SessionRecord;
use veranda_actors::store::StoreError;
use veranda_actors::streams::{EditEvent, EditKind, PublishEvent};

use super::access;
use super::error::StreamError;
use crate::edge::Crumbed;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// The signed-in account of a request, when it may edit the site: 401 without a
/// session, 403 without the permission.
pub struct Editor(pub SessionRecord);

impl Editor {
    /// The editor of `session`, or the refusal.
    fn of(session: CurrentSession) -> Result<Editor, StreamError> {
        let session = session.0.ok_or(StreamError::NotSignedIn)?;
        if !access::may_edit(&session) {
            return Err(StreamError::Forbidden);
        }
        Ok(Editor(session))
    }
}

impl FromRequest for Editor {
    type Error = StreamError;
    type Future = Ready<Result<Editor, StreamError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Editor::of(CurrentSession::of(req)))
    }
}

/// An edit: the crumb checked first, then the editor, then the body read (within the
/// default payload limit). The body is parsed by the handler with [`EditRequest::json`].
pub struct EditRequest {
    /// The application.
    pub state: web::Data<AppState>,
    /// The editor's session.
    pub session: SessionRecord,
    /// The request body, unparsed.
    pub body: web::Bytes,
}

impl EditRequest {
    /// The body as JSON `T`, or a 400 saying why not.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, StreamError> {
        serde_json::from_slice(&self.body).map_err(|e| StreamError::BadRequest(format!("The body is not valid: {e}")))
    }

    /// Publishes the editor event of `kind` on object `id`, naming the changed pages' `paths`.
    pub async fn publish(&self, kind: EditKind, id: &str, paths: Vec<String>) -> Result<(), StreamError> {
        publish(&self.state, EditEvent::new(kind, &self.session.account_id, id, paths)).await
    }
}

impl FromRequest for EditRequest {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<EditRequest, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(Crumbed, web::Data<AppState>, Editor, web::Bytes)>::from_request(req, payload);
        Box::pin(async move {
            let (_, state, Editor(session), body) = parts.await?;
            Ok(EditRequest { state, session, body })
        })
    }
}

/// Publishes an editor event on the edits stream; resolves once it is on disk (or, with
/// several instances, numbered by Redis). The edit is already saved: when Redis does not
/// answer, the event is lost for the subscribers (logged and counted) but the edit succeeds.
async fn publish(state: &AppState, event: EditEvent) -> Result<(), StreamError> {
    let data = serde_json::to_value(&event).map_err(|e| StreamError::BadRequest(e.to_string()))?;
    match state.services.streams.edits.send(PublishEvent(data)).await.map_err(|_| StreamError::Busy)? {
        Ok(_) => Ok(()),
        Err(StoreError::Unavailable(error)) => {
            tracing::warn!(%error, name = ?event.name, "an edit's event could not be shared; the edit is saved");
            Ok(())
        }
        Err(error) => Err(error.into()),
    }
}
