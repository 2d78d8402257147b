//! The one builder of the cookies the server sets: whole site (`Path=/`),
//! `SameSite=Lax`. `Secure` is added to every cookie of an answer over https by the
//! answer-headers middleware (`edge/headers.rs`), so no handler decides it alone.

use actix_web::cookie::{Cookie, CookieBuilder, SameSite};

/// A cookie on the whole site, `SameSite=Lax`; callers add `HttpOnly`, a lifetime or
/// removal.
pub fn site_cookie(
    name: impl Into<std::borrow::Cow<'static, str>>,
    value: impl Into<std::borrow::Cow<'static, str>>,
) -> CookieBuilder<'static> {
    Cookie::build(name, value).path("/").same_site(SameSite::Lax)
}
