//! The crumb: a signed CSRF token in the `crumb` cookie, echoed back by the page in the
//! `X-CSRF-Token` header or a `crumb` query parameter on every state-changing call.
//!
//! A crumb is `<nonce>.<signature>` where the signature is an HMAC-SHA256, under the
//! server's key, of the nonce and, when the request carries a session cookie, of that
//! session id. An anonymous crumb covers nothing session-specific; a signed-in
//! visitor's crumb is valid only with the session it was issued for, so a crumb minted
//! before sign-in, after sign-out, or for another account is refused. The session id is
//! covered by the signature but never written into the crumb (the session cookie is
//! HttpOnly, the crumb is not). Signing in and signing out hand out a new crumb cookie.
//!
//! The key comes from, in order: `[security] crumb_key_file` (every instance reading the
//! same file), Redis when `--redis-url` is given (the first instance to start stores a
//! random key with `SET NX`, every instance reads that one), else the store (so
//! restarts of a single instance keep crumbs valid); see [`super::crumb_source`].
//!
//! A call passes when the echoed crumb equals the cookie and the signature verifies. Otherwise
//! it gets 403 with `crumbFail: true` and a fresh crumb (cookie and body), which the
//! data layer stores before retrying once; handlers check through the extractors of
//! [`crate::edge::crumb`]. The cookie is readable by scripts on purpose:
//! the page must copy it into the header; `SameSite=Lax` keeps it off cross-site posts.

use crate::security::cookies::{cookie_value, set_cookie_value, site_cookie};
use actix_web::cookie::Cookie;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::HttpRequest;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use veranda_actors::accounts::SESSION_COOKIE;
use veranda_actors::store::{Store, StoreError, Tree};

/// The cookie holding the crumb.
pub const CRUMB_COOKIE: &str = "crumb";
/// The header a page echoes the crumb in, `X-CSRF-Token` (header names are read without
/// regard to case; a name is kept in lower case). A name rather than text: looking a
/// header up by text builds its name first, an allocation on every state-changing call.
pub const CRUMB_HEADER: HeaderName = HeaderName::from_static("x-csrf-token");
/// The message of a refused crumb.
pub const CRUMB_FAIL_MESSAGE: &str = "Your session token is missing or stale; reload the page and try again.";

/// Where the signing key lives in the settings tree.
const KEY_NAME: &[u8] = b"crumb_key";

/// The server's crumb-signing key, with its HMAC state keyed once (keying hashes the
/// key's two pads: half the work of signing a crumb).
#[derive(Clone)]
pub struct CrumbKey {
    keyed: Hmac<Sha256>,
}

/// Why a call's crumb was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum CrumbError {
    /// No crumb cookie, or no crumb echoed.
    #[error("crumb missing")]
    Missing,
    /// The echoed crumb is not the cookie's.
    #[error("crumb does not match")]
    Mismatch,
    /// The crumb's signature does not verify.
    #[error("crumb signature invalid")]
    Tampered,
}

impl CrumbKey {
    /// Loads the key from the store, creating and storing one on first start.
    pub async fn load_or_create(store: &dyn Store) -> Result<CrumbKey, StoreError> {
        if let Some(bytes) = store.get(Tree::Settings, KEY_NAME)? {
            if let Ok(key) = <[u8; 32]>::try_from(bytes.as_slice()) {
                return Ok(CrumbKey::from_bytes(key));
            }
        }
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        store.put(Tree::Settings, KEY_NAME, &key).await?;
        Ok(CrumbKey::from_bytes(key))
    }

    /// A key from fixed bytes (tests).
    pub fn from_bytes(key: [u8; 32]) -> CrumbKey {
        CrumbKey { keyed: keyed(&key) }
    }

    /// A fresh signed crumb for the request's session (or an anonymous one).
    pub fn issue(&self, req: &HttpRequest) -> String {
        self.issue_for(session_binding(req))
    }

    /// A fresh signed crumb bound to `session` (a session id), or anonymous for `None`.
    /// Sign-in uses it for the session it has just started, sign-out with `None`.
    pub fn issue_for(&self, session: Option<&str>) -> String {
        let mut nonce = [0u8; 18];
        rand::rng().fill_bytes(&mut nonce);
        // 24 characters of nonce, a dot, 43 of signature: one allocation.
        let mut crumb = String::with_capacity(68);
        URL_SAFE_NO_PAD.encode_string(nonce, &mut crumb);
        let signature = self.mac(&crumb, session).finalize().into_bytes();
        crumb.push('.');
        URL_SAFE_NO_PAD.encode_string(signature, &mut crumb);
        crumb
    }

