//! The one builder of the cookies the server sets: whole site (`Path=/`),
//! `SameSite=Lax`. `Secure` is added to every cookie of an answer over https by the
//! answer-headers middleware (`edge/headers.rs`), so no handler decides it alone.

use actix_web::cookie::{Cookie, CookieBuilder, SameSite};
use actix_web::http::header;
use actix_web::HttpRequest;

/// A cookie on the whole site, `SameSite=Lax`; callers add `HttpOnly`, a lifetime or
/// removal.
pub fn site_cookie(
    name: impl Into<std::borrow::Cow<'static, str>>,
    value: impl Into<std::borrow::Cow<'static, str>>,
) -> CookieBuilder<'static> {
    Cookie::build(name, value).path("/").same_site(SameSite::Lax)
}

/// The value of the first cookie named `name` in the request's `Cookie` headers, as sent.
/// The server's own cookies (crumb, session) never need percent-decoding, so they are
/// read in place: no cookie jar is parsed, stored or copied, as `HttpRequest::cookie` does
/// for every call.
pub fn cookie_value<'r>(req: &'r HttpRequest, name: &str) -> Option<&'r str> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.split_once('=').filter(|(k, _)| k.trim() == name).map(|(_, v)| v.trim()))
}

/// The value of the first cookie named `name`, percent-decoded as `HttpRequest::cookie`
/// gives it (for cookies a page's script may write), read in place like [`cookie_value`].
pub fn cookie_decoded<'r>(req: &'r HttpRequest, name: &str) -> Option<std::borrow::Cow<'r, str>> {
    let raw = cookie_value(req, name)?;
    if raw.contains('%') {
        Some(percent_encoding::percent_decode_str(raw).decode_utf8_lossy())
    } else {
        Some(std::borrow::Cow::Borrowed(raw))
    }
}

/// Whether the request's visitor may be identified on `site` (analytics ids set, stored or
/// shown): always without a restrictive cookie policy, else only with `ss_cookieAllowed=true`.
pub fn identifiers_allowed(req: &HttpRequest, site: &veranda_actors::site::Site) -> bool {
    !site.settings.cookie_banner.is_restrictive_cookie_policy_enabled
        || cookie_decoded(req, veranda_actors::telemetry::cookie::CONSENT_COOKIE).is_some_and(|c| c == "true")
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn a_cookie_is_read_from_any_cookie_header_first_one_first() {
        let req = TestRequest::default()
            .insert_header(("Cookie", "a=1; crumb=x.y ;b=2"))
            .append_header(("Cookie", "crumb=later; s=3"))
            .to_http_request();
        assert_eq!(cookie_value(&req, "crumb"), Some("x.y"));
        assert_eq!(cookie_value(&req, "s"), Some("3"));
        assert_eq!(cookie_value(&req, "b"), Some("2"));
        assert_eq!(cookie_value(&req, "rumb"), None, "names are whole");
        assert_eq!(cookie_value(&TestRequest::default().to_http_request(), "crumb"), None);
    }

    #[test]
    fn a_percent_encoded_cookie_is_decoded_as_the_cookie_jar_decodes_it() {
        let req = TestRequest::default().insert_header(("Cookie", "ss_cvr=a%7C1%7C2; plain=a|1")).to_http_request();
        assert_eq!(cookie_decoded(&req, "ss_cvr").as_deref(), Some("a|1|2"));
        assert_eq!(cookie_decoded(&req, "plain").as_deref(), Some("a|1"));
        assert_eq!(cookie_decoded(&req, "ss_cvr").as_deref(), req.cookie("ss_cvr").as_ref().map(|c| c.value()));
    }
}
