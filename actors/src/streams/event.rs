//! What travels on the live streams: the stream names, the frames a client receives
//! (`hello`, `event`, `reset`), and the editor events of the edits stream (spec 001 §7).

use serde::{Deserialize, Serialize};

/// One live stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// The history generation the offset belongs to.
    pub epoch: String,
    /// The event's position, from 1, strictly increasing.
    pub offset: u64,
    /// When it was published (unix ms).
    pub at: u64,
    /// The event itself.
    pub data: serde_json::Value,
}

/// The frames a stream client receives, as JSON text (`type` tells them apart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// An editor event (spec 001 §7): who did what to which object, and where in the product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EditEvent {
    /// The event name, e.g. `UserChangesItemVisibility`.
    pub name: String,
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
    pub paths: Vec<String>,
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
}
