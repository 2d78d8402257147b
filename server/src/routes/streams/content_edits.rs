//! [`ContentEdits`]: content edited through the edit APIs, kept as an overlay over the
//! site directory (which stays the published source). The overlay is one document in the
//! settings tree, written before an edit is acknowledged; the edited site, the loaded
//! site with the overlay applied, is what visitors are shown.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};
use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::{BlockData, Site};
use veranda_actors::store::{Store, StoreError, Tree};

/// Settings-tree key of the content overlay.
const CONTENT_KEY: &[u8] = b"edits/content";

/// Collection settings as edited.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionSettings {
    /// The collection's title.
    pub title: Option<String>,
    /// The collection's description (plain text).
    pub description: Option<String>,
}

/// Page settings as edited.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageSettings {
    /// The page's title.
    pub title: Option<String>,
    /// The page's description (plain text).
    pub description: Option<String>,
}

/// Every content edit, by the id of what it changes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ContentOverlay {
    /// Publication state (by name) per item id.
    pub item_states: BTreeMap<String, String>,
    /// Settings per collection id.
    pub collections: BTreeMap<String, CollectionSettings>,
    /// The order of the collections (ids), when moved.
    pub collection_order: Vec<String>,
    /// The items (ids, in order) of each collection whose items were moved.
    pub item_layout: BTreeMap<String, Vec<String>>,
    /// The thumbnail (a file in `images/`, or none when removed) per item id.
    pub thumbnails: BTreeMap<String, Option<String>>,
    /// Settings per page id.
    pub pages: BTreeMap<String, PageSettings>,
    /// Sanitised rich text per text-block id.
    pub text_blocks: BTreeMap<String, String>,
}

impl ContentOverlay {
    /// `base` with the edits applied. Edits naming ids the site no longer has are ignored.
    pub fn apply(&self, base: &Site) -> Site {
        let mut site = base.clone();
        self.place_items(&mut site);
        if !self.collection_order.is_empty() {
            let rank = |id: &str| self.collection_order.iter().position(|c| c == id).unwrap_or(usize::MAX);
            site.collections.sort_by_key(|c| rank(&c.id));
        }
        for collection in &mut site.collections {
            if let Some(settings) = self.collections.get(&collection.id) {
                if let Some(title) = &settings.title {
                    collection.title = title.clone();
                }
                if let Some(description) = &settings.description {
                    collection.description = description.clone();
                }
            }
            for item in &mut collection.items {
                if let Some(state) = self.item_states.get(&item.id).and_then(|s| PublicationState::from_name(s)) {
                    item.state = state;
                }
                if let Some(thumbnail) = self.thumbnails.get(&item.id) {
                    item.image = thumbnail.clone();
                }
                self.edit_blocks(&mut item.blocks);
            }
        }
        for page in &mut site.pages {
            if let Some(settings) = self.pages.get(&page.id) {
                if let Some(title) = &settings.title {
                    page.title = title.clone();
                }
                if let Some(description) = &settings.description {
                    page.description = description.clone();
                }
            }
            self.edit_blocks(&mut page.blocks);
        }
        site
    }

    /// Replaces edited text blocks' rich text.
    fn edit_blocks(&self, blocks: &mut [veranda_actors::site::Block]) {
        for block in blocks {
            if let (Some(html), BlockData::Text(text)) = (self.text_blocks.get(&block.id), &mut block.data) {
                text.html = html.clone();
            }
        }
    }

    /// Puts moved items in their collections, in their order. Items a layout does not
    /// list (added to the site directory since) stay where the directory puts them.
    fn place_items(&self, site: &mut Site) {
        if self.item_layout.is_empty() {
            return;
        }
        let mut pool: HashMap<String, veranda_actors::site::Item> = HashMap::new();
        let mut origin: Vec<Vec<String>> = Vec::with_capacity(site.collections.len());
        for collection in &mut site.collections {
            origin.push(collection.items.iter().map(|i| i.id.clone()).collect());
            for item in collection.items.drain(..) {
                pool.insert(item.id.clone(), item);
            }
        }
        for collection in &mut site.collections {
            if let Some(layout) = self.item_layout.get(&collection.id) {
                collection.items = layout.iter().filter_map(|id| pool.remove(id)).collect();
            }
        }
        for (collection, ids) in site.collections.iter_mut().zip(&origin) {
            if !self.item_layout.contains_key(&collection.id) {
                collection.items = ids.iter().filter_map(|id| pool.remove(id)).collect();
            }
        }
        for (collection, ids) in site.collections.iter_mut().zip(&origin) {
            collection.items.extend(ids.iter().filter_map(|id| pool.remove(id)));
        }
    }
}

/// The content overlay and the edited site it gives.
pub struct ContentEdits {
    /// Where the overlay is kept.
    store: Arc<dyn Store>,
    /// The site as loaded from its directory.
    base: Arc<Site>,
    /// The overlay; its lock also orders concurrent edits.
    overlay: tokio::sync::Mutex<ContentOverlay>,
    /// The edited site visitors see.
    current: RwLock<Arc<Site>>,
}

impl ContentEdits {
    /// The loaded site with the stored overlay applied. An unreadable overlay is logged
    /// and ignored (the site directory is shown as is).
    pub fn load(store: Arc<dyn Store>, base: Arc<Site>) -> ContentEdits {
        let overlay: ContentOverlay = match store.get(Tree::Settings, CONTENT_KEY) {
            Ok(Some(bytes)) => serde_json::from_slice(&bytes).unwrap_or_else(|error| {
                tracing::error!(%error, "the stored content edits are unreadable; showing the site directory as is");
                ContentOverlay::default()
            }),
            Ok(None) => ContentOverlay::default(),
            Err(error) => {
                tracing::error!(%error, "cannot read the stored content edits; showing the site directory as is");
                ContentOverlay::default()
            }
        };
        let current = if overlay == ContentOverlay::default() { base.clone() } else { Arc::new(overlay.apply(&base)) };
        ContentEdits { store, base, overlay: tokio::sync::Mutex::new(overlay), current: RwLock::new(current) }
    }

    /// The edited site, as visitors see it now.
    pub fn site(&self) -> Arc<Site> {
        self.current.read().map(|s| s.clone()).unwrap_or_else(|_| self.base.clone())
    }

    /// Runs `change` on the overlay against the edited site; when it succeeds, stores the
    /// overlay (on disk before this resolves) and shows the result. `change`'s error is
    /// handed back with nothing changed.
    pub async fn edit<T, E: From<StoreError>>(
        &self,
        change: impl FnOnce(&mut ContentOverlay, &Site) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut overlay = self.overlay.lock().await;
        let mut next = overlay.clone();
        let answer = change(&mut next, &self.site())?;
        let bytes = serde_json::to_vec(&next).map_err(|e| StoreError::Backend(e.to_string()))?;
        self.store.put(Tree::Settings, CONTENT_KEY, &bytes).await?;
        let edited = Arc::new(next.apply(&self.base));
        if let Ok(mut current) = self.current.write() {
            *current = edited;
        }
        *overlay = next;
        Ok(answer)
    }
}