    /// Whether `crumb` carries this key's signature for the request's session.
    pub fn verifies(&self, req: &HttpRequest, crumb: &str) -> bool {
        self.verifies_for(crumb, session_binding(req))
    }

    /// Whether `crumb` carries this key's signature for `session` (`None`: anonymous).
    /// The signature is compared in constant time.
    pub fn verifies_for(&self, crumb: &str, session: Option<&str>) -> bool {
        let Some((nonce, signature)) = crumb.split_once('.') else { return false };
        let Ok(signature) = URL_SAFE_NO_PAD.decode(signature) else { return false };
        self.mac(nonce, session).verify_slice(&signature).is_ok()
    }

    /// Checks a plain HTML form post, which cannot echo the crumb in a header: the crumb
    /// cookie (`SameSite=Lax`, so never sent on a cross-site post) verifies, and the
    /// browser does not say the post came from elsewhere (`Sec-Fetch-Site`, `Origin`).
    pub fn checks_plain_post(&self, req: &HttpRequest) -> bool {
        let crumb_ok = cookie_value(req, CRUMB_COOKIE).is_some_and(|c| self.verifies(req, c));
        let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
        let fetch_site_ok = header("sec-fetch-site").is_none_or(|v| v == "same-origin");
        let host = super::proxy::ClientInfo::of(req).host;
        let origin_ok = header("origin").is_none_or(|origin| origin.split_once("://").is_some_and(|(_, h)| h == host));
        crumb_ok && fetch_site_ok && origin_ok
    }

    /// Checks a state-changing request: the echoed crumb (header, else `crumb` query
    /// parameter) equals the cookie, and verifies.
    pub fn check(&self, req: &HttpRequest) -> Result<(), CrumbError> {
        let cookie = cookie_value(req, CRUMB_COOKIE).ok_or(CrumbError::Missing)?;
        let echoed = match req.headers().get(CRUMB_HEADER).and_then(|v| v.to_str().ok()) {
            Some(header) => std::borrow::Cow::Borrowed(header),
            None => std::borrow::Cow::Owned(query_crumb(req.query_string()).ok_or(CrumbError::Missing)?),
        };
        if echoed.len() > 256 || echoed != cookie {
            return Err(CrumbError::Mismatch);
        }
        if !self.verifies(req, cookie) {
            return Err(CrumbError::Tampered);
        }
        Ok(())
    }

    /// A key for another purpose derived from this one (HMAC of `purpose`), so every
    /// instance sharing the crumb key shares it too.
    pub fn derive(&self, purpose: &str) -> [u8; 32] {
        let mut mac = self.keyed.clone();
        mac.update(b"\0derive\0");
        mac.update(purpose.as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// The MAC of a nonce, and of the session it is bound to. An anonymous crumb's MAC
    /// is of the nonce alone; a bound one appends a separator no nonce contains (`\0`)
    /// and the session id, so no anonymous crumb verifies as a bound one or back.
    fn mac(&self, nonce: &str, session: Option<&str>) -> Hmac<Sha256> {
        let mut mac = self.keyed.clone();
        mac.update(nonce.as_bytes());
        if let Some(session) = session {
            mac.update(b"\0session\0");
            mac.update(session.as_bytes());
        }
        mac
    }
}

/// HMAC-SHA256 keyed with `key`.
fn keyed(key: &[u8; 32]) -> Hmac<Sha256> {
    // HMAC accepts keys of any length; 32 bytes cannot fail.
    Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a 32-byte key")
}

/// The session id a request's crumbs are bound to: its session cookie's value, when
/// present and of a plausible length (as [`super::session::CurrentSession`] reads it).
/// The cookie is not looked up in the store: a crumb bound to an ended session still
/// verifies with that cookie, but every route needing a session refuses the session.
pub fn session_binding(req: &HttpRequest) -> Option<&str> {
    let id = cookie_value(req, SESSION_COOKIE)?;
    (!id.is_empty() && id.len() <= 128).then_some(id)
}

/// The crumb cookie: whole site, Lax, readable by the page's scripts (see module docs).
pub fn crumb_cookie(crumb: &str) -> Cookie<'static> {
    site_cookie(CRUMB_COOKIE, crumb.to_string()).finish()
}

/// [`crumb_cookie`] as a `Set-Cookie` value, written directly (see
/// [`super::cookies::set_cookie_value`]). `None` for a crumb that is no header value (one
/// this key issued always is: base64 and a dot).
pub fn crumb_set_cookie(crumb: &str) -> Option<HeaderValue> {
    set_cookie_value(CRUMB_COOKIE, crumb, None)
}

fn query_crumb(query: &str) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    pairs.into_iter().find(|(k, _)| k == "crumb").map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn key() -> CrumbKey {
        CrumbKey::from_bytes([7; 32])
    }

