//! Forms: the submission API, the captchas, plain HTML posts, the popup overlay's form,
//! and a crash harness for submissions.

mod captcha;
mod crash;
mod plain;
mod popup_overlay;
mod recaptcha;
pub(crate) mod submit;
