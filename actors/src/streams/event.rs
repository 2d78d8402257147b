//! What travels on the live streams: the stream names, the frames a client receives
//! (`hello`, `event`, `reset`), and the editor events of the edits stream (spec 001 §7).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One live stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum StreamName {
    /// Editor events: what owners, admins and editors changed.
    Edits,
    /// New JavaScript errors and error-group changes.
    Errors,
}

impl StreamName {
    /// Both streams.
    pub const ALL: [StreamName; 2] = [StreamName::Edits, StreamName::Errors];

    /// The name in paths, frames and metric labels.
    pub const fn as_str(self) -> &'static str {
        match self {
            StreamName::Edits => "edits",
            StreamName::Errors => "errors",
        }
    }
}

/// A published event with its position: `offset` grows by one per event within an `epoch`;
/// a new epoch means the history before it is gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct StoredEvent {
    /// The history generation the offset belongs to.
    pub epoch: String,
    /// The event's position, from 1, strictly increasing.
    pub offset: u64,
    /// When it was published (unix ms).
    pub at: u64,
    /// The event itself.
    #[ts(type = "unknown")]
    pub data: serde_json::Value,
}

/// The frames a stream client receives, as JSON text (`type` tells them apart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Frame {
    /// First frame of every connection: where the stream stands now.
    Hello {
        /// The stream.
        stream: StreamName,
        /// The current epoch.
        epoch: String,
        /// The offset of the latest event (0 when none yet).
        offset: u64,
    },
    /// One event.
    Event {
        /// The stream.
        stream: StreamName,
        /// The event's epoch.
        epoch: String,
        /// The event's offset.
        offset: u64,
        /// When it was published (unix ms).
        at: u64,
        /// The event itself.
        #[ts(type = "unknown")]
        data: serde_json::Value,
    },
    /// The client's position cannot be resumed (another epoch, or older than the history):
    /// it must reload its state; live events follow from `offset`.
    Reset {
        /// The stream.
        stream: StreamName,
        /// The current epoch.
        epoch: String,
        /// The offset of the latest event; live events continue after it.
        offset: u64,
        /// `epoch-changed`, `beyond-history` or `ahead-of-stream`.
        reason: ResetReason,
    },
}

/// Why a resume became a reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum ResetReason {
    /// The client's epoch is not the stream's (history was lost or reset).
    EpochChanged,
    /// Events after the client's offset were already dropped from the history.
    BeyondHistory,
    /// The client claims an offset the stream has not reached.
    AheadOfStream,
}

impl Frame {
    /// The frame of a stored event.
    pub fn event(stream: StreamName, event: &StoredEvent) -> Frame {
        Frame::Event {
            stream,
            epoch: event.epoch.clone(),
            offset: event.offset,
            at: event.at,
            data: event.data.clone(),
        }
    }

    /// The frame as JSON text.
    pub fn to_json(&self) -> String {
        // A tree of strings, numbers and JSON values always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The name of an editor event (spec 001 §7), as it travels on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum EditName {
    /// The site's header and footer texts were saved.
    UserSavesSiteHeaderFooter,
    /// The site's language list was saved.
    UserSavesLanguages,
    /// An item was shown or hidden.
    UserChangesItemVisibility,
    /// An item moved within or across collections.
    UserMovesCollectionItem,
    /// A blog post's thumbnail was set.
    UserChangesBlogThumbnail,
    /// A blog post's thumbnail was removed.
    UserRemovesBlogThumbnail,
    /// A collection's title or description was saved.
    UserSavesCollectionSettings,
    /// A collection moved in the site's list.
    UserMovesCollection,
    /// A page's title or description was saved.
    UserSavesPageSettings,
    /// A text block's content was saved.
    UserSavesBlockContent,
}

/// One kind of edit: it knows its event name, action, edited object kind and the place
/// in the product it is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditKind {
    /// `PUT /api/site-header-footer`.
    SiteHeaderFooter,
    /// `PUT /api/multilingual/languages`.
    Languages,
    /// An item made visible (`published`).
    ShowItem,
    /// An item hidden (any other state).
    HideItem,
    /// An item moved.
    MoveItem,
    /// A blog thumbnail set.
    ChangeBlogThumbnail,
    /// A blog thumbnail removed.
    RemoveBlogThumbnail,
    /// Collection settings saved.
    CollectionSettings,
    /// A collection moved.
    MoveCollection,
    /// Page settings saved.
    PageSettings,
    /// A text block's content saved.
    BlockContent,
}

