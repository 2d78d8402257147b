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
//! gets 405 with `Allow`. Accounts are created by `veranda user add`, and by joining a
//! member area (`/checkout/join`, which signs the buyer in with [`start_signed_in`]).
//!
//! ## Layout
//!
//! - `login`: sign in, the session cookie.
//! - `login_page`: the login page and its form; `return_path`: where it may send you.
//! - `logout`: sign out, the current account.
//! - `unlock`: password pages' unlock form (its grant cookie and the throttles are in
//!   [`crate::services::auth`]).
//! - `error`: the refusals and their JSON bodies.

mod error;
mod login;
mod login_page;
mod logout;
mod return_path;
mod unlock;

use crate::edge::method;
use actix_web::web;

pub use crate::pages::crumb::page_crumb;
pub use crate::pages::unlock::{lock_screen, unlocked};
pub use crate::services::auth::UNLOCK_COOKIE_PREFIX;
pub use error::{
    AuthError, AUTH_BODY_LIMIT, LOGIN_FAILED_MESSAGE, NOT_SIGNED_IN_MESSAGE, THROTTLED_MESSAGE, UNAVAILABLE_MESSAGE,
};
pub use login::{check_password, start_signed_in, SignedIn};
pub use return_path::LOGIN_PATH;
pub use unlock::{unlock, UnlockForm, UNLOCK_THROTTLED_MESSAGE, WRONG_PASSWORD_MESSAGE};

/// Registers the account routes under `/api/`.
pub fn configure_api(cfg: &mut web::ServiceConfig) {
    cfg.service(
        method::resource("/api/site-users/account/session", "POST, DELETE").post(login::login).delete(logout::logout),
    )
    .service(method::post_only("/api/auth/Logout", logout::logout))
    .service(method::read_only("/api/site-users/account", logout::current));
}

/// Registers the login page, `/account/login`.
pub fn configure_login_page(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(LOGIN_PATH)
            .app_data(web::FormConfig::default().limit(AUTH_BODY_LIMIT))
            .route(method::read().to(login_page::show))
            .route(web::post().to(login_page::submit))
            .default_service(method::only("GET, HEAD, POST")),
    );
}
