//! What the shared log's follower sends a broadcaster: [`Relay`] (the next event of the
//! log) and [`Rebase`] (the history reloaded), and [`FollowedHub`], the mailboxes it
//! sends them to. Kept apart from both so neither imports the other.

use actix::{Message, Recipient};

use super::event::ResetReason;
use super::history::History;

/// The mailboxes of the hub a follower feeds.
#[derive(Clone)]
pub struct FollowedHub {
    /// Where the log's events go, in offset order.
    pub relay: Recipient<Relay>,
    /// Where a reloaded history goes.
    pub rebase: Recipient<Rebase>,
}

/// An event of the shared log, numbered by Redis, for the instance's subscribers (sent by
/// the follower, in offset order).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Relay(pub super::event::StoredEvent);

/// The history reloaded from the shared log (another epoch, or a gap the follower could
/// not fill): replaces the history and resets every subscriber with `reason`.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Rebase {
    /// The history as Redis keeps it now.
    pub history: History,
    /// What the subscribers are told.
    pub reason: ResetReason,
}
