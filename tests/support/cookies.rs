//! Reading the cookies an answer sets: the whole `Set-Cookie` header, its value, its
//! `name=value` pair.

use reqwest::Response;

/// The whole `Set-Cookie` header that sets cookie `name`, if `res` sets it.
pub fn set_cookie(res: &Response, name: &str) -> Option<String> {
    set_cookie_starting(res, &format!("{name}="))
}

/// The whole `Set-Cookie` header of the first cookie whose `name=` starts with `prefix`.
pub fn set_cookie_starting(res: &Response, prefix: &str) -> Option<String> {
    set_cookies(res).find(|header| header.starts_with(prefix)).map(str::to_string)
}

/// The value `res` sets for cookie `name`, if it sets one.
pub fn cookie_value(res: &Response, name: &str) -> Option<String> {
    set_cookie(res, name).map(|header| value_of(&header))
}

/// Every `Set-Cookie` header of `res`.
pub fn set_cookies(res: &Response) -> impl Iterator<Item = &str> {
    res.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok())
}

/// `name=value` of a `Set-Cookie` header (what a browser sends back).
pub fn pair(header: &str) -> String {
    header.split(';').next().unwrap_or_default().trim().to_string()
}

/// The value of a `Set-Cookie` header.
pub fn value_of(header: &str) -> String {
    pair(header).split_once('=').map(|(_, value)| value.to_string()).unwrap_or_default()
}

/// Whether a `Set-Cookie` header carries the `Secure` attribute.
pub fn is_secure(set_cookie: &str) -> bool {
    set_cookie.split(';').any(|attribute| attribute.trim().eq_ignore_ascii_case("secure"))
}
