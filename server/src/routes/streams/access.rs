//! Whether a websocket's `Origin` is the site's own; who may watch a stream or make an edit
//! is [`crate::security::permissions`].

use actix_web::http::header;
use actix_web::HttpRequest;
use veranda_actors::site::Site;

pub use crate::security::permissions::{may_edit, may_watch};

/// Whether the request's `Origin` is one of the site's own: its public base URL, its
/// configuration domain, or the very host the request was sent to. A missing `Origin` fails.
pub fn origin_allowed(req: &HttpRequest, site: &Site) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()).and_then(normalise) else {
        return false;
    };
    let website = &site.settings.website;
    let scheme = crate::security::proxy::ClientInfo::of(req).scheme;
    let own_host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).map(|h| format!("{scheme}://{h}"));
    let app_domain = (!website.app_domain.is_empty()).then(|| format!("https://{}", website.app_domain));
    [Some(website.base_url.clone()), app_domain, own_host]
        .into_iter()
        .flatten()
        .filter_map(|o| normalise(&o))
        .any(|o| o == origin)
}

/// `scheme://host[:port]` in lowercase, without a default port or any path; `None` when
/// `url` is not an http(s) URL.
fn normalise(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("").to_ascii_lowercase();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let authority = match scheme.as_str() {
        "http" => authority.strip_suffix(":80").map(str::to_string).unwrap_or(authority),
        "https" => authority.strip_suffix(":443").map(str::to_string).unwrap_or(authority),
        _ => return None,
    };
    Some(format!("{scheme}://{authority}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_compared_without_paths_case_or_default_ports() {
        assert_eq!(normalise("HTTPS://Example.com:443/config/"), Some("https://example.com".into()));
        assert_eq!(normalise("http://127.0.0.1:8080"), Some("http://127.0.0.1:8080".into()));
        assert_eq!(normalise("null"), None);
        assert_eq!(normalise("ftp://example.com"), None);
        assert_eq!(normalise("https://evil@example.com"), None);
    }
}
