//! [`Streams`]: the dashboard's live streams (the edits and errors broadcasters, shared
//! through Redis with `--redis-url`), the header, footer and languages as edited, and the
//! open stream sockets per session.
//!
//! ## Layout
//!
//! - `site_edits`: the edited header, footer and languages.
//! - [`follow_edits`]: with Redis, edits made through other instances shown here too.
//! - `sockets`: the open sockets per session, closed when the session ends.

pub mod follow_edits;
mod orders;
mod site_edits;
mod sockets;

use std::sync::Arc;

use actix::{Actor, Addr};
use tokio::sync::broadcast;
use veranda_actors::site::Site;
use veranda_actors::store::Store;
use veranda_actors::streams::{metrics, Broadcaster, Journal, PublishEvent, SharedLog, StreamLimits, StreamName};
use veranda_actors::telemetry::TelemetryEvent;

use crate::settings::Settings;

pub use orders::{publish_order_placed, OrderPlaced};
pub use site_edits::{LanguageTag, SiteEdits, MAX_HEADER_FOOTER_CHARS};
pub use sockets::{OpenSockets, SocketGuard};

/// The live streams' broadcasters and what the stream routes share across workers.
pub struct Streams {
    /// The edits stream.
    pub edits: Addr<Broadcaster>,
    /// The errors stream.
    pub errors: Addr<Broadcaster>,
    /// The header, footer and languages as edited.
    pub site_edits: SiteEdits,
    /// The open stream sockets per session.
    pub sockets: OpenSockets,
}

impl Streams {
    /// Starts both broadcasters over their stored history (inside the actix system) and
    /// feeds the errors stream from `errors`, the error queue's broadcast channel.
    pub async fn start(
        store: Arc<dyn Store>,
        site: &Site,
        settings: &Settings,
        errors: broadcast::Receiver<TelemetryEvent>,
    ) -> Streams {
        let redis = settings.redis_url.as_deref().map(|url| (url, settings.redis.key_prefix.as_str()));
        let edits_hub = start(store.clone(), StreamName::Edits, &settings.streams, redis).await;
        let errors_hub = start(store.clone(), StreamName::Errors, &settings.streams, redis).await;
        actix::spawn(forward_errors(errors, errors_hub.clone()));
        Streams {
            edits: edits_hub,
            errors: errors_hub,
            site_edits: SiteEdits::load(store, site),
            sockets: OpenSockets::default(),
        }
    }

    /// The broadcaster of `stream`.
    pub fn hub(&self, stream: StreamName) -> &Addr<Broadcaster> {
        match stream {
            StreamName::Edits => &self.edits,
            StreamName::Errors => &self.errors,
        }
    }
}

async fn start(
    store: Arc<dyn Store>,
    stream: StreamName,
    limits: &StreamLimits,
    redis: Option<(&str, &str)>,
) -> Addr<Broadcaster> {
    let journal = Journal::new(store, stream);
    if let Some((url, key_prefix)) = redis {
        match SharedLog::open(url, key_prefix, stream, limits) {
            Ok(log) => return start_shared(journal, Arc::new(log), limits).await,
            Err(error) => {
                tracing::error!(%error, stream = stream.as_str(), "cannot share the stream through Redis; it stays local")
            }
        }
    }
    match Broadcaster::load(journal.clone(), stream, limits).await {
        Ok(hub) => hub.start(),
        Err(error) => {
            tracing::error!(%error, stream = stream.as_str(), "cannot read the stream's history; starting a new epoch");
            Broadcaster::unrestored(journal, stream, limits).start()
        }
    }
}

/// Starts the broadcaster of a stream shared through Redis and its follower. When Redis
/// cannot be read now the history starts empty in a placeholder epoch; the follower
/// reloads it (and resets the clients) once Redis answers.
async fn start_shared(journal: Journal, log: Arc<SharedLog>, limits: &StreamLimits) -> Addr<Broadcaster> {
    let stream = log.stream();
    let history = match log.load(limits, veranda_actors::telemetry::records::now_ms()).await {
        Ok(history) => history,
        Err(error) => {
            tracing::error!(%error, stream = stream.as_str(), "cannot read the shared stream's history from Redis");
            veranda_actors::streams::History::fresh(Journal::new_epoch(), limits.history_events, limits.history_ms())
        }
    };
    let (epoch, head) = (history.epoch().to_string(), history.head());
    let hub = Broadcaster::shared(history, journal, log.clone(), limits).start();
    actix::spawn(log.follow(hub.clone(), epoch, head, limits.clone()));
    hub
}

/// Publishes every error event on the errors stream, in order.
async fn forward_errors(mut source: broadcast::Receiver<TelemetryEvent>, hub: Addr<Broadcaster>) {
    loop {
        match source.recv().await {
            Ok(event) => {
                let Ok(data) = serde_json::to_value(&event) else { continue };
                match hub.send(PublishEvent(data)).await {
                    Ok(Ok(_)) => {}
                    Ok(Err(error)) => tracing::warn!(%error, "cannot store an errors-stream event"),
                    Err(_) => return,
                }
            }
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "the errors stream fell behind the error queue");
                metrics::source_lagged(missed);
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}
