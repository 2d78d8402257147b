//! Where a form may send the visitor after a successful submission.
//!
//! A success redirect is followed only when it is a path on this site (`/thanks`), or an
//! absolute `http(s)` URL whose origin is the site's own (`website.baseUrl`) or one the
//! owner listed in `site.toml`:
//!
//! ```toml
//! [forms]
//! redirectAllowList = ["https://shop.example.com"]
//! ```
//!
//! Anything else — protocol-relative `//host`, `/\host`, `javascript:`, user-info tricks
//! (`https://shop.example.com@evil.example`), look-alike hosts, other ports — is never
//! answered as a redirect. Origins are compared after URL parsing (scheme and host
//! lowercased, default ports dropped, international names in their ASCII form).

use url::Url;

/// Whether `url` is a path on this site: it starts with one `/`, and holds no
/// backslash or control character a browser could read as the start of another host.
pub fn is_site_path(url: &str) -> bool {
    url.starts_with('/')
        && !url.starts_with("//")
        && !url.starts_with("/\\")
        && !url.chars().any(|c| c.is_control() || c == '\\')
}

/// The origin of an allow-list entry (`https://host[:port]`, nothing after it), in the
/// serialisation redirects are compared with; why it is not one otherwise.
pub fn parse_origin(entry: &str) -> Result<String, String> {
    let url = absolute(entry).ok_or_else(|| format!("'{entry}' must be an http:// or https:// origin"))?;
    let bare = url.path() == "/" && url.query().is_none() && url.fragment().is_none();
    if !bare {
        return Err(format!("'{entry}' must be an origin only (scheme, host and port), with no path or query"));
    }
    Ok(url.origin().ascii_serialization())
}

/// An `http(s)` URL without user info, written without whitespace, backslashes or control
/// characters; `None` otherwise.
fn absolute(text: &str) -> Option<Url> {
    if text.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\\') {
        return None;
    }
    let url = Url::parse(text).ok()?;
    let plain = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.host_str().is_some_and(|h| !h.is_empty());
    plain.then_some(url)
}

/// The origins a success redirect may leave the site for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedirectPolicy {
    /// Allowed origins, serialised by [`parse_origin`].
    origins: Vec<String>,
}

impl RedirectPolicy {
    /// The site's own origin (its base URL) and the listed ones; entries that are not
    /// origins are left out (the site check reports them).
    pub fn new(base_url: &str, allow_list: &[String]) -> RedirectPolicy {
        let own = absolute(base_url).map(|u| u.origin().ascii_serialization());
        let origins = own.into_iter().chain(allow_list.iter().filter_map(|e| parse_origin(e).ok())).collect();
        RedirectPolicy { origins }
    }

    /// Whether a visitor may be sent to `url` after success.
    pub fn allows(&self, url: &str) -> bool {
        is_site_path(url) || absolute(url).is_some_and(|u| self.origins.contains(&u.origin().ascii_serialization()))
    }

    /// `url` when [`RedirectPolicy::allows`] it.
    pub fn vet<'a>(&self, url: Option<&'a str>) -> Option<&'a str> {
        url.filter(|u| self.allows(u))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> RedirectPolicy {
        RedirectPolicy::new(
            "https://cafe.example",
            &["https://shop.example.com".into(), "http://localhost:8081".into()],
        )
    }

    #[test]
    fn paths_on_this_site_are_always_allowed() {
        for ok in ["/about", "/blog?x=1#top", "/"] {
            assert!(RedirectPolicy::default().allows(ok), "{ok:?}");
        }
    }

    #[test]
    fn listed_origins_and_the_sites_own_are_allowed() {
        let policy = policy();
        for ok in [
            "https://shop.example.com/thanks",
            "HTTPS://SHOP.EXAMPLE.COM:443/thanks?x=1",
            "https://cafe.example/thanks",
            "http://localhost:8081/done",
        ] {
            assert!(policy.allows(ok), "{ok:?} must be allowed");
        }
    }

    #[test]
    fn open_redirect_payloads_are_refused() {
        let policy = policy();
        for bad in [
            "//evil.example",
            "/\\evil.example",
            "https://evil.example",
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "https://shop.example.com@evil.example/",
            "https://user:pw@shop.example.com/",
            "https://shop.example.com.evil.example/",
            "https://evil.example/https://shop.example.com",
            "http://shop.example.com/",
            "https://shop.example.com:444/",
            "https:\\\\shop.example.com",
            "https://shop.example.com/\n",
            " https://shop.example.com/",
            "",
            "/a\\b",
        ] {
            assert!(!policy.allows(bad), "{bad:?} must be refused");
        }
    }

    #[test]
    fn allow_list_entries_must_be_bare_origins() {
        assert_eq!(parse_origin("https://Shop.Example.com").as_deref(), Ok("https://shop.example.com"));
        assert_eq!(parse_origin("https://shop.example.com/").as_deref(), Ok("https://shop.example.com"));
        assert_eq!(parse_origin("http://localhost:8081").as_deref(), Ok("http://localhost:8081"));
        for bad in [
            "shop.example.com",
            "https://shop.example.com/thanks",
            "https://shop.example.com?x",
            "ftp://x.example",
            "//x",
        ] {
            assert!(parse_origin(bad).is_err(), "{bad:?} must be refused");
        }
    }
}
