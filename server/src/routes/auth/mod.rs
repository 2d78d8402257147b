//! Accounts at the edge: signing in and out, and the current account.
//!
//! | route | methods | answer |
//! |---|---|---|
//! | `/api/site-users/account/session` | POST (sign in), DELETE (sign out, `?cloneCart=`) | `{xsrfToken, account}` / `{loggedOut}` |
//! | `/api/auth/Logout` | POST | `{loggedOut}` |
//! | `/api/site-users/account` | GET | `{id, email, roles, member, owner}` or 401 |
//! | `/account/login` | GET (the page), POST (form sign-in, 303 to a same-site path) | HTML |
//! | any password page | POST (form unlock, 303 back to the page) | HTML |
//!
//! Every state change needs a valid crumb (403 `crumbFail` otherwise); any other method
//! gets 405 with `Allow`. Accounts are created by `veranda user add`.
//!
//! ## Layout
//!
//! - `login`: sign in, the session cookie.
//! - `login_page`: the login page and its form; `return_path`: where it may send you.
//! - `logout`: sign out, the current account.
//! - `unlock`: password pages' unlock form; `grant`: the signed cookie it sets.
//! - `page_crumb`: crumbs for plain HTML forms.
//! - `throttle`: failed sign-ins (and unlocks) per account and per address.
//! - `error`: the refusals and their JSON bodies.

mod error;
mod grant;
mod login;
mod login_page;
mod logout;
mod page_crumb;
mod return_path;
pub mod throttle;
mod unlock;

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::web;
use veranda_actors::accounts::PasswordDigest;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::edge::method;
use crate::settings::Settings;

pub use error::{AuthError, AUTH_BODY_LIMIT, LOGIN_FAILED_MESSAGE, NOT_SIGNED_IN_MESSAGE, THROTTLED_MESSAGE};
pub use grant::{UnlockKey, UNLOCK_COOKIE_PREFIX};
pub use page_crumb::page_crumb;
pub use return_path::LOGIN_PATH;
pub use unlock::{lock_screen, unlock, unlocked, UNLOCK_THROTTLED_MESSAGE, WRONG_PASSWORD_MESSAGE};

/// State the auth routes share across workers.
pub struct AuthState {
    /// Failed sign-ins per account and per client address.
    pub throttle: throttle::LoginThrottle,
    /// Checked against when the account does not exist, so that takes as long as a
    /// real check.
    dummy_digest: PasswordDigest,
    /// Wrong page passwords per client address (kept apart from sign-ins).
    unlock_throttle: throttle::LoginThrottle,
    /// Signs the grants that open password pages.
    unlock_key: UnlockKey,
    /// The password pages' hashes, by page id, parsed once.
    page_locks: HashMap<String, unlock::PageLock>,
}

impl AuthState {
    /// Builds the state once at start-up (hashes the dummy password: a few
    /// milliseconds; loads or creates the unlock key). Should the store refuse the key,
    /// a key for this process only is used and grants end with it.
    pub async fn new(store: Arc<dyn Store>, site: Arc<Site>, _settings: &Settings) -> AuthState {
        let unlock_key = match UnlockKey::load_or_create(store.as_ref()).await {
            Ok(key) => key,
            Err(e) => {
                tracing::warn!(error = %e, "the unlock key could not be stored; page unlocks end at restart");
                UnlockKey::random()
            }
        };
        AuthState {
            throttle: throttle::LoginThrottle::default(),
            dummy_digest: PasswordDigest::dummy(),
            unlock_throttle: throttle::LoginThrottle::default(),
            unlock_key,
            page_locks: unlock::page_locks(&site),
        }
    }
}

/// Registers the auth routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/site-users/account/session")
            .route(web::post().to(login::login))
            .route(web::delete().to(logout::logout))
            .default_service(method::only("POST, DELETE")),
    )
    .service(
        web::resource("/api/auth/Logout").route(web::post().to(logout::logout)).default_service(method::only("POST")),
    )
    .service(
        web::resource("/api/site-users/account")
            .route(super::read().to(logout::current))
            .default_service(method::only("GET, HEAD")),
    )
    .service(
        web::resource(LOGIN_PATH)
            .app_data(web::FormConfig::default().limit(AUTH_BODY_LIMIT))
            .route(super::read().to(login_page::show))
            .route(web::post().to(login_page::submit))
            .default_service(method::only("GET, HEAD, POST")),
    );
}
