//! Headers every public answer carries, added in one place after the handler ran:
//!
//! - `X-Content-Type-Options: nosniff` on every answer;
//! - on HTML answers (published pages, the dashboard, the login and lock screens) and on
//!   any answer that already sends a `Content-Security-Policy`: `frame-ancestors 'self'`
//!   merged into that policy (or as the whole policy) and `X-Frame-Options: SAMEORIGIN`,
//!   so only the site itself (the dashboard's preview) may frame them;
//! - when the site is served over https (`[security] public_url`, or a trusted proxy's
//!   scheme, see [`crate::security::proxy`]): `Strict-Transport-Security` and `Secure` on
//!   every cookie the answer sets, whichever handler built it.

use actix_web::body::MessageBody;
use actix_web::cookie::Cookie;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::middleware::Next;

use crate::security::proxy::ClientInfo;

/// The frame rule merged into every HTML answer's policy.
pub const FRAME_ANCESTORS: &str = "frame-ancestors 'self'";
/// `Strict-Transport-Security` over https: a year, this host only (subdomains may be
/// other services the operator does not serve over https).
pub const HSTS: &str = "max-age=31536000";

/// Adds the headers above to the answer of `req`.
pub async fn security_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let https = ClientInfo::https_of(req.request());
    let mut response = next.call(req).await?;
    let headers = response.headers_mut();
    if !headers.contains_key(header::X_CONTENT_TYPE_OPTIONS) {
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    }
    let is_html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/html"));
    if is_html || headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        frame_only_by_self(headers);
    }
    if https {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
        secure_cookies(headers);
    }
    Ok(response)
}

/// Merges `frame-ancestors 'self'` into the policy (a policy naming its own
/// `frame-ancestors` keeps it) and sets `X-Frame-Options: SAMEORIGIN`.
fn frame_only_by_self(headers: &mut HeaderMap) {
    let policy = headers.get(header::CONTENT_SECURITY_POLICY).map(|v| v.to_str().map(str::trim));
    let merged = match policy {
        None | Some(Ok("")) | Some(Err(_)) => Some(HeaderValue::from_static(FRAME_ANCESTORS)),
        Some(Ok(p)) if p.to_ascii_lowercase().contains("frame-ancestors") => None,
        Some(Ok(p)) => HeaderValue::from_str(&format!("{}; {FRAME_ANCESTORS}", p.trim_end_matches(';'))).ok(),
    };
    if let Some(value) = merged {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    if !headers.contains_key(header::X_FRAME_OPTIONS) {
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN"));
    }
}

/// Rewrites every `Set-Cookie` of the answer with `Secure`.
fn secure_cookies(headers: &mut HeaderMap) {
    let cookies: Vec<HeaderValue> = headers.get_all(header::SET_COOKIE).cloned().collect();
    if cookies.is_empty() {
        return;
    }
    headers.remove(header::SET_COOKIE);
    for value in cookies {
        let rewritten = value.to_str().ok().and_then(|text| Cookie::parse(text.to_string()).ok()).and_then(|mut c| {
            c.set_secure(true);
            HeaderValue::from_str(&c.to_string()).ok()
        });
        headers.append(header::SET_COOKIE, rewritten.unwrap_or(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_ancestors_joins_an_existing_policy_once() {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox;"));
        frame_only_by_self(&mut headers);
        frame_only_by_self(&mut headers);
        let policy = headers.get(header::CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok());
        assert_eq!(policy, Some("default-src 'none'; sandbox; frame-ancestors 'self'"));
        assert_eq!(headers.get(header::X_FRAME_OPTIONS).and_then(|v| v.to_str().ok()), Some("SAMEORIGIN"));
    }

    #[test]
    fn every_cookie_becomes_secure_and_keeps_its_attributes() {
        let mut headers = HeaderMap::new();
        headers.append(header::SET_COOKIE, HeaderValue::from_static("a=1; Path=/; HttpOnly; SameSite=Lax"));
        headers.append(header::SET_COOKIE, HeaderValue::from_static("b=2; Path=/; Secure"));
        secure_cookies(&mut headers);
        let all: Vec<&str> = headers.get_all(header::SET_COOKIE).filter_map(|v| v.to_str().ok()).collect();
        assert_eq!(all.len(), 2);
        for cookie in all {
            let parsed = Cookie::parse(cookie).expect("a cookie");
            assert_eq!(parsed.secure(), Some(true), "{cookie}");
        }
        assert!(headers.get_all(header::SET_COOKIE).any(|v| v.to_str().is_ok_and(|v| v.contains("HttpOnly"))));
    }
}
