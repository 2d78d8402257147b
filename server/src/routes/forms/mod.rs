//! The forms routes (spec 000 §7): a single-use submission key, the save call, and the
//! owner's export of stored submissions.
//!
//! ## Layout
//!
//! - [`submit`]: `POST /api/form/FormSubmissionKey` and `POST /api/form/SaveFormSubmission`.
//! - [`captcha`]: `GET /api/form/captcha/challenge` and the check of a submission's captcha.
//! - [`plain`]: plain HTML form posts (no script) and `GET /api/form/thank-you`.
//! - [`export`]: `GET /api/form/submissions?formId=…&format=json|csv` for owners and admins.
//! - [`reach`]: whether the visitor could open a page holding the form (else the form is not found).
//! - [`storing`]: writing a valid submission, and the helpers the handlers share.
//! - [`claim`]: in-flight claims on single-use tokens.
//! - [`error`]: every refusal and the status it maps to.

mod captcha;
mod claim;
mod error;
mod export;
mod plain;
mod reach;
mod storing;
mod submit;

use actix_web::{guard, web};

use crate::edge::method;
use crate::services::forms::{lock, Forms as FormsState};
pub use crate::services::forms::{ALTCHA_KEY_NAME, EXPORT_LIMIT, RATE_WINDOW};

/// Registers the forms routes. Other methods on these paths get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::post_only("/api/form/FormSubmissionKey", submit::issue_key))
        .service(
            web::resource("/api/form/SaveFormSubmission")
                .route(web::post().guard(guard::fn_guard(|ctx| plain::is_plain_post(ctx.head()))).to(plain::save))
                .route(web::post().to(submit::save))
                .default_service(method::only("POST")),
        )
        .service(method::get_only("/api/form/captcha/challenge", captcha::challenge))
        .service(method::get_only(plain::THANK_YOU_PATH, plain::thank_you))
        .service(method::get_only("/api/form/submissions", export::submissions));
}
