//! What the auth routes answer when they refuse: one error type mapped to a status and
//! a JSON `{error}` body here, the refusals of their JSON bodies included. A call that
//! needs a signed-in account also says `loginRequired`.

use std::time::Duration;

use actix_web::http::{header, StatusCode};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use veranda_actors::accounts::AccountError;
use veranda_actors::store::StoreError;

use crate::edge::access;
use crate::edge::body::{BodyError, BodyRules};
use crate::edge::NoStore;
use crate::services::auth::throttle::retry_after_secs;

/// Unknown account or wrong password: one message for both.
pub const LOGIN_FAILED_MESSAGE: &str = "Your email address or password is incorrect.";
/// Too many failed sign-ins.
pub const THROTTLED_MESSAGE: &str = "Too many failed sign-in attempts. Please try again later.";
/// A call that needs a signed-in account.
pub const NOT_SIGNED_IN_MESSAGE: &str = "You are not signed in.";
/// The server could not finish (storage or worker failure).
pub const UNAVAILABLE_MESSAGE: &str = "This service is temporarily unavailable. Please try again later.";

/// Largest body a sign-in call accepts, in bytes.
pub const AUTH_BODY_LIMIT: usize = 16 * 1024;

/// Why an auth call was refused.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Unknown account or wrong password (401).
    #[error("sign-in refused")]
    BadCredentials,
    /// Too many failures for the account or the address (429 with `Retry-After`).
    #[error("sign-in throttled for {0:?}")]
    Throttled(Duration),
    /// No valid session (401).
    #[error("not signed in")]
    NotSignedIn,
    /// A query parameter could not be read (400).
    #[error("{0}")]
    BadQuery(String),
    /// Accounts or sessions could not be read or written (503).
    #[error("account storage failed: {0}")]
    Accounts(#[from] AccountError),
    /// The password check could not run (503).
    #[error("the password check could not run")]
    Worker,
    /// The body is too large, not JSON, or not the call's JSON (413, 415, 400).
    #[error("{0}")]
    Body(#[from] BodyError),
}

impl From<StoreError> for AuthError {
    fn from(e: StoreError) -> Self {
        AuthError::Accounts(AccountError::Store(e))
    }
}

impl ResponseError for AuthError {
    fn status_code(&self) -> StatusCode {
        match self {
            AuthError::BadCredentials | AuthError::NotSignedIn => StatusCode::UNAUTHORIZED,
            AuthError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            AuthError::BadQuery(_) => StatusCode::BAD_REQUEST,
            AuthError::Accounts(_) | AuthError::Worker => StatusCode::SERVICE_UNAVAILABLE,
            AuthError::Body(BodyError::TooLarge(_)) => StatusCode::PAYLOAD_TOO_LARGE,
            AuthError::Body(BodyError::NotJson) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AuthError::Body(_) => StatusCode::BAD_REQUEST,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let message = match self {
            AuthError::BadCredentials => LOGIN_FAILED_MESSAGE.to_string(),
            AuthError::Throttled(_) => THROTTLED_MESSAGE.to_string(),
            AuthError::NotSignedIn => NOT_SIGNED_IN_MESSAGE.to_string(),
            AuthError::BadQuery(why) => why.clone(),
            AuthError::Body(BodyError::TooLarge(_) | BodyError::NotJson) => self.to_string(),
            AuthError::Body(other) => format!("The request body is not valid: {other}"),
            AuthError::Accounts(_) | AuthError::Worker => {
                tracing::error!(error = %self, "auth call failed");
                UNAVAILABLE_MESSAGE.to_string()
            }
        };
        let mut response = HttpResponse::build(self.status_code());
        response.no_store();
        match self {
            AuthError::Throttled(wait) => {
                response.insert_header((header::RETRY_AFTER, retry_after_secs(*wait).to_string()));
            }
            AuthError::Accounts(_) | AuthError::Worker => {
                response.insert_header((header::RETRY_AFTER, "5"));
            }
            _ => {}
        }
        match self {
            AuthError::NotSignedIn => response.json(access::login_required(&message)),
            _ => response.json(serde_json::json!({ "error": message })),
        }
    }
}

/// The JSON bodies of the auth routes: at most [`AUTH_BODY_LIMIT`] bytes of JSON (415
/// otherwise), refused with a JSON `{error}` (413 too large, 415 not JSON, 400
/// unreadable).
pub struct AuthBody;

impl BodyRules for AuthBody {
    type Refusal = AuthError;
    const JSON_CONTENT_TYPE: bool = true;

    fn limit(_: &HttpRequest) -> usize {
        AUTH_BODY_LIMIT
    }
}
