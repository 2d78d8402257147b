//! The crumb: a signed CSRF token in the `crumb` cookie, echoed back by the page in the
//! `X-CSRF-Token` header or a `crumb` query parameter on every state-changing call.
//!
//! A crumb is `<nonce>.<signature>` where the signature is an HMAC-SHA256 of the nonce
//! under the server's key (kept in the store, so restarts keep crumbs valid). A call
//! passes when the echoed crumb equals the cookie and the signature verifies. Otherwise
//! it gets 403 with `crumbFail: true` and a fresh crumb (cookie and body), which the
//! data layer stores before retrying once. The cookie is readable by scripts on purpose:
//! the page must copy it into the header; `SameSite=Lax` keeps it off cross-site posts.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use veranda_actors::store::{Store, StoreError, Tree};

/// The cookie holding the crumb.
pub const CRUMB_COOKIE: &str = "crumb";
/// The header a page echoes the crumb in.
pub const CRUMB_HEADER: &str = "X-CSRF-Token";
/// The message of a refused crumb.
pub const CRUMB_FAIL_MESSAGE: &str = "Your session token is missing or stale; reload the page and try again.";

/// Where the signing key lives in the settings tree.
const KEY_NAME: &[u8] = b"crumb_key";

/// The server's crumb-signing key.
#[derive(Clone)]
pub struct CrumbKey([u8; 32]);

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
                return Ok(CrumbKey(key));
            }
        }
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        store.put(Tree::Settings, KEY_NAME, &key).await?;
        Ok(CrumbKey(key))
    }

    /// A key from fixed bytes (tests).
    pub fn from_bytes(key: [u8; 32]) -> CrumbKey {
        CrumbKey(key)
    }

    /// A fresh signed crumb.
    pub fn issue(&self) -> String {
        let mut nonce = [0u8; 18];
        rand::rng().fill_bytes(&mut nonce);
        let nonce = URL_SAFE_NO_PAD.encode(nonce);
        format!("{nonce}.{}", self.sign(&nonce))
    }

    /// Whether `crumb` carries this key's signature.
    pub fn verifies(&self, crumb: &str) -> bool {
        let Some((nonce, signature)) = crumb.split_once('.') else { return false };
        let Ok(signature) = URL_SAFE_NO_PAD.decode(signature) else { return false };
        let mut mac = self.mac();
        mac.update(nonce.as_bytes());
        mac.verify_slice(&signature).is_ok()
    }

    /// Checks a plain HTML form post, which cannot echo the crumb in a header: the crumb
    /// cookie (`SameSite=Lax`, so never sent on a cross-site post) verifies, and the
    /// browser does not say the post came from elsewhere (`Sec-Fetch-Site`, `Origin`).
    pub fn checks_plain_post(&self, req: &HttpRequest) -> bool {
        let crumb_ok = req.cookie(CRUMB_COOKIE).is_some_and(|c| self.verifies(c.value()));
        let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
        let fetch_site_ok = header("sec-fetch-site").is_none_or(|v| v == "same-origin");
        let host = req.connection_info().host().to_string();
        let origin_ok = header("origin").is_none_or(|origin| origin.split_once("://").is_some_and(|(_, h)| h == host));
        crumb_ok && fetch_site_ok && origin_ok
    }

    /// Checks a state-changing request: the echoed crumb (header, else `crumb` query
    /// parameter) equals the cookie, and verifies.
    pub fn check(&self, req: &HttpRequest) -> Result<(), CrumbError> {
        let cookie = req.cookie(CRUMB_COOKIE).map(|c| c.value().to_string()).ok_or(CrumbError::Missing)?;
        let echoed = req
            .headers()
            .get(CRUMB_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
            .or_else(|| query_crumb(req.query_string()))
            .ok_or(CrumbError::Missing)?;
        if echoed.len() > 256 || echoed != cookie {
            return Err(CrumbError::Mismatch);
        }
        if !self.verifies(&cookie) {
            return Err(CrumbError::Tampered);
        }
        Ok(())
    }

    /// The 403 answer to a refused crumb: `crumbFail`, a fresh crumb, and its cookie.
    pub fn refusal(&self) -> HttpResponse {
        let crumb = self.issue();
        HttpResponse::build(StatusCode::FORBIDDEN)
            .cookie(crumb_cookie(&crumb))
            .json(serde_json::json!({ "crumbFail": true, "crumb": crumb, "error": CRUMB_FAIL_MESSAGE }))
    }

    fn sign(&self, nonce: &str) -> String {
        let mut mac = self.mac();
        mac.update(nonce.as_bytes());
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC accepts keys of any length; 32 bytes cannot fail.
        Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a 32-byte key")
    }
}

/// The crumb cookie: whole site, Lax, readable by the page's scripts (see module docs).
pub fn crumb_cookie(crumb: &str) -> Cookie<'static> {
    Cookie::build(CRUMB_COOKIE, crumb.to_string()).path("/").same_site(SameSite::Lax).finish()
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
    fn an_echoed_crumb_equal_to_the_cookie_passes() {
        let crumb = key().issue();
        let req = TestRequest::post()
            .cookie(crumb_cookie(&crumb))
            .insert_header((CRUMB_HEADER, crumb.as_str()))
            .to_http_request();
        assert_eq!(key().check(&req), Ok(()));
        let req = TestRequest::post().uri(&format!("/x?crumb={crumb}")).cookie(crumb_cookie(&crumb)).to_http_request();
        assert_eq!(key().check(&req), Ok(()));
    }

    #[test]
    fn missing_foreign_and_tampered_crumbs_fail() {
        let crumb = key().issue();
        let no_cookie = TestRequest::post().insert_header((CRUMB_HEADER, crumb.as_str())).to_http_request();
        assert_eq!(key().check(&no_cookie), Err(CrumbError::Missing));
        let no_echo = TestRequest::post().cookie(crumb_cookie(&crumb)).to_http_request();
        assert_eq!(key().check(&no_echo), Err(CrumbError::Missing));
        let other = key().issue();
        let foreign = TestRequest::post()
            .cookie(crumb_cookie(&crumb))
            .insert_header((CRUMB_HEADER, other.as_str()))
            .to_http_request();
        assert_eq!(key().check(&foreign), Err(CrumbError::Mismatch));
        let forged = CrumbKey::from_bytes([8; 32]).issue();
        let tampered = TestRequest::post()
            .cookie(crumb_cookie(&forged))
            .insert_header((CRUMB_HEADER, forged.as_str()))
            .to_http_request();
        assert_eq!(key().check(&tampered), Err(CrumbError::Tampered));
    }
}
