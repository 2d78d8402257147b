//! Crumbs (the CSRF token) as a browser gets them: from the `crumb` cookie a page sets.
//! A crumb is bound to the session the request carries, so a signed-in visitor asks
//! with its cookies; `?noredirect` keeps an owner or editor on the page.

use crate::cookies::cookie_value;
use crate::{spawn_app, TestApp};

/// The crumb the home page hands a visitor with no cookies.
pub async fn crumb(app: &TestApp) -> String {
    let res = app.get("/").await;
    cookie_value(&res, "crumb").expect("the home page hands out a crumb")
}

/// Starts the server with the demo site and takes the crumb its home page hands a
/// visitor with no cookies.
pub async fn spawn_app_with_crumb() -> (TestApp, String) {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    (app, crumb)
}

/// The crumb the home page hands the holder of `cookie` (a `Cookie` header value).
pub async fn crumb_for(app: &TestApp, cookie: &str) -> String {
    let res = app.get_with("/?noredirect", &[("cookie", cookie)]).await;
    cookie_value(&res, "crumb").expect("the home page hands out a crumb")
}

/// The crumb the home page of the server at `address` hands a visitor with no cookies.
pub async fn crumb_of(address: &str) -> String {
    crumb_with(address, None).await
}

/// The crumb a page of the server at `address` hands the holder of `cookies`.
pub async fn crumb_with(address: &str, cookies: Option<&str>) -> String {
    let mut req = reqwest::Client::new().get(format!("{address}/?noredirect"));
    if let Some(cookies) = cookies {
        req = req.header("cookie", cookies);
    }
    let res = req.send().await.expect("the home page answers");
    cookie_value(&res, "crumb").expect("the home page hands out a crumb")
}

/// `crumb` with one character of its nonce changed: well formed, but its signature no
/// longer matches.
pub fn tampered(crumb: &str) -> String {
    let mut chars: Vec<char> = crumb.chars().collect();
    chars[0] = if chars[0] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}
