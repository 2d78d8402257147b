//! The [`Broadcaster`] actor, one per stream: numbers every event `(epoch, offset)`, keeps
//! the history (memory and store), and fans each event out to its subscribers.
//!
//! Every subscriber has a bounded queue of ready-to-send frames. Fan-out never waits: a
//! subscriber whose queue is full is dropped at once (a slow consumer) and its socket
//! closes, so one stalled client never holds the others back and memory stays at most
//! `client_queue` frames per client. It reconnects with its last offset and resumes.
//!
//! With a [`SharedLog`] (several instances on one Redis), events are numbered by Redis:
//! [`PublishEvent`] appends to the shared log, and the instance's follower brings every
//! event of every instance back as a [`Relay`], in offset order, so each instance's
//! history mirrors the shared one. A client resuming on an instance whose follower has
//! not yet reached the client's offset is not reset: it waits, and the events up to its
//! offset are not sent to it again.

use std::collections::HashMap;
use std::sync::Arc;

use actix::{Actor, Addr, Context, Handler, Message, ResponseFuture};
use bytestring::ByteString;
use tokio::sync::mpsc;

use super::event::{Frame, ResetReason, StreamName};
use super::history::{History, Resume};
use super::journal::Journal;
use super::limits::StreamLimits;
use super::metrics;
use super::relay::{FollowedHub, Rebase, Relay};
use super::shared::SharedLog;
use crate::store::StoreError;
use crate::telemetry::records::now_ms;

/// Messages waiting in a broadcaster's mailbox before senders wait.
const MAILBOX_CAPACITY: usize = 4096;

/// The frames of one subscriber, ready to send.
pub type Outbox = mpsc::Receiver<ByteString>;

/// Owns one stream's history and subscribers.
pub struct Broadcaster {
    /// Which stream this is.
    stream: StreamName,
    /// The latest events and the current epoch and head.
    history: History,
    /// Where the history is stored.
    journal: Journal,
    /// The connected subscribers, by subscription id.
    subscribers: HashMap<u64, Subscriber>,
    /// The next subscription id.
    next_id: u64,
    /// Frames a subscriber may have queued.
    client_queue: usize,
    /// Subscribers dropped for falling behind, since start.
    slow_consumers: u64,
    /// The longest any subscriber's queue has been, since start.
    queue_high_water: usize,
    /// The Redis log numbering the events, when several instances share the stream.
    shared: Option<Arc<SharedLog>>,
    /// Most events kept (how far ahead of this instance a resuming client may be on a
    /// shared stream).
    history_events: usize,
    /// The stream's events, clients and events-kept series.
    series: metrics::EventSeries,
}

/// One connected subscriber.
struct Subscriber {
    /// Its frames, ready to send.
    queue: mpsc::Sender<ByteString>,
    /// Events up to this offset were already sent to it (it resumed ahead of this
    /// instance on a shared stream).
    skip_through: u64,
}

impl Broadcaster {
    /// A broadcaster over the stored history of `stream` (a new epoch when none is usable).
    pub async fn load(journal: Journal, stream: StreamName, limits: &StreamLimits) -> Result<Broadcaster, StoreError> {
        let history = journal.load(limits, now_ms()).await?;
        Ok(Broadcaster::with_history(history, journal, stream, limits))
    }

    /// A broadcaster whose history starts empty in a new epoch, not read from the store
    /// (when the store cannot be read at start-up; new events are still written).
    pub fn unrestored(journal: Journal, stream: StreamName, limits: &StreamLimits) -> Broadcaster {
        let history = History::fresh(Journal::new_epoch(), limits.history_events, limits.history_ms());
        Broadcaster::with_history(history, journal, stream, limits)
    }

    /// A broadcaster of a stream shared through Redis, over `history` as loaded from it; its
    /// events come from the follower ([`Relay`]).
    pub fn shared(history: History, journal: Journal, log: Arc<SharedLog>, limits: &StreamLimits) -> Broadcaster {
        let stream = log.stream();
        Broadcaster { shared: Some(log), ..Broadcaster::with_history(history, journal, stream, limits) }
    }

