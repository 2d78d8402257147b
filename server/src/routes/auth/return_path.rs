//! Where the login page sends a visitor after signing in: a path on this site, never
//! another origin (`//evil.example`, `https://evil.example`, `/\evil.example`,
//! `javascript:` are refused, and the home page is used instead).

use crate::security::owner_redirect::is_same_site_path;

/// Longest return path kept, in bytes.
const MAX_LEN: usize = 2048;
/// The login page itself, never a return path.
pub const LOGIN_PATH: &str = "/account/login";

/// A same-site path to return to after signing in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnPath(String);

/// Why a return path was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReturnPathError {
    /// Not a path on this site (another origin, a scheme, a backslash, control characters).
    #[error("the return path is not a path on this site")]
    NotSameSite,
    /// Longer than the limit.
    #[error("the return path is longer than {MAX_LEN} bytes")]
    TooLong,
}

impl ReturnPath {
    /// A return path from a `redirect` or `returnUrl` value.
    pub fn parse(raw: &str) -> Result<ReturnPath, ReturnPathError> {
        if raw.len() > MAX_LEN {
            return Err(ReturnPathError::TooLong);
        }
        if !is_same_site_path(raw) {
            return Err(ReturnPathError::NotSameSite);
        }
        let path = raw.split(['?', '#']).next().unwrap_or(raw);
        if path.trim_end_matches('/') == LOGIN_PATH {
            return Ok(ReturnPath::home());
        }
        Ok(ReturnPath(raw.to_string()))
    }

    /// The first acceptable value of several candidates, else the home page.
    pub fn first_or_home<'a>(candidates: impl IntoIterator<Item = Option<&'a str>>) -> ReturnPath {
        candidates.into_iter().flatten().find_map(|raw| ReturnPath::parse(raw).ok()).unwrap_or_else(ReturnPath::home)
    }

    /// The home page.
    pub fn home() -> ReturnPath {
        ReturnPath("/".to_string())
    }

    /// The path (with its query string, if any).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_site_paths_are_kept() {
        assert_eq!(ReturnPath::parse("/members").map(|p| p.0), Ok("/members".to_string()));
        assert_eq!(ReturnPath::parse("/blog?tag=a#top").map(|p| p.0), Ok("/blog?tag=a#top".to_string()));
        assert_eq!(ReturnPath::parse("/account/login?x=1"), Ok(ReturnPath::home()));
    }

    #[test]
    fn other_origins_and_schemes_are_refused() {
        for bad in [
            "//evil.example",
            "https://evil.example",
            "/\\evil.example",
            "\\\\evil.example",
            "javascript:alert(1)",
            "/\t/evil.example",
            "evil.example",
            "",
        ] {
            assert_eq!(ReturnPath::parse(bad), Err(ReturnPathError::NotSameSite), "{bad:?}");
        }
        assert_eq!(ReturnPath::parse(&format!("/{}", "a".repeat(MAX_LEN))), Err(ReturnPathError::TooLong));
    }

    #[test]
    fn the_first_good_candidate_wins_else_home() {
        let path = ReturnPath::first_or_home([Some("//evil.example"), None, Some("/members")]);
        assert_eq!(path.as_str(), "/members");
        assert_eq!(ReturnPath::first_or_home([Some("https://evil.example")]).as_str(), "/");
    }
}
