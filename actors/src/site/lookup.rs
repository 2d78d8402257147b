//! Finding things in a loaded site: item urls, who may see a resolved path, products by
//! reference, the published urls.

use super::blocks::Block;
use super::content::{Access, Collection, Item};
use super::{Resolved, Site};
use crate::domain::enums::PublicationState;

impl Collection {
    /// The path of `item` under this collection, e.g. `/blog/first-post`.
    pub fn item_url(&self, item: &Item) -> String {
        format!("{}/{}", self.url.trim_end_matches('/'), item.url_id)
    }

    /// The published items, in the collection's order.
    pub fn published_items(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| i.state == PublicationState::Published)
    }
}

impl Resolved<'_> {
    /// Who may see what the path names: the page's access, or its collection's.
    pub fn access(self) -> Access {
        match self {
            Resolved::Page(p) => p.access,
            Resolved::Collection(c) | Resolved::Item(c, _) => c.access,
        }
    }
}

impl Site {
    /// Every block of the site: the pages' in order, then each collection's items'.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        let page_blocks = self.pages.iter().flat_map(|p| p.blocks.iter());
        page_blocks.chain(self.collections.iter().flat_map(|c| c.items.iter()).flat_map(|i| i.blocks.iter()))
    }

    /// The product a product block names as `collection/urlId`, if there is one.
    pub fn product(&self, reference: &str) -> Option<(&Collection, &Item)> {
        let (name, url_id) = reference.split_once('/')?;
        let collection = self.collection(name)?;
        let item = collection.items.iter().find(|i| i.url_id == url_id && i.product.is_some())?;
        Some((collection, item))
    }

    /// Every url a visitor can reach without a password or membership: public pages,
    /// public collections and their published items. Used for `/sitemap.xml`.
    pub fn published_urls(&self) -> Vec<String> {
        let mut urls: Vec<String> =
            self.pages.iter().filter(|p| p.access == Access::Public).map(|p| p.url.clone()).collect();
        for collection in self.collections.iter().filter(|c| c.access == Access::Public) {
            urls.push(collection.url.clone());
            urls.extend(collection.published_items().map(|item| collection.item_url(item)));
        }
        urls
    }
}