    fn with_history(history: History, journal: Journal, stream: StreamName, limits: &StreamLimits) -> Broadcaster {
        metrics::describe();
        let series = metrics::EventSeries::of(stream);
        series.history_events(history.len());
        Broadcaster {
            stream,
            history,
            journal,
            subscribers: HashMap::new(),
            next_id: 1,
            client_queue: limits.client_queue.max(1),
            slow_consumers: 0,
            queue_high_water: 0,
            shared: None,
            history_events: limits.history_events,
            series,
        }
    }

    /// Numbers and keeps `data`, queues it for every subscriber; returns the event's
    /// position and the offsets that fell out of the history.
    pub fn publish(&mut self, data: serde_json::Value, now: u64) -> (Arc<super::StoredEvent>, Vec<u64>) {
        let (event, dropped) = self.history.append(data, now);
        self.fan_out(&event);
        (event, dropped)
    }

    /// Keeps an event numbered by the shared log and queues it for every subscriber; `Err`
    /// with the event when it does not follow this history's head.
    pub fn relay(&mut self, event: super::StoredEvent, now: u64) -> Result<(), super::StoredEvent> {
        let (event, _) = self.history.push(event, now)?;
        self.fan_out(&event);
        Ok(())
    }

    /// Replaces the history (reloaded from the shared log) and sends every subscriber a
    /// `reset`: live events continue after the new head.
    pub fn rebase(&mut self, history: History, reason: super::ResetReason) {
        self.history = history;
        let reset = Frame::Reset {
            stream: self.stream,
            epoch: self.history.epoch().to_string(),
            offset: self.history.head(),
            reason,
        };
        let frame = ByteString::from(reset.to_json());
        self.subscribers.retain(|_, subscriber| {
            subscriber.skip_through = 0;
            subscriber.queue.try_send(frame.clone()).is_ok()
        });
        self.series.clients(self.subscribers.len());
        self.series.history_events(self.history.len());
    }

    /// Counts `event` and queues it for every subscriber (with none, no frame is built).
    fn fan_out(&mut self, event: &super::StoredEvent) {
        if !self.subscribers.is_empty() {
            self.queue(event);
        }
        self.series.published(self.subscribers.len(), self.history.len());
    }

