//! The cart cookie: a random cart id, `HttpOnly`, `SameSite=Lax`, whole site. A
//! cookie that is not a well-formed id is ignored (the visitor gets a new cart).

use crate::security::cookies::site_cookie;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie};
use actix_web::HttpRequest;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;

/// The cookie holding the cart id.
pub const CART_COOKIE: &str = "cart";
/// How long the cart cookie lives.
pub const CART_COOKIE_DAYS: i64 = 30;
/// Random bytes in a cart id (32 base64url characters).
const ID_BYTES: usize = 24;

/// A well-formed cart id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartId(String);

impl CartId {
    /// A fresh random id.
    pub fn generate() -> CartId {
        let mut bytes = [0u8; ID_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        CartId(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// `text` if it has the shape of an id this server makes.
    pub fn parse(text: &str) -> Option<CartId> {
        let ok =
            text.len() == ID_BYTES * 4 / 3 && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        ok.then(|| CartId(text.to_string()))
    }

    /// The id of the request's cart cookie, if it has a well-formed one.
    pub fn from_request(req: &HttpRequest) -> Option<CartId> {
        req.cookie(CART_COOKIE).and_then(|c| CartId::parse(c.value()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The cookie carrying this id.
    pub fn cookie(&self) -> Cookie<'static> {
        site_cookie(CART_COOKIE, self.0.clone())
            .http_only(true)
            .max_age(CookieDuration::days(CART_COOKIE_DAYS))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::cookie::SameSite;

    #[test]
    fn generated_ids_parse_and_others_do_not() {
        let id = CartId::generate();
        assert_eq!(CartId::parse(id.as_str()), Some(id.clone()));
        for bad in
            ["", "short", "../../etc/passwd/../../etc/passwd/x", &"a".repeat(33), "abc def ghi jkl mno pqr stu vwx "]
        {
            assert_eq!(CartId::parse(bad), None, "{bad}");
        }
        let cookie = id.cookie();
        assert_eq!(cookie.http_only(), Some(true));
        assert_eq!(cookie.same_site(), Some(SameSite::Lax));
    }
}
