//! `GET /cart`: the site's cart page with the visitor's cart rendered in its cart root,
//! so the page works without JavaScript.
//!
//! The page itself is the site's page at `/cart` rendered as every page is
//! ([`crate::pages::show`]): the same for everyone, its cart block's root
//! holding a link to the plain cart page between two markers. This route replaces what
//! lies between the markers with the visitor's cart as the plain cart page renders it
//! ([`super::plain::cart_body`]: a form for every change, each coming back to `/cart`).
//! When JavaScript runs, the cart island replaces the root's content with its own view.
//! Anything else (no page at `/cart`, a locked or members-only page, a page without a
//! cart root, a cart that cannot be read) is answered exactly as the page route answers.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use veranda_actors::commerce::cart::ShoppingCart;

use super::cookie::CartId;
use super::plain::cart_body;
use crate::pages::html::ReadBack;
use crate::security::crumb::CRUMB_COOKIE;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// The site's cart page.
pub const CART_PAGE: &str = "/cart";
/// The marker before the cart root's content (as the cart block renders it).
const START: &str = "<!--cart-root-->";
/// The marker after it.
const END: &str = "<!--/cart-root-->";

/// `GET /cart`.
pub async fn show(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let session = CurrentSession::of(&req);
    // The page is read back here: whole and uncompressed; the filled page is compressed below.
    req.extensions_mut().insert(ReadBack);
    let page = crate::pages::show(req.clone(), state.clone(), session).await;
    req.extensions_mut().remove::<ReadBack>();
    if page.status() != StatusCode::OK {
        return page;
    }
    let carts = &state.services.commerce.carts;
    let cart = match CartId::from_request(&req) {
        Some(id) => match carts.get(id.as_str()).await {
            Ok(cart) => cart,
            Err(e) => {
                tracing::warn!(error = %e, "the cart page is shown without the cart");
                return page;
            }
        },
        None => None,
    };
    let cart = cart.unwrap_or_else(|| ShoppingCart::new("", "", carts.shared().currency, 0));
    // The crumb the page hands out, else the request's own (the page route checked it).
    let issued = page.cookies().find(|c| c.name() == CRUMB_COOKIE).map(|c| c.value().to_string());
    let Some(crumb) = issued.or_else(|| req.cookie(CRUMB_COOKIE).map(|c| c.value().to_string())) else {
        return page;
    };
    let cookies: Vec<HeaderValue> = page.headers().get_all(header::SET_COOKIE).cloned().collect();
    let (_, body) = page.into_parts();
    let html = match actix_web::body::to_bytes(body).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => return HttpResponse::InternalServerError().finish(),
    };
    let filled = fill(&html, &cart_body(&cart, &crumb, CART_PAGE, "/").into_string());
    let mut response = crate::pages::html::page(&req, StatusCode::OK, filled.unwrap_or(html));
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// `html` with the content between the cart root's markers replaced by `content`;
/// `None` unless the page has exactly one cart root.
fn fill(html: &str, content: &str) -> Option<String> {
    let (start, end) = (html.find(START)?, html.find(END)?);
    if start > end || html.matches(START).count() != 1 || html.matches(END).count() != 1 {
        return None;
    }
    Some(format!("{}{START}{content}{}", &html[..start], &html[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_one_cart_root_is_filled() {
        let page = format!("<main><div id=\"cart-root\">{START}<p>link</p>{END}</div></main>");
        assert_eq!(
            fill(&page, "<table></table>").as_deref(),
            Some(format!("<main><div id=\"cart-root\">{START}<table></table>{END}</div></main>").as_str())
        );
        assert_eq!(fill("<main></main>", "x"), None);
        assert_eq!(fill(&format!("{END}{START}"), "x"), None);
        assert_eq!(fill(&format!("{START}{END}{START}{END}"), "x"), None);
    }
}
