//! The owner-and-admins gate of the dashboard's read APIs: [`Admin<S>`] is the signed-in
//! account when it has the admin permission; otherwise the request is refused with 401
//! (nobody signed in, `loginRequired`) or 403 (another role, `authorizationFail`), each
//! with the message of what `S` shows.

use std::marker::PhantomData;

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, ResponseError};
use futures_util::future::{ready, Ready};
use veranda_actors::accounts::SessionRecord;

use super::access;
use super::cache::no_store;
use crate::security::permissions;
use crate::security::session::CurrentSession;

/// What an admin-only API shows, named in its refusals.
pub trait Shown: 'static {
    /// The 401 message, to a visitor who is not signed in.
    const SIGN_IN: &'static str;
    /// The 403 message, to a signed-in account without the admin permission.
    const ADMINS_ONLY: &'static str;
}

/// The signed-in owner or admin of a request for what `S` shows.
pub struct Admin<S>(pub SessionRecord, PhantomData<S>);

/// Why [`Admin`] refused a request; the answer is `{"error": message}` with
/// `loginRequired` or `authorizationFail` ([`super::access`]), never cached.
#[derive(Debug, thiserror::Error)]
pub enum AdminRefusal {
    /// Nobody is signed in (401).
    #[error("{0}")]
    SignIn(&'static str),
    /// The account lacks the admin permission (403).
    #[error("{0}")]
    AdminsOnly(&'static str),
}

impl ResponseError for AdminRefusal {
    fn status_code(&self) -> StatusCode {
        match self {
            AdminRefusal::SignIn(_) => StatusCode::UNAUTHORIZED,
            AdminRefusal::AdminsOnly(_) => StatusCode::FORBIDDEN,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let body = match self {
            AdminRefusal::SignIn(message) => access::login_required(message),
            AdminRefusal::AdminsOnly(message) => access::authorization_fail(message),
        };
        no_store(HttpResponse::build(self.status_code())).json(body)
    }
}

impl<S: Shown> FromRequest for Admin<S> {
    type Error = AdminRefusal;
    type Future = Ready<Result<Admin<S>, AdminRefusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match CurrentSession::of(req).0 {
            None => Err(AdminRefusal::SignIn(S::SIGN_IN)),
            Some(session) if !permissions::has_admin_permission(&session) => {
                Err(AdminRefusal::AdminsOnly(S::ADMINS_ONLY))
            }
            Some(session) => Ok(Admin(session, PhantomData)),
        })
    }
}
