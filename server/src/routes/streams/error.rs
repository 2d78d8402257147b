//! The stream and edit routes' refusals and their JSON bodies (`{"error": message}`, with
//! `loginRequired` or `authorizationFail` for the account refusals).

use crate::edge::{access, NoStore};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use veranda_actors::store::StoreError;

/// Why a stream connection or an edit was refused.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// No signed-in account.
    #[error("Sign in to continue.")]
    NotSignedIn,
    /// The account lacks the permission the stream or edit needs.
    #[error("Your account does not have permission for this.")]
    Forbidden,
    /// The websocket's `Origin` is missing or not the site's own.
    #[error("This stream only accepts connections from the site's own pages.")]
    ForeignOrigin,
    /// A query or body could not be read.
    #[error("{0}")]
    BadRequest(String),
    /// The edited object does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The edit conflicts with the site as it is (e.g. a url already taken).
    #[error("{0}")]
    Conflict(String),
    /// The request body is over the edit limit.
    #[error("The body is larger than {0} bytes.")]
    TooLarge(usize),
    /// The request is not a websocket handshake.
    #[error("This address expects a websocket connection.")]
    NotWebsocket,
    /// The stream's actor is saturated or stopped.
    #[error("The live stream is busy; try again shortly.")]
    Busy,
    /// The store failed.
    #[error("The change could not be saved; try again shortly.")]
    Store(#[from] StoreError),
}

impl ResponseError for StreamError {
    fn status_code(&self) -> StatusCode {
        match self {
            StreamError::NotSignedIn => StatusCode::UNAUTHORIZED,
            StreamError::Forbidden | StreamError::ForeignOrigin => StatusCode::FORBIDDEN,
            StreamError::BadRequest(_) | StreamError::NotWebsocket => StatusCode::BAD_REQUEST,
            StreamError::NotFound(_) => StatusCode::NOT_FOUND,
            StreamError::Conflict(_) => StatusCode::CONFLICT,
            StreamError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            StreamError::Busy | StreamError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        response.no_store();
        if matches!(self, StreamError::Busy | StreamError::Store(_)) {
            response.insert_header(("Retry-After", "1"));
        }
        if let StreamError::Store(error) = self {
            tracing::error!(%error, "stream or edit write failed");
        }
        response.json(match self {
            StreamError::NotSignedIn => access::login_required(&self.to_string()),
            StreamError::Forbidden => access::authorization_fail(&self.to_string()),
            _ => serde_json::json!({ "error": self.to_string() }),
        })
    }
}
