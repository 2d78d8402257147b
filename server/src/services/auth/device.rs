//! The device cookie of OWASP's sign-in throttling pattern: a browser that once signed
//! in to an account carries proof of it, so attacks on the account or on its address
//! never keep it out (see [`super::throttle`]).
//!
//! `veranda_device` holds `<expires>.<nonce>.<signature>`: an HMAC-SHA256 of the
//! account's address (lowercased), the expiry and a random nonce (the device's id in the
//! throttle), under a key derived from the crumb key, so every instance sharing the
//! crumb key accepts it. Set on every successful sign-in: whole site, HttpOnly,
//! `SameSite=Lax`, 30 days; `Secure` over https like every cookie.

use actix_web::cookie::{time::Duration as CookieDuration, Cookie};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

use crate::security::cookies::site_cookie;
use crate::security::crumb::CrumbKey;

/// The cookie's name.
pub const DEVICE_COOKIE: &str = "veranda_device";
/// How long a device cookie is valid, in seconds (30 days).
pub const DEVICE_SECS: i64 = 30 * 24 * 60 * 60;

/// Signs and checks device cookies.
pub struct DeviceKey([u8; 32]);

impl DeviceKey {
    /// The key derived from the crumb key.
    pub fn from_crumb_key(key: &CrumbKey) -> DeviceKey {
        DeviceKey(key.derive("sign-in device cookie"))
    }

    /// A new device cookie for `account`, valid until `now + DEVICE_SECS`.
    pub fn issue(&self, account: &str, now: i64) -> Cookie<'static> {
        let mut nonce = [0u8; 16];
        rand::rng().fill_bytes(&mut nonce);
        let nonce = URL_SAFE_NO_PAD.encode(nonce);
        let expires = now.saturating_add(DEVICE_SECS);
        let signature = URL_SAFE_NO_PAD.encode(self.mac(account, expires, &nonce).finalize().into_bytes());
        site_cookie(DEVICE_COOKIE, format!("{expires}.{nonce}.{signature}"))
            .http_only(true)
            .max_age(CookieDuration::seconds(DEVICE_SECS))
            .finish()
    }

    /// The device id of `value` when it is a valid device cookie for `account` at `now`.
    pub fn device_of(&self, value: &str, account: &str, now: i64) -> Option<String> {
        let mut parts = value.splitn(3, '.');
        let expires: i64 = parts.next()?.parse().ok()?;
        let nonce = parts.next()?;
        let signature = URL_SAFE_NO_PAD.decode(parts.next()?).ok()?;
        if expires <= now || nonce.is_empty() || nonce.len() > 64 {
            return None;
        }
        self.mac(account, expires, nonce).verify_slice(&signature).ok()?;
        Some(nonce.to_string())
    }

    fn mac(&self, account: &str, expires: i64, nonce: &str) -> Hmac<Sha256> {
        // HMAC accepts keys of any length; 32 bytes cannot fail.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a 32-byte key");
        mac.update(account.trim().to_lowercase().as_bytes());
        mac.update(b"\0");
        mac.update(expires.to_string().as_bytes());
        mac.update(b"\0");
        mac.update(nonce.as_bytes());
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000;

    fn key(byte: u8) -> DeviceKey {
        DeviceKey::from_crumb_key(&CrumbKey::from_bytes([byte; 32]))
    }

    #[test]
    fn a_device_cookie_names_its_device_for_its_account_only_until_it_expires() {
        let key = key(7);
        let cookie = key.issue("Ann@Example.com", NOW);
        assert_eq!(cookie.name(), DEVICE_COOKIE);
        assert_eq!(cookie.http_only(), Some(true));
        let device = key.device_of(cookie.value(), "ann@example.com", NOW).expect("valid");
        assert!(cookie.value().contains(&device));
        assert_eq!(key.device_of(cookie.value(), "bob@example.com", NOW), None, "another account");
        assert_eq!(key.device_of(cookie.value(), "ann@example.com", NOW + DEVICE_SECS), None, "expired");
        assert_eq!(self::key(8).device_of(cookie.value(), "ann@example.com", NOW), None, "another key");
        let tampered = cookie.value().replacen('.', "0.", 1);
        assert_eq!(key.device_of(&tampered, "ann@example.com", NOW), None);
        for junk in ["", "..", "1.2", "x.y.z", "99999999999.abc.!!"] {
            assert_eq!(key.device_of(junk, "ann@example.com", NOW), None, "{junk}");
        }
    }
}
