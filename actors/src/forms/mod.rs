//! Forms: reading a submission against the site's form definition, the checks of
//! spec 000 §5, and what is stored for it. Pure: the server crate does the I/O.
//!
//! ## Layout
//!
//! - [`captcha`]: the ALTCHA proof of work and the reCAPTCHA check.
//! - [`definition`]: the site's forms and newsletter sign-ups by form id.
//! - [`value`]: each field kind's value, shaped as spec 000 §3 says.
//! - [`validate`]: required fields, email, textarea length, US zip.
//! - [`payload`]: the save call's body, and reading it into valid values.
//! - [`plain`]: a plain HTML form post's fields as the save call's values.
//! - [`redirect`]: where a visitor may be sent after success.
//! - [`record`]: stored submissions, submission keys, mailing lists, and their store keys.
//! - [`export`]: submissions as CSV, defused against spreadsheet formulas.
//! - [`messages`]: every message, defined once.

pub mod captcha;
pub mod config;
pub mod definition;
pub mod export;
pub mod messages;
pub mod payload;
pub mod plain;
pub mod record;
pub use crate::site::redirect;
pub mod validate;
pub mod value;

#[cfg(test)]
mod tests;

pub use definition::{Destination, FormDefinition, FormIndex};
pub use payload::{read_form, FormError, PageFields, SavePayload, Values};
pub use record::{StoredSubmission, Subscription};
pub use validate::FieldErrors;
pub use value::FieldValue;
