//! The owner redirect (spec 000 §2): signed-in owners and editors who visit their own
//! site are sent to `/config/?frameUrl=<encoded path + query>`, unless a skip rule holds:
//! `noredirect` present (remembered for the session by a cookie), the host is
//! `localhost`, the site is in developer mode or cloneable, or the account's roles
//! include viewer. The spec's last rule (not the top window) is kept by the page
//! handler: a request whose `Sec-Fetch-Dest` is `iframe` or `frame` is never redirected.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use veranda_actors::accounts::SessionRecord;
use veranda_actors::site::SiteSettings;

/// The cookie that remembers `noredirect` for the browser session.
pub const NOREDIRECT_COOKIE: &str = "veranda_noredirect";

/// What `encodeURIComponent` leaves alone.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// The facts of a request the redirect decision needs.
pub struct RedirectInput<'a> {
    /// The signed-in session, if any.
    pub session: Option<&'a SessionRecord>,
    /// The request's host name, without port.
    pub host: &'a str,
    /// `noredirect` is in the query string.
    pub noredirect_param: bool,
    /// The `noredirect` cookie is set.
    pub noredirect_cookie: bool,
    /// The request path.
    pub path: &'a str,
    /// The raw query string (may be empty).
    pub query: &'a str,
}

/// The outcome of the redirect decision.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    /// Serve the page.
    Serve,
    /// Serve the page and remember `noredirect` for the session.
    ServeAndRemember,
    /// Redirect to this `/config/?frameUrl=…` location.
    Redirect(String),
}

/// Decides whether the request is redirected to the configuration area.
pub fn decide(input: &RedirectInput<'_>, site: &SiteSettings) -> Decision {
    if input.noredirect_param {
        return Decision::ServeAndRemember;
    }
    let Some(session) = input.session else { return Decision::Serve };
    if !session.is_owner_or_editor()
        || input.noredirect_cookie
        || input.host.eq_ignore_ascii_case("localhost")
        || site.website.developer_mode
        || site.website.cloneable
    {
        return Decision::Serve;
    }
    Decision::Redirect(config_location(input.path, input.query))
}

/// `/config/?frameUrl=` plus the encoded path and query.
pub fn config_location(path: &str, query: &str) -> String {
    let frame = if query.is_empty() { path.to_string() } else { format!("{path}?{query}") };
    format!("/config/?frameUrl={}", utf8_percent_encode(&frame, COMPONENT))
}

/// Whether `frame_url` is a same-site path that may be shown in the preview frame:
/// it starts with one `/`, never `//` or `/\`, and has no control characters.
pub fn is_same_site_path(frame_url: &str) -> bool {
    veranda_actors::forms::redirect::is_site_path(frame_url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_url_is_encoded_like_encode_uri_component() {
        assert_eq!(config_location("/blog", "tag=a b&x=1"), "/config/?frameUrl=%2Fblog%3Ftag%3Da%20b%26x%3D1");
    }

    #[test]
    fn only_same_site_paths_are_frame_urls() {
        assert!(is_same_site_path("/blog?x=1"));
        for bad in
            ["//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", "/a\\b", "/\n"]
        {
            assert!(!is_same_site_path(bad), "{bad:?} must be refused");
        }
    }
}
