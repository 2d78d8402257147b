//! When visitor analytics are recorded (spec 000 §6), decided on the server too: never
//! for signed-in accounts unless their only role is viewer, never under `/config`,
//! never on not-found, lock-screen or member-area-denied pages, never when the site
//! switches analytics off; `/search` views are searches, not page views.

use crate::accounts::SessionRecord;
use crate::domain::enums::PageType;
use crate::site::{site_path, Access, Resolved, Site};

/// What to do with a visitor-analytics call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recording {
    /// Record an ordinary page view.
    PageView,
    /// Record a site search (the `/search` page).
    Search,
    /// Record nothing.
    Skip(SkipReason),
}

/// Why nothing is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// `analyticsDisabled` in the site settings.
    Disabled,
    /// A signed-in account other than a viewer-only contributor.
    SignedIn,
    /// A configuration path.
    ConfigArea,
    /// A page type that suppresses analytics.
    PageType(PageType),
}

impl SkipReason {
    /// The reason as a metric label.
    pub fn label(self) -> &'static str {
        match self {
            SkipReason::Disabled => "disabled",
            SkipReason::SignedIn => "signed_in",
            SkipReason::ConfigArea => "config_area",
            SkipReason::PageType(PageType::NotFound) => "not_found",
            SkipReason::PageType(PageType::LockScreen) => "lock_screen",
            SkipReason::PageType(_) => "member_area_denied",
        }
    }
}

/// The path of a payload url: scheme and host dropped, query and fragment dropped.
pub fn path_of(url: &str) -> String {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .or_else(|| url.strip_prefix("//"))
        .map(|r| r.find('/').map_or("/", |i| &r[i..]))
        .unwrap_or(url);
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    site_path(&rest[..end])
}

/// The page type a visitor would get at `path` (only the distinctions the rules need).
fn page_type_at(site: &Site, session: Option<&SessionRecord>, path: &str) -> PageType {
    match site.resolve(path) {
        None => PageType::NotFound,
        Some(resolved) => {
            let access = match resolved {
                Resolved::Page(p) => p.access,
                Resolved::Collection(c) | Resolved::Item(c, _) => c.access,
            };
            match (access, session) {
                (Access::Password, _) => PageType::LockScreen,
                (Access::Members, Some(s)) if !s.may_see_member_pages() => PageType::MemberAreaAccessDenied,
                (Access::Members, None) => PageType::ProtectedContent,
                _ => PageType::Page,
            }
        }
    }
}

/// Decides whether a visit to `url` by `session` is recorded.
pub fn decide(site: &Site, session: Option<&SessionRecord>, url: &str) -> Recording {
    if site.settings.analytics_disabled {
        return Recording::Skip(SkipReason::Disabled);
    }
    if session.is_some_and(|s| !s.analytics_allowed()) {
        return Recording::Skip(SkipReason::SignedIn);
    }
    let path = path_of(url);
    if path == "/config" || path.starts_with("/config/") {
        return Recording::Skip(SkipReason::ConfigArea);
    }
    if path == "/search" {
        return Recording::Search;
    }
    let page_type = page_type_at(site, session, &path);
    if page_type.suppresses_analytics() {
        Recording::Skip(SkipReason::PageType(page_type))
    } else {
        Recording::PageView
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_urls_become_site_paths() {
        assert_eq!(path_of("https://example.com/blog/?x=1#top"), "/blog");
        assert_eq!(path_of("http://example.com"), "/");
        assert_eq!(path_of("/about?x"), "/about");
        assert_eq!(path_of("//cdn.example/x"), "/x");
    }
}