    /// Queues `event`'s frame for every subscriber; drops the ones whose queue is full.
    fn queue(&mut self, event: &super::StoredEvent) {
        let frame = ByteString::from(Frame::event(self.stream, event).to_json());
        let capacity = self.client_queue;
        let mut slow = 0u64;
        let mut high_water = self.queue_high_water;
        let offset = event.offset;
        self.subscribers.retain(|_, subscriber| {
            if offset <= subscriber.skip_through {
                return !subscriber.queue.is_closed();
            }
            match subscriber.queue.try_send(frame.clone()) {
                Ok(()) => {
                    high_water = high_water.max(capacity - subscriber.queue.capacity());
                    true
                }
                Err(mpsc::error::TrySendError::Full(_)) => {
                    slow += 1;
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            }
        });
        self.queue_high_water = high_water;
        self.slow_consumers += slow;
        metrics::slow_consumers(self.stream, slow);
    }

    /// Adds a subscriber. `resume` is the client's last `(epoch, offset)`; without it the
    /// client gets live events only.
    pub fn subscribe(&mut self, resume: Option<(String, u64)>, now: u64) -> Subscription {
        let dropped = self.history.trim(now);
        if !dropped.is_empty() && self.shared.is_none() {
            actix::spawn(delete(self.journal.clone(), dropped));
        }
        let hello =
            Frame::Hello { stream: self.stream, epoch: self.history.epoch().to_string(), offset: self.history.head() };
        let mut backlog = vec![ByteString::from(hello.to_json())];
        let mut skip_through = 0;
        if let Some((epoch, offset)) = resume {
            match self.history.resume(&epoch, offset) {
                Resume::Reset(ResetReason::AheadOfStream) if self.waits_for(offset) => {
                    metrics::resumed(self.stream, metrics::REPLAYED);
                    skip_through = offset;
                }
                Resume::Replay(events) => {
                    metrics::resumed(self.stream, metrics::REPLAYED);
                    backlog.extend(events.iter().map(|e| ByteString::from(Frame::event(self.stream, e).to_json())));
                }
                Resume::Reset(reason) => {
                    metrics::resumed(self.stream, metrics::RESET);
                    let reset = Frame::Reset {
                        stream: self.stream,
                        epoch: self.history.epoch().to_string(),
                        offset: self.history.head(),
                        reason,
                    };
                    backlog.push(ByteString::from(reset.to_json()));
                }
            }
        }
        let (sender, outbox) = mpsc::channel(self.client_queue);
        let id = self.next_id;
        self.next_id += 1;
        self.subscribers.insert(id, Subscriber { queue: sender, skip_through });
        self.series.clients(self.subscribers.len());
        Subscription { id, backlog, outbox }
    }

    /// Whether a client resuming at `offset` of this epoch, ahead of this history, waits
    /// for it: only on a shared stream (another instance numbered it and this one's
    /// follower has not caught up) and at most `history_events` ahead.
    fn waits_for(&self, offset: u64) -> bool {
        self.shared.is_some() && offset.saturating_sub(self.history.head()) <= self.history_events as u64
    }

    /// Removes a subscriber (its socket closed).
    pub fn unsubscribe(&mut self, id: u64) {
        self.subscribers.remove(&id);
        self.series.clients(self.subscribers.len());
    }

    /// The latest `limit` events still in the history at `now`, with the stream's position.
    pub fn recent(&mut self, limit: usize, now: u64) -> RecentEvents {
        let dropped = self.history.trim(now);
        if !dropped.is_empty() && self.shared.is_none() {
            actix::spawn(delete(self.journal.clone(), dropped));
        }
        RecentEvents {
            stream: self.stream,
            epoch: self.history.epoch().to_string(),
            offset: self.history.head(),
            events: self.history.latest(limit).iter().map(|e| e.as_ref().clone()).collect(),
        }
    }

    /// Where the stream and its subscribers stand.
    pub fn stats(&self) -> StreamStats {
        StreamStats {
            stream: self.stream,
            epoch: self.history.epoch().to_string(),
            offset: self.history.head(),
            history_events: self.history.len(),
            clients: self.subscribers.len(),
            client_queue: self.client_queue,
            queue_high_water: self.queue_high_water,
            slow_consumers: self.slow_consumers,
        }
    }
}

async fn delete(journal: Journal, offsets: Vec<u64>) {
    journal.delete(offsets).await
}

impl Actor for Broadcaster {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(MAILBOX_CAPACITY);
    }
}

/// A new subscriber's connection to the stream.
#[derive(Debug)]
pub struct Subscription {
    /// Pass to [`Unsubscribe`] when the socket closes.
    pub id: u64,
    /// Frames to send first: `hello`, then the replayed events or a `reset`.
    pub backlog: Vec<ByteString>,
    /// Live frames; ends when the subscriber is dropped (slow consumer) or the stream stops.
    pub outbox: Outbox,
}

/// Where a stream and its subscribers stand (the `stats` answer).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamStats {
    /// The stream.
    pub stream: StreamName,
    /// The current epoch.
    pub epoch: String,
    /// The latest offset.
    pub offset: u64,
    /// Events kept for resuming clients.
    pub history_events: usize,
    /// Subscribers connected now.
    pub clients: usize,
    /// Frames a subscriber may have queued.
    pub client_queue: usize,
    /// The longest any subscriber's queue has been.
    pub queue_high_water: usize,
    /// Subscribers dropped for falling behind.
    pub slow_consumers: u64,
}

