//! Why a forms call was refused, and the status and body each refusal gets
//! (spec 000 §8 "Forms"). Bodies are JSON: `{ "error": … }`, plus `errors` (field id
//! to message) for invalid fields, `loginRequired` or `authorizationFail` for the export's
//! account refusals.

use std::time::Duration;

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use veranda_actors::forms::captcha::CaptchaError;
use veranda_actors::forms::{messages, FormError};
use veranda_actors::store::StoreError;

use crate::edge::access;
use crate::edge::body::{BodyError, BodyRules};
use crate::edge::no_store;
use crate::services::auth::throttle::retry_after_secs;

/// A refused forms call.
#[derive(Debug, thiserror::Error)]
pub enum FormsError {
    /// The body is not a payload (bad JSON, missing `formId`, unreadable stream).
    #[error("{0}")]
    Malformed(String),
    /// The body is larger than the server accepts.
    #[error("{}", messages::BODY_TOO_LARGE)]
    TooLarge,
    /// No form in the site has the `formId`.
    #[error("{}", messages::FORM_NOT_CONFIGURED)]
    UnknownForm,
    /// Too many calls from this address; retry after the duration.
    #[error("{}", messages::RATE_LIMITED)]
    RateLimited(Duration),
    /// The submission key is missing, unknown, used or expired.
    #[error("{}", messages::KEY_REFUSED)]
    KeyRefused,
    /// The captcha proof is missing, invalid, expired or used (400).
    #[error("{0}")]
    Captcha(#[from] CaptchaError),
    /// Too many captcha challenges from this address; retry after the duration.
    #[error("{}", messages::CHALLENGES_LIMITED)]
    ChallengesLimited(Duration),
    /// The values could not be read, or some fields are invalid.
    #[error("{0}")]
    Form(#[from] FormError),
    /// Nobody is signed in (export).
    #[error("Sign in to see form submissions.")]
    SignedOut,
    /// The signed-in account is neither the owner nor an admin (export).
    #[error("Only the site owner and admins may see form submissions.")]
    Forbidden,
    /// The store failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl ResponseError for FormsError {
    fn status_code(&self) -> StatusCode {
        match self {
            FormsError::Malformed(_) | FormsError::Captcha(_) | FormsError::Form(_) => StatusCode::BAD_REQUEST,
            FormsError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            FormsError::UnknownForm => StatusCode::NOT_FOUND,
            FormsError::RateLimited(_) | FormsError::ChallengesLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            FormsError::KeyRefused | FormsError::SignedOut => StatusCode::UNAUTHORIZED,
            FormsError::Forbidden => StatusCode::FORBIDDEN,
            FormsError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = no_store(HttpResponse::build(self.status_code()));
        let body = match self {
            FormsError::Form(FormError::Invalid(errors)) => {
                serde_json::json!({ "errors": errors, "error": messages::FORM_INVALID })
            }
            FormsError::Form(FormError::Unparseable) => serde_json::json!({ "error": messages::FIELDS_UNPARSEABLE }),
            FormsError::RateLimited(wait) | FormsError::ChallengesLimited(wait) => {
                response.insert_header((header::RETRY_AFTER, retry_after_secs(*wait).to_string()));
                serde_json::json!({ "error": self.to_string() })
            }
            FormsError::Store(e) => {
                tracing::error!(error = %e, "a form call failed in the store");
                serde_json::json!({ "error": messages::SEND_FAILED })
            }
            FormsError::SignedOut => access::login_required(&self.to_string()),
            FormsError::Forbidden => access::authorization_fail(&self.to_string()),
            other => serde_json::json!({ "error": other.to_string() }),
        };
        response.json(body)
    }
}

/// Submission bodies: at most the `max_body_bytes` setting, refused as [`FormsError`].
pub struct FormsBody;

impl BodyRules for FormsBody {
    type Refusal = FormsError;
}

impl From<BodyError> for FormsError {
    fn from(e: BodyError) -> FormsError {
        e.malformed("submission", "submission").map_or(FormsError::TooLarge, FormsError::Malformed)
    }
}