    #[test]
    fn the_written_set_cookie_is_the_crumb_cookie() {
        let crumb = key().issue_for(None);
        let value = crumb_set_cookie(&crumb).expect("a header value");
        assert_eq!(value.to_str().ok(), Some(format!("crumb={crumb}; SameSite=Lax; Path=/").as_str()));
        assert_eq!(
            value.to_str().ok(),
            Some(crumb_cookie(&crumb).to_string().as_str()),
            "as the cookie crate writes it"
        );
        assert!(crumb_set_cookie("a\nb").is_none(), "no header injection");
    }

    #[test]
    fn an_echoed_crumb_equal_to_the_cookie_passes() {
        let crumb = key().issue_for(None);
        let req = TestRequest::post()
            .cookie(crumb_cookie(&crumb))
            .insert_header((CRUMB_HEADER, crumb.as_str()))
            .to_http_request();
        assert_eq!(key().check(&req), Ok(()));
        let req = TestRequest::post().uri(&format!("/x?crumb={crumb}")).cookie(crumb_cookie(&crumb)).to_http_request();
        assert_eq!(key().check(&req), Ok(()));
    }

    #[test]
    fn the_crumb_is_echoed_in_x_csrf_token_in_any_case() {
        let crumb = key().issue_for(None);
        for name in ["X-CSRF-Token", "x-csrf-token", "X-Csrf-Token"] {
            let req = TestRequest::post()
                .cookie(crumb_cookie(&crumb))
                .insert_header((name, crumb.as_str()))
                .to_http_request();
            assert_eq!(key().check(&req), Ok(()), "{name}");
        }
        assert_eq!(CRUMB_HEADER.as_str(), "X-CSRF-Token".to_ascii_lowercase());
    }

    #[test]
    fn missing_foreign_and_tampered_crumbs_fail() {
        let crumb = key().issue_for(None);
        let no_cookie = TestRequest::post().insert_header((CRUMB_HEADER, crumb.as_str())).to_http_request();
        assert_eq!(key().check(&no_cookie), Err(CrumbError::Missing));
        let no_echo = TestRequest::post().cookie(crumb_cookie(&crumb)).to_http_request();
        assert_eq!(key().check(&no_echo), Err(CrumbError::Missing));
        let other = key().issue_for(None);
        let foreign = TestRequest::post()
            .cookie(crumb_cookie(&crumb))
            .insert_header((CRUMB_HEADER, other.as_str()))
            .to_http_request();
        assert_eq!(key().check(&foreign), Err(CrumbError::Mismatch));
        let forged = CrumbKey::from_bytes([8; 32]).issue_for(None);
        let tampered = TestRequest::post()
            .cookie(crumb_cookie(&forged))
            .insert_header((CRUMB_HEADER, forged.as_str()))
            .to_http_request();
        assert_eq!(key().check(&tampered), Err(CrumbError::Tampered));
    }

    #[test]
    fn a_signed_in_crumb_passes_only_with_its_own_session() {
        let crumb = key().issue_for(Some("session-a"));
        let with = |session: Option<&str>| {
            let mut req =
                TestRequest::post().cookie(crumb_cookie(&crumb)).insert_header((CRUMB_HEADER, crumb.as_str()));
            if let Some(id) = session {
                req = req.cookie(Cookie::new(SESSION_COOKIE, id.to_string()));
            }
            key().check(&req.to_http_request())
        };
        assert_eq!(with(Some("session-a")), Ok(()));
        assert_eq!(with(Some("session-b")), Err(CrumbError::Tampered), "another session");
        assert_eq!(with(None), Err(CrumbError::Tampered), "signed out");
        assert!(key().verifies_for(&crumb, Some("session-a")));
        assert!(!key().verifies_for(&crumb, None));
    }

    #[test]
    fn an_anonymous_crumb_does_not_pass_for_a_session() {
        let anonymous = key().issue_for(None);
        assert!(key().verifies_for(&anonymous, None));
        assert!(!key().verifies_for(&anonymous, Some("")), "an empty id is still a binding");
        assert!(!key().verifies_for(&anonymous, Some("session-a")));
        let req = TestRequest::get().cookie(Cookie::new(SESSION_COOKIE, "session-a")).to_http_request();
        let issued = key().issue(&req);
        assert!(key().verifies(&req, &issued));
        assert!(!key().verifies(&TestRequest::get().to_http_request(), &issued));
    }
}
