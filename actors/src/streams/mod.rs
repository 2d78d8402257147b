//! Live streams for the dashboard: edits and errors, each event numbered `(epoch, offset)`.
//!
//! A [`Broadcaster`] per stream owns the stream's history and its subscribers. Each event
//! gets the next offset of the current epoch; the epoch changes only when the history is
//! lost (a new store, or a stored history that cannot be trusted). The history is kept in
//! the store, bounded by [`StreamLimits::history_events`] and [`StreamLimits::history_days`],
//! so a client that reconnects with its last `(epoch, offset)` gets exactly the events it
//! missed, in order, or a `reset` frame when they are no longer all kept.
//!
//! ## Layout
//!
//! - `event`: stream names, the frames clients receive, and the editor events.
//! - `history`: the kept events in memory and the resume rule (pure).
//! - `journal`: the history in the store.
//! - `broadcaster`: the [`Broadcaster`] actor, its messages and the fan-out.
//! - `limits`: [`StreamLimits`], the configurable bounds.
//! - `shared`: [`SharedLog`], the history in Redis when several instances share one
//!   (`--redis-url`): offsets are then numbered by Redis and every instance mirrors them.
//! - [`metrics`]: the streams' metrics, documented once.

mod broadcaster;
mod event;
mod history;
mod journal;
mod limits;
pub mod metrics;
mod relay;
mod shared;

pub use broadcaster::{
    Broadcaster, GetRecentEvents, GetStreamStats, Outbox, PublishEvent, RecentEvents, StreamStats, Subscribe,
    Subscription, Unsubscribe,
};
pub use event::{EditEvent, EditKind, EditName, Frame, ResetReason, StoredEvent, StreamName};
pub use history::{History, Resume};
pub use journal::Journal;
pub use limits::{StreamLimits, MAX_CLIENT_FRAME_BYTES};
pub use relay::{FollowedHub, Rebase, Relay};
pub use shared::{SharedLog, PUBLISH as SHARED_PUBLISH_SCRIPT};
