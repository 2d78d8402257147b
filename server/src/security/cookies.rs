//! The one builder of the cookies the server sets: whole site (`Path=/`),
//! `SameSite=Lax`. `Secure` is added to every cookie of an answer over https by the
//! answer-headers middleware (`edge/headers.rs`), so no handler decides it alone.

use actix_web::cookie::{Cookie, CookieBuilder, SameSite};
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest};

/// A cookie on the whole site, `SameSite=Lax`; callers add `HttpOnly`, a lifetime or
/// removal.
pub fn site_cookie(
    name: impl Into<std::borrow::Cow<'static, str>>,
    value: impl Into<std::borrow::Cow<'static, str>>,
) -> CookieBuilder<'static> {
    Cookie::build(name, value).path("/").same_site(SameSite::Lax)
}

/// The value of the first cookie named `name` in the request's `Cookie` headers, as sent;
/// none when that value is not visible ASCII (as a header value must be to be read as
/// text). The server's own cookies (crumb, session) never need percent-decoding, so they
/// are read in place: no cookie jar is parsed, stored or copied, as `HttpRequest::cookie`
/// does for every call. A request's handling asks for up to seven cookies (a page view:
/// consent, session, visit, ids), so the headers are read once, into [`CookieSpans`].
pub fn cookie_value<'r>(req: &'r HttpRequest, name: &str) -> Option<&'r str> {
    if !req.headers().contains_key(header::COOKIE) {
        return None;
    }
    let known = req.extensions().get::<CookieSpans>().map(|spans| spans.find(req, name));
    known.unwrap_or_else(|| {
        let spans = CookieSpans::read(req);
        let found = spans.find(req, name);
        req.extensions_mut().insert(spans);
        found
    })
}

/// Where each cookie of a request lies in its `Cookie` headers (which header, and the
/// byte ranges of its name and value there, without the whitespace around them), read
/// once and kept in the request's extensions. Nothing changes a request's `Cookie`
/// headers while it is answered, so the ranges stay true.
#[derive(Debug)]
struct CookieSpans(Vec<CookieSpan>);

#[derive(Debug)]
struct CookieSpan {
    header: usize,
    name: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
}

impl CookieSpans {
    fn read(req: &HttpRequest) -> CookieSpans {
        let mut spans = Vec::with_capacity(8);
        for (header, cookies) in req.headers().get_all(header::COOKIE).enumerate() {
            let bytes = cookies.as_bytes();
            let mut start = 0;
            for end in memchr::memchr_iter(b';', bytes).chain([bytes.len()]) {
                let pair = &bytes[start..end];
                if let Some(eq) = memchr::memchr(b'=', pair) {
                    let name = trimmed(start, &pair[..eq]);
                    let value = trimmed(start + eq + 1, &pair[eq + 1..]);
                    spans.push(CookieSpan { header, name, value });
                }
                start = end + 1;
            }
        }
        CookieSpans(spans)
    }

    /// The value of the first cookie named `name` (see [`cookie_value`]).
    fn find<'r>(&self, req: &'r HttpRequest, name: &str) -> Option<&'r str> {
        let mut headers = req.headers().get_all(header::COOKIE);
        let (mut at, mut bytes) = (0, headers.next()?.as_bytes());
        for span in &self.0 {
            while at < span.header {
                bytes = headers.next()?.as_bytes();
                at += 1;
            }
            if bytes.get(span.name.clone()) == Some(name.as_bytes()) {
                let value = bytes.get(span.value.clone())?;
                let text = value.iter().all(|&b| b == b'\t' || (b' '..=b'~').contains(&b));
                return text.then(|| std::str::from_utf8(value).ok()).flatten();
            }
        }
        None
    }
}

/// The range of `part` (which starts at `offset`) without ASCII whitespace at either end.
fn trimmed(offset: usize, part: &[u8]) -> std::ops::Range<usize> {
    let lead = part.len() - part.trim_ascii_start().len();
    let start = offset + lead;
    start..start + part.trim_ascii().len()
}

/// [`site_cookie`] `name=value` living `max_age_secs` seconds (none: a session cookie),
/// as its `Set-Cookie` value, written directly: the telemetry answers set two or more on
/// every page view and pages a crumb on every first visit, and formatting a `Cookie`
/// cost more than the rest of building those answers. `None` when `name` or `value`
/// cannot be in a header (the server's ids, numbers and crumbs always can).
pub fn set_cookie_value(name: &str, value: &str, max_age_secs: Option<i64>) -> Option<HeaderValue> {
    const ATTRIBUTES: &str = "; SameSite=Lax; Path=/";
    let mut line = String::with_capacity(name.len() + value.len() + ATTRIBUTES.len() + 32);
    line.push_str(name);
    line.push('=');
    line.push_str(value);
    line.push_str(ATTRIBUTES);
    if let Some(secs) = max_age_secs {
        line.push_str("; Max-Age=");
        line.push_str(itoa::Buffer::new().format(secs));
    }
    HeaderValue::from_maybe_shared(Bytes::from(line)).ok()
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
    fn a_cookie_that_is_not_visible_ascii_is_not_read_and_its_neighbours_still_are() {
        let header = HeaderValue::from_bytes(b"a=caf\xc3\xa9; b=2;c = 3 ;=4; d").expect("obs-text is a header value");
        let req = TestRequest::default().insert_header(("Cookie", header)).to_http_request();
        assert_eq!(cookie_value(&req, "a"), None);
        assert_eq!(cookie_value(&req, "b"), Some("2"));
        assert_eq!(cookie_value(&req, "c"), Some("3"), "whitespace around names and values is not theirs");
        assert_eq!(cookie_value(&req, ""), Some("4"));
        assert_eq!(cookie_value(&req, "d"), None, "a pair needs its =");
    }

    #[test]
    fn a_written_set_cookie_is_the_cookie_the_builder_makes() {
        use actix_web::cookie::time::Duration;
        let session = set_cookie_value("SS_SESSION_ID", "abc-1", None).expect("a header value");
        assert_eq!(session.to_str().ok(), Some("SS_SESSION_ID=abc-1; SameSite=Lax; Path=/"));
        assert_eq!(session.to_str().ok(), Some(site_cookie("SS_SESSION_ID", "abc-1").finish().to_string().as_str()));
        let visitor = set_cookie_value("ss_cvr", "id|1|2|3|4", Some(63_072_000)).expect("a header value");
        assert_eq!(visitor.to_str().ok(), Some("ss_cvr=id|1|2|3|4; SameSite=Lax; Path=/; Max-Age=63072000"));
        let built = site_cookie("ss_cvr", "id|1|2|3|4").max_age(Duration::seconds(63_072_000)).finish().to_string();
        assert_eq!(visitor.to_str().ok(), Some(built.as_str()), "as the cookie crate writes it");
        assert!(set_cookie_value("a", "b\r\nSet-Cookie: c=d", None).is_none(), "no header injection");
    }

    #[test]
    fn a_percent_encoded_cookie_is_decoded_as_the_cookie_jar_decodes_it() {
        let req = TestRequest::default().insert_header(("Cookie", "ss_cvr=a%7C1%7C2; plain=a|1")).to_http_request();
        assert_eq!(cookie_decoded(&req, "ss_cvr").as_deref(), Some("a|1|2"));
        assert_eq!(cookie_decoded(&req, "plain").as_deref(), Some("a|1"));
        assert_eq!(cookie_decoded(&req, "ss_cvr").as_deref(), req.cookie("ss_cvr").as_ref().map(|c| c.value()));
    }
}
