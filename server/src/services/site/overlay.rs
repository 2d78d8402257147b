//! [`ContentOverlay`]: content edited through the edit APIs, kept over the site directory
//! (which stays the published source), and how it applies to the loaded site.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::{BlockData, Site};

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
    /// Publication state per item id (stored by name, `"draft"`).
    #[serde(with = "state_names")]
    pub item_states: BTreeMap<String, PublicationState>,
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
                if let Some(state) = self.item_states.get(&item.id) {
                    item.state = *state;
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

/// Publication states kept by name (`"draft"`), as the stored overlay always had them.
mod state_names {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};
    use veranda_actors::domain::enums::PublicationState;

    pub fn serialize<S: Serializer>(states: &BTreeMap<String, PublicationState>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(states.iter().map(|(id, state)| (id, state.name())))
    }

    /// A name no state has is dropped: it never applied.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, PublicationState>, D::Error> {
        let names = BTreeMap::<String, String>::deserialize(d)?;
        Ok(names.into_iter().filter_map(|(id, name)| PublicationState::from_name(&name).map(|s| (id, s))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_states_are_stored_by_name_and_unknown_names_are_dropped() {
        let mut overlay = ContentOverlay::default();
        overlay.item_states.insert("a".into(), PublicationState::Draft);
        let json = serde_json::to_value(&overlay).expect("serialises");
        assert_eq!(json["itemStates"], serde_json::json!({ "a": "draft" }));
        let read: ContentOverlay =
            serde_json::from_value(serde_json::json!({ "itemStates": { "a": "draft", "b": "gone" } })).expect("reads");
        assert_eq!(read.item_states.into_iter().collect::<Vec<_>>(), vec![("a".to_string(), PublicationState::Draft)]);
    }
}