/// Publishes one event; resolves with its `(epoch, offset)` once it is stored per the
/// stream's durability class (the edits stream: on disk), or, on a shared stream, once
/// Redis numbered it (`StoreError::Unavailable` when Redis did not answer: the event is
/// then lost for every subscriber).
#[derive(Message)]
#[rtype(result = "Result<(String, u64), StoreError>")]
pub struct PublishEvent(pub serde_json::Value);

impl Handler<PublishEvent> for Broadcaster {
    type Result = ResponseFuture<Result<(String, u64), StoreError>>;

    fn handle(&mut self, msg: PublishEvent, _: &mut Self::Context) -> Self::Result {
        if let Some(log) = self.shared.clone() {
            return Box::pin(async move { log.publish(&msg.0, now_ms()).await });
        }
        let (event, dropped) = self.publish(msg.0, now_ms());
        let journal = self.journal.clone();
        Box::pin(async move {
            journal.append(&event).await?;
            journal.delete(dropped).await;
            Ok((event.epoch.clone(), event.offset))
        })
    }
}

impl Handler<Relay> for Broadcaster {
    type Result = ();

    fn handle(&mut self, msg: Relay, _: &mut Self::Context) {
        if let Err(event) = self.relay(msg.0, now_ms()) {
            tracing::warn!(
                stream = self.stream.as_str(),
                offset = event.offset,
                head = self.history.head(),
                "a shared event does not follow the history; it is not delivered"
            );
        }
    }
}

impl Handler<Rebase> for Broadcaster {
    type Result = ();

    fn handle(&mut self, msg: Rebase, _: &mut Self::Context) {
        self.rebase(msg.history, msg.reason)
    }
}

/// Adds a subscriber, resuming from `(epoch, offset)` when given; returns its subscription.
#[derive(Message)]
#[rtype(result = "Subscription")]
pub struct Subscribe(pub Option<(String, u64)>);

impl Handler<Subscribe> for Broadcaster {
    type Result = actix::MessageResult<Subscribe>;

    fn handle(&mut self, msg: Subscribe, _: &mut Self::Context) -> Self::Result {
        actix::MessageResult(self.subscribe(msg.0, now_ms()))
    }
}

/// Removes the subscriber with this id.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Unsubscribe(pub u64);

impl Handler<Unsubscribe> for Broadcaster {
    type Result = ();

    fn handle(&mut self, msg: Unsubscribe, _: &mut Self::Context) {
        self.unsubscribe(msg.0)
    }
}

/// Returns where the stream and its subscribers stand.
#[derive(Message)]
#[rtype(result = "StreamStats")]
pub struct GetStreamStats;

impl Handler<GetStreamStats> for Broadcaster {
    type Result = actix::MessageResult<GetStreamStats>;

    fn handle(&mut self, _: GetStreamStats, _: &mut Self::Context) -> Self::Result {
        actix::MessageResult(self.stats())
    }
}

/// The latest events of a stream, oldest first, with the stream's position: a client that
/// lists them and then subscribes from `(epoch, offset)` misses nothing and sees nothing twice.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct RecentEvents {
    /// The stream.
    pub stream: StreamName,
    /// The current epoch.
    pub epoch: String,
    /// The latest offset (the last listed event's, when any are listed).
    pub offset: u64,
    /// The events, oldest first.
    pub events: Vec<super::StoredEvent>,
}

/// Returns the latest `limit` events of the stream's history.
#[derive(Message)]
#[rtype(result = "RecentEvents")]
pub struct GetRecentEvents(pub usize);

impl Handler<GetRecentEvents> for Broadcaster {
    type Result = actix::MessageResult<GetRecentEvents>;

    fn handle(&mut self, msg: GetRecentEvents, _: &mut Self::Context) -> Self::Result {
        actix::MessageResult(self.recent(msg.0, now_ms()))
    }
}

#[cfg(test)]
mod tests;

impl From<Addr<Broadcaster>> for FollowedHub {
    fn from(hub: Addr<Broadcaster>) -> FollowedHub {
        FollowedHub { relay: hub.clone().recipient(), rebase: hub.recipient() }
    }
}
