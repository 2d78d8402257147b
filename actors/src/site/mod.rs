//! The site model: what an owner writes in a site directory, loaded and checked once.
//!
//! A site directory holds `site.toml` (settings), `navigation.toml`, `pages/*.toml`,
//! `collections/<name>/collection.toml` with `items/*.toml`, `files/` (served under
//! `/s/`) and `images/`. `docs/site-format.md` describes every file and field.
//! [`Site::load`] reads and validates the whole directory and reports every problem as
//! `file: field: message`.

pub mod blocks;
pub mod content;
pub mod embeds;
pub mod forms;
pub(crate) mod load;
mod lookup;
pub mod redirect;
pub mod sanitize;
mod search;
pub mod settings;
pub mod slide_links;
pub mod urls;

use std::fmt;
use std::path::PathBuf;

pub use blocks::{Block, BlockData, BlockKind};
pub use content::{Access, Collection, CollectionKind, Item, Navigation, Page, Product};
pub use search::SearchHit;
pub use settings::SiteSettings;

/// A loaded, validated site.
#[derive(Debug, Clone)]
pub struct Site {
    /// The directory it was loaded from.
    pub dir: PathBuf,
    /// `site.toml`.
    pub settings: SiteSettings,
    /// `navigation.toml`.
    pub navigation: Navigation,
    /// Standalone pages.
    pub pages: Vec<Page>,
    /// Collections with their items.
    pub collections: Vec<Collection>,
}

/// One problem found in a site directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteProblem {
    /// File, relative to the site directory (e.g. `pages/home.toml`).
    pub file: String,
    /// Field path inside the file (e.g. `blocks[2].src`), or empty for the whole file.
    pub field: String,
    /// What is wrong, in words an owner understands.
    pub message: String,
}

impl fmt::Display for SiteProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.field, self.message)
        }
    }
}

/// Every problem found while loading a site.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{} problem(s) in the site directory:\n{}", .0.len(), .0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct SiteProblems(pub Vec<SiteProblem>);

/// What a request path names in the site.
#[derive(Debug, Clone, Copy)]
pub enum Resolved<'a> {
    /// A standalone page.
    Page(&'a Page),
    /// A collection's list page.
    Collection(&'a Collection),
    /// An item of a collection.
    Item(&'a Collection, &'a Item),
}

impl Site {
    /// Reads and validates the site directory at `dir`.
    pub fn load(dir: impl Into<PathBuf>) -> Result<Site, SiteProblems> {
        load::load(dir.into())
    }

    /// What the url id (a path without query string) names, if anything: a page, a
    /// collection, one of its items, or the page of a gallery slide's deep link
    /// (`<page>/<slide>`, see [`slide_links`]). Drafts and other unpublished items are not found.
    pub fn resolve(&self, url_id: &str) -> Option<Resolved<'_>> {
        let path = site_path(url_id);
        if let Some(page) = self.pages.iter().find(|p| p.url == path) {
            return Some(Resolved::Page(page));
        }
        for collection in &self.collections {
            if collection.url == path {
                return Some(Resolved::Collection(collection));
            }
            if let Some(rest) = path.strip_prefix(collection.url.as_str()).and_then(|r| r.strip_prefix('/')) {
                if let Some(item) = collection
                    .items
                    .iter()
                    .find(|i| i.url_id == rest && i.state == crate::domain::enums::PublicationState::Published)
                {
                    return Some(Resolved::Item(collection, item));
                }
            }
        }
        // A gallery deep link names its page (spec 001 §2).
        self.pages
            .iter()
            .find(|p| slide_links::slide_key(&p.url, &path).is_some_and(|key| p.links_slide(key)))
            .map(Resolved::Page)
    }

    /// The path a collection-panel id (`/pages/{id}`) names: a page, a collection, or a
    /// published item (a hidden item has no panel link).
    pub fn path_of_panel_id(&self, id: &str) -> Option<String> {
        let page = self.pages.iter().find(|p| p.id == id).map(|p| p.url.clone());
        let collection = || self.collections.iter().find(|c| c.id == id).map(|c| c.url.clone());
        let item =
            || self.collections.iter().find_map(|c| c.published_items().find(|i| i.id == id).map(|i| c.item_url(i)));
        page.or_else(collection).or_else(item)
    }

    /// The collection in folder `name`.
    pub fn collection(&self, name: &str) -> Option<&Collection> {
        self.collections.iter().find(|c| c.name == name)
    }

    /// Full-text search over published pages and items; with `collection` (a folder
    /// name), over that collection's published items only.
    pub fn search(&self, query: &str, collection: Option<&str>) -> Vec<SearchHit> {
        search::search(self, query, collection)
    }
}

/// A request path as the site names it: leading `/`, no trailing slash except for `/`.
pub fn site_path(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else if trimmed.starts_with('/') {
        trimmed.to_string()
    } else {
        format!("/{trimmed}")
    }
}
