//! Unlock grants: the signed cookie that opens one password-protected page after its
//! password was entered.
//!
//! The cookie `veranda_unlock_<page id>` holds `<expires>.<signature>`, where the
//! signature is an HMAC-SHA256, under the server's unlock key, of the page id, the
//! expiry and the page's password hash. Changing a page's password therefore revokes
//! every grant for it; a grant copied to another page does not verify. The key lives in
//! the store (settings tree), so restarts keep grants valid.

use crate::security::cookies::site_cookie;
use actix_web::cookie::Cookie;
use actix_web::HttpRequest;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use veranda_actors::store::{Store, StoreError, Tree};

/// Prefix of the grant cookie's name; the page id follows.
pub const UNLOCK_COOKIE_PREFIX: &str = "veranda_unlock_";
/// How long a grant opens its page, in seconds (the cookie itself ends with the
/// browser session).
pub const GRANT_SECS: i64 = 24 * 60 * 60;

/// Where the signing key lives in the settings tree.
const KEY_NAME: &[u8] = b"unlock_key";

/// The server's grant-signing key.
#[derive(Clone)]
pub struct UnlockKey([u8; 32]);

impl UnlockKey {
    /// Loads the key from the store, creating and storing one on first start.
    pub async fn load_or_create(store: &dyn Store) -> Result<UnlockKey, StoreError> {
        if let Some(bytes) = store.get(Tree::Settings, KEY_NAME)? {
            if let Ok(key) = <[u8; 32]>::try_from(bytes.as_slice()) {
                return Ok(UnlockKey(key));
            }
        }
        let key = UnlockKey::random();
        // Instances sharing a store starting together adopt the key the first one stored.
        let stored = store.put_if_absent(Tree::Settings, KEY_NAME, &key.0).await?;
        if let Ok(stored) = <[u8; 32]>::try_from(stored.as_slice()) {
            return Ok(UnlockKey(stored));
        }
        store.put(Tree::Settings, KEY_NAME, &key.0).await?;
        Ok(key)
    }

    /// A key that lives only in this process (grants end with it).
    pub fn random() -> UnlockKey {
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        UnlockKey(key)
    }

    /// The grant cookie for `page_id` (whose password hash is `hash`), valid until
    /// `now + GRANT_SECS`: whole site, HttpOnly, Lax (`Secure` over https is added by
    /// [`crate::edge::headers`], as for every cookie).
    pub fn grant(&self, page_id: &str, hash: &str, now: i64) -> Cookie<'static> {
        let expires = now.saturating_add(GRANT_SECS);
        let value = format!("{expires}.{}", self.sign(page_id, hash, expires));
        site_cookie(cookie_name(page_id), value).http_only(true).finish()
    }

    /// Whether `value` is a grant for `page_id` (with password hash `hash`) still
    /// valid at `now`. The signature is compared in constant time.
    pub fn opens(&self, value: &str, page_id: &str, hash: &str, now: i64) -> bool {
        let Some((expires, signature)) = value.split_once('.') else { return false };
        let Ok(expires) = expires.parse::<i64>() else { return false };
        let Ok(signature) = URL_SAFE_NO_PAD.decode(signature) else { return false };
        if now >= expires {
            return false;
        }
        self.mac(page_id, hash, expires).verify_slice(&signature).is_ok()
    }

    /// Whether the request carries a valid grant for `page_id`.
    pub fn request_opens(&self, req: &HttpRequest, page_id: &str, hash: &str, now: i64) -> bool {
        req.cookie(&cookie_name(page_id)).is_some_and(|c| self.opens(c.value(), page_id, hash, now))
    }

    fn sign(&self, page_id: &str, hash: &str, expires: i64) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(page_id, hash, expires).finalize().into_bytes())
    }

    fn mac(&self, page_id: &str, hash: &str, expires: i64) -> Hmac<Sha256> {
        // HMAC takes keys of any length: a 32-byte key cannot be refused.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a 32-byte key");
        for part in [page_id.as_bytes(), b"\0", expires.to_string().as_bytes(), b"\0", hash.as_bytes()] {
            mac.update(part);
        }
        mac
    }
}

/// The grant cookie's name for a page.
pub fn cookie_name(page_id: &str) -> String {
    format!("{UNLOCK_COOKIE_PREFIX}{page_id}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::cookie::SameSite;

    const NOW: i64 = 1_700_000_000;

    #[test]
    fn a_grant_opens_its_page_until_it_expires() {
        let key = UnlockKey::random();
        let cookie = key.grant("abc", "$argon2id$hash", NOW);
        assert_eq!(cookie.name(), "veranda_unlock_abc");
        assert_eq!(cookie.http_only(), Some(true));
        assert_eq!(cookie.same_site(), Some(SameSite::Lax));
        assert!(key.opens(cookie.value(), "abc", "$argon2id$hash", NOW + GRANT_SECS - 1));
        assert!(!key.opens(cookie.value(), "abc", "$argon2id$hash", NOW + GRANT_SECS));
    }

    #[test]
    fn a_grant_does_not_open_another_page_password_or_key() {
        let key = UnlockKey::random();
        let value = key.grant("abc", "h1", NOW).value().to_string();
        assert!(!key.opens(&value, "abd", "h1", NOW), "another page");
        assert!(!key.opens(&value, "abc", "h2", NOW), "the password changed");
        assert!(!UnlockKey::random().opens(&value, "abc", "h1", NOW), "another key");
        let (expires, signature) = value.split_once('.').expect("two parts");
        let later = format!("{}.{signature}", expires.parse::<i64>().expect("a number") + 1000);
        assert!(!key.opens(&later, "abc", "h1", NOW), "a stretched expiry");
        for junk in ["", ".", "x.y", "1.", "99999999999.%%%"] {
            assert!(!key.opens(junk, "abc", "h1", NOW), "{junk:?}");
        }
    }
}
