//! The request edge: what every handler would otherwise check by hand before it does
//! its one thing.
//!
//! - [`crumb`]: the crumb check as extractors ([`Crumbed`], [`PlainPost`]) whose
//!   refusal is [`CrumbFail`], the 403 `crumbFail` answer with a fresh crumb.
//! - [`body`]: request bodies read within a size limit ([`LimitedJson`],
//!   [`LimitedForm`]), refused with each area's own 400/413/415 answer.
//! - [`method`]: the 405 answer to a method a resource does not take.
//! - [`cache`]: answers that no cache may keep (`Cache-Control: no-store`).
//! - [`admin`]: the owner-and-admins gate of the dashboard's read APIs ([`Admin`]).
//! - [`access`]: the `loginRequired` and `authorizationFail` bodies of calls that need an
//!   account.
//! - [`headers`]: `nosniff`, the frame rules, HSTS and `Secure` cookies on every answer.
//! - [`limit`]: per-key rate limits in tables of bounded size ([`KeyedLimiter`]).

pub mod access;
pub mod admin;
pub mod body;
pub mod cache;
pub mod crumb;
pub mod headers;
pub mod limit;
pub mod method;

pub use admin::{Admin, Shown};
pub use body::{BodyError, BodyRules, LimitedForm, LimitedJson};
pub use cache::{no_store, NoStore};
pub use crumb::{CrumbFail, Crumbed, PlainPost};
pub use limit::{KeyedLimiter, RateLimited};
pub use method::method_not_allowed;