impl EditKind {
    /// The event name.
    pub const fn name(self) -> EditName {
        match self {
            EditKind::SiteHeaderFooter => EditName::UserSavesSiteHeaderFooter,
            EditKind::Languages => EditName::UserSavesLanguages,
            EditKind::ShowItem | EditKind::HideItem => EditName::UserChangesItemVisibility,
            EditKind::MoveItem => EditName::UserMovesCollectionItem,
            EditKind::ChangeBlogThumbnail => EditName::UserChangesBlogThumbnail,
            EditKind::RemoveBlogThumbnail => EditName::UserRemovesBlogThumbnail,
            EditKind::CollectionSettings => EditName::UserSavesCollectionSettings,
            EditKind::MoveCollection => EditName::UserMovesCollection,
            EditKind::PageSettings => EditName::UserSavesPageSettings,
            EditKind::BlockContent => EditName::UserSavesBlockContent,
        }
    }

    /// What was done.
    pub const fn action(self) -> &'static str {
        match self {
            EditKind::ShowItem => "show",
            EditKind::HideItem => "hide",
            EditKind::MoveItem | EditKind::MoveCollection => "move",
            EditKind::RemoveBlogThumbnail => "remove",
            _ => "save",
        }
    }

    /// The kind of object edited.
    pub const fn object_type(self) -> &'static str {
        match self {
            EditKind::SiteHeaderFooter => "site-header-footer",
            EditKind::Languages => "multilingual",
            EditKind::ShowItem
            | EditKind::HideItem
            | EditKind::MoveItem
            | EditKind::ChangeBlogThumbnail
            | EditKind::RemoveBlogThumbnail => "item",
            EditKind::CollectionSettings | EditKind::MoveCollection => "collection",
            EditKind::PageSettings => "page",
            EditKind::BlockContent => "block",
        }
    }

    /// The product page and its section the edit is made on.
    pub const fn place(self) -> (&'static str, &'static str) {
        match self {
            EditKind::SiteHeaderFooter => ("config", "header-footer"),
            EditKind::Languages => ("config", "languages"),
            EditKind::ShowItem | EditKind::HideItem | EditKind::MoveItem => ("collection-editor", "item-catalog"),
            EditKind::ChangeBlogThumbnail | EditKind::RemoveBlogThumbnail | EditKind::CollectionSettings => {
                ("collection-editor", "settings-modal")
            }
            EditKind::MoveCollection => ("collection-editor", "panel"),
            EditKind::PageSettings => ("page-editor", "settings-modal"),
            EditKind::BlockContent => ("page-editor", "section-editor"),
        }
    }
}

/// An editor event (spec 001 §7): who did what to which object, and where in the product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EditEvent {
    /// The event name, e.g. `UserChangesItemVisibility`.
    pub name: EditName,
    /// The account that made the edit.
    pub actor: String,
    /// What was done, e.g. `save`, `hide`, `show`.
    pub action: String,
    /// The kind of object edited, e.g. `item`, `collection`, `site-header-footer`.
    pub object_type: String,
    /// The edited object's id.
    pub object_id: String,
    /// The product page the edit was made on, e.g. `config`.
    pub product_page: String,
    /// The section of that page, e.g. `settings-modal`.
    pub product_section: String,
    /// The site paths whose published pages the edit changes (none for site-wide and
    /// configuration edits); an open page re-renders when its path is listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub paths: Vec<String>,
}

impl EditEvent {
    /// The event of an edit of `kind` by `actor` on object `object_id`, changing the
    /// published pages at `paths`.
    pub fn new(kind: EditKind, actor: &str, object_id: &str, paths: Vec<String>) -> EditEvent {
        let (page, section) = kind.place();
        EditEvent {
            name: kind.name(),
            actor: actor.to_string(),
            action: kind.action().to_string(),
            object_type: kind.object_type().to_string(),
            object_id: object_id.to_string(),
            product_page: page.to_string(),
            product_section: section.to_string(),
            paths,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_tagged_camel_case_json() {
        let hello = Frame::Hello { stream: StreamName::Edits, epoch: "e1".into(), offset: 3 };
        assert_eq!(hello.to_json(), r#"{"type":"hello","stream":"edits","epoch":"e1","offset":3}"#);
        let reset = Frame::Reset {
            stream: StreamName::Errors,
            epoch: "e".into(),
            offset: 0,
            reason: ResetReason::BeyondHistory,
        };
        assert!(reset.to_json().contains(r#""reason":"beyond-history""#));
    }

    #[test]
    fn edit_events_keep_their_wire_form() {
        let event = EditEvent::new(EditKind::HideItem, "owner", "i1", vec!["/blog".into()]);
        assert_eq!(
            serde_json::to_string(&event).unwrap_or_default(),
            r#"{"name":"UserChangesItemVisibility","actor":"owner","action":"hide","objectType":"item","objectId":"i1","productPage":"collection-editor","productSection":"item-catalog","paths":["/blog"]}"#
        );
        let event = EditEvent::new(EditKind::Languages, "owner", "site", Vec::new());
        assert_eq!(
            serde_json::to_string(&event).unwrap_or_default(),
            r#"{"name":"UserSavesLanguages","actor":"owner","action":"save","objectType":"multilingual","objectId":"site","productPage":"config","productSection":"languages"}"#
        );
    }
}
