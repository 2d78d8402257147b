//! When visitor analytics are recorded (spec 000 §6), decided on the server too: never
//! when the site switches analytics off, never under `/config`, never on not-found,
//! lock-screen or member-area-denied pages, never for signed-in accounts unless their
//! only role is viewer; `/search` views are searches, not page views.
//!
//! The page a call names is gated exactly as the page route gates it
//! ([`Access::gate`]): a password page the request has unlocked is an ordinary page, and
//! a signed-in account without member access gets the member-area-denied page. The page
//! type is checked before the account, so a call about that page is skipped for that
//! reason.

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
    /// One reason of each label.
    pub const ALL: [SkipReason; 6] = [
        SkipReason::Disabled,
        SkipReason::SignedIn,
        SkipReason::ConfigArea,
        SkipReason::PageType(PageType::NotFound),
        SkipReason::PageType(PageType::LockScreen),
        SkipReason::PageType(PageType::MemberAreaAccessDenied),
    ];

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

/// The page type a visitor would get at `path` (only the distinctions the rules need);
/// `unlocked` says whether the request opens a password page.
fn page_type_at(
    site: &Site,
    session: Option<&SessionRecord>,
    path: &str,
    unlocked: impl FnOnce(Resolved<'_>) -> bool,
) -> PageType {
    match site.resolve(path) {
        None => PageType::NotFound,
        Some(resolved) => {
            let access = resolved.access();
            let unlocked = access == Access::Password && unlocked(resolved);
            access.gate(session, unlocked).unwrap_or(PageType::Page)
        }
    }
}

/// Decides whether a visit to `url` by `session` is recorded; `unlocked` says whether the
/// request opens a password page (it carries a valid unlock grant for it).
pub fn decide(
    site: &Site,
    session: Option<&SessionRecord>,
    url: &str,
    unlocked: impl FnOnce(Resolved<'_>) -> bool,
) -> Recording {
    if site.settings.analytics_disabled {
        return Recording::Skip(SkipReason::Disabled);
    }
    let path = path_of(url);
    if path == "/config" || path.starts_with("/config/") {
        return Recording::Skip(SkipReason::ConfigArea);
    }
    let search = path == "/search";
    if !search {
        let page_type = page_type_at(site, session, &path, unlocked);
        if page_type.suppresses_analytics() {
            return Recording::Skip(SkipReason::PageType(page_type));
        }
    }
    if session.is_some_and(|s| !s.analytics_allowed()) {
        return Recording::Skip(SkipReason::SignedIn);
    }
    if search {
        Recording::Search
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
