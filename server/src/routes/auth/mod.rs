//! Accounts at the edge: signing in and out, and the current account.
//!
//! | route | methods | answer |
//! |---|---|---|
//! | `/api/site-users/account/session` | POST (sign in), DELETE (sign out, `?cloneCart=`) | `{xsrfToken, account}` / `{loggedOut}` |
//! | `/api/auth/Logout` | POST | `{loggedOut}` |
//! | `/api/site-users/account` | GET | `{id, email, roles, member, owner}` or 401 |
//!
//! Every state change needs a valid crumb (403 `crumbFail` otherwise); any other method
//! gets 405 with `Allow`. Accounts are created by `veranda user add`.
//!
//! ## Layout
//!
//! - `login`: sign in, the session cookie.
//! - `logout`: sign out, the current account.
//! - `throttle`: failed sign-ins per account and per address.
//! - `error`: the refusals and their JSON bodies.

mod error;
mod login;
mod logout;
pub mod throttle;

use std::sync::Arc;

use actix_web::web;
use veranda_actors::accounts::PasswordDigest;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

pub use error::{AuthError, AUTH_BODY_LIMIT, LOGIN_FAILED_MESSAGE, NOT_SIGNED_IN_MESSAGE, THROTTLED_MESSAGE};

/// State the auth routes share across workers.
pub struct AuthState {
    /// Failed sign-ins per account and per client address.
    pub throttle: throttle::LoginThrottle,
    /// Checked against when the account does not exist, so that takes as long as a
    /// real check.
    dummy_digest: PasswordDigest,
}

impl AuthState {
    /// Builds the state once at start-up (hashes the dummy password: a few
    /// milliseconds).
    pub async fn new(_store: Arc<dyn Store>, _site: Arc<Site>, _settings: &Settings) -> AuthState {
        AuthState { throttle: throttle::LoginThrottle::default(), dummy_digest: PasswordDigest::dummy() }
    }
}

/// Registers the auth routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/site-users/account/session")
            .app_data(error::json_config())
            .route(web::post().to(login::login))
            .route(web::delete().to(logout::logout))
            .default_service(web::to(|| error::not_allowed("POST, DELETE"))),
    )
    .service(
        web::resource("/api/auth/Logout")
            .route(web::post().to(logout::logout))
            .default_service(web::to(|| error::not_allowed("POST"))),
    )
    .service(
        web::resource("/api/site-users/account")
            .route(super::read().to(logout::current))
            .default_service(web::to(|| error::not_allowed("GET, HEAD"))),
    );
}
