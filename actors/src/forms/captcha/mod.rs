//! Captchas for forms that ask for one: the self-hosted ALTCHA proof of work (the
//! default) and reCAPTCHA (when the site chooses it and the server can verify it).
//!
//! ## Layout
//!
//! - [`altcha`]: issuing signed challenges and verifying the widget's payload.
//! - [`recaptcha`]: the server-side reCAPTCHA check, behind [`RecaptchaVerifier`].
//!
//! Single use of a solved ALTCHA challenge is the server's part: it keeps the
//! challenge's signature under [`used_record_key`] until the challenge expires.

pub mod altcha;
pub mod recaptcha;

pub use altcha::{Altcha, Solved};
pub use recaptcha::{verify_recaptcha, RecaptchaVerifier};

use super::messages;

/// The prefix under which spent ALTCHA challenges are kept (in the submissions tree).
pub const USED_PREFIX: &str = "captcha:";

/// The store key marking the challenge signed `signature` as spent.
pub fn used_record_key(signature: &str) -> String {
    format!("{USED_PREFIX}{signature}")
}

/// Why a captcha proof was refused. Each variant's text is the message the visitor
/// sees (see [`messages`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptchaError {
    /// No proof came with a form that needs one.
    #[error("{}", messages::CAPTCHA_MISSING)]
    Missing,
    /// The proof is not a payload, its signature or solution is wrong, or it uses
    /// another algorithm.
    #[error("{}", messages::CAPTCHA_INVALID)]
    Invalid,
    /// The challenge's time ran out.
    #[error("{}", messages::CAPTCHA_EXPIRED)]
    Expired,
    /// The challenge was already used for a submission.
    #[error("{}", messages::CAPTCHA_REUSED)]
    Reused,
    /// The site asks for reCAPTCHA and no key is configured.
    #[error("{}", messages::RECAPTCHA_NOT_SET_UP)]
    RecaptchaNotSetUp,
    /// reCAPTCHA's verification refused the token, or could not be reached.
    #[error("{}", messages::RECAPTCHA_REFUSED)]
    RecaptchaRefused,
}
