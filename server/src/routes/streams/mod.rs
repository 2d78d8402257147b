//! The admin live streams (websockets) and the edit APIs that feed them.
//!
//! | route | methods | who | answer |
//! |---|---|---|---|
//! | `/api/streams/edits` | GET (websocket) | admin permission | the edits stream |
//! | `/api/streams/errors` | GET (websocket) | config permission | the errors stream |
//! | `/api/streams/{stream}/stats` | GET | as the stream | `{stream, epoch, offset, historyEvents, clients, clientQueue, queueHighWater, slowConsumers}` |
//! | `/api/streams/{stream}/events?limit=N` | GET | as the stream | `{stream, epoch, offset, events: [{epoch, offset, at, data}]}`, the latest N (default 50, at most 500) oldest first |
//! | edit APIs | see `edits` and `content` | owner, admins, editors | |
//!
//! A stream connection may carry `?epoch=E&offset=N`, the client's last event, to resume.
//! The server sends JSON text frames, `type` first:
//!
//! - `{"type":"hello","stream":"edits","epoch":"…","offset":12}` once, first: the latest offset now.
//! - `{"type":"event","stream":"edits","epoch":"…","offset":13,"at":1700000000000,"data":{…}}`:
//!   offsets grow by one per event within an epoch. Edits carry an editor event
//!   `{name, actor, action, objectType, objectId, productPage, productSection}`; errors carry
//!   `{"type":"errorRecorded", fingerprint, message, url, at}` or
//!   `{"type":"errorGrouped", fingerprint, message, file, line, column, lastUrl, firstSeen, lastSeen, count}`.
//! - `{"type":"reset","stream":…,"epoch":…,"offset":…,"reason":"epoch-changed"|"beyond-history"|"ahead-of-stream"}`
//!   instead of a replay when the resume point is no longer in the history: reload, then
//!   live events continue after `offset`.
//!
//! Client frames are only read for pings, pongs and close; one larger than 64 KB closes
//! the socket (1009). Close codes: 1001 no answer to pings, 1008 signed out, 1013 fell
//! behind (reconnect with the last offset).
//!
//! ## Layout
//!
//! - `access`: permissions per stream and edit, and the `Origin` check.
//! - `socket`: the websocket endpoint and its per-client loop; `outbound`: the response
//!   body that writes a socket's frames from its queue; `sign_out`: the open sockets per
//!   session, closed when the session ends.
//! - `edits`: the edit APIs of the site's settings; `site_edits`: the edited values they keep.
//! - `content`: the content edit APIs; `content_edits`: the overlay they keep and the
//!   edited site visitors see.
//! - `error`: the refusals.
//! - `orders`: the `orderPlaced` event a checkout publishes on the edits stream.
//!
//! ## Several instances
//!
//! With `--redis-url` both streams are shared through Redis (see
//! `veranda_actors::streams::SharedLog` and `docs/redis.md`): Redis numbers every event, each
//! instance follows the shared log and fans it out to its own sockets, so a dashboard on
//! one instance sees the edits made on another, in order, and resumes on any instance.
//! The edits themselves are saved in the local store first: when Redis does not answer
//! the edit still succeeds and only its event is lost.

pub(crate) mod access;
mod content;
mod content_edits;
mod edits;
mod error;
mod orders;
mod outbound;
mod recent;
mod sign_out;
mod site_edits;
mod socket;

use std::sync::Arc;

use actix::{Actor, Addr};
use actix_web::web;
use tokio::sync::broadcast;
use veranda_actors::site::Site;
use veranda_actors::store::Store;
use veranda_actors::streams::{metrics, Broadcaster, Journal, PublishEvent, SharedLog, StreamLimits, StreamName};
use veranda_actors::telemetry::TelemetryEvent;

use crate::edge::method;
use crate::settings::Settings;

pub use content_edits::ContentEdits;
pub use error::StreamError;
pub use orders::publish_order_placed;
pub use sign_out::OpenSockets;
pub use site_edits::SiteEdits;

/// State the stream routes share across workers.
pub struct StreamsState {
    /// The edits stream.
    pub edits: Addr<Broadcaster>,
    /// The errors stream.
    pub errors: Addr<Broadcaster>,
    /// The header, footer and languages as edited.
    pub site_edits: SiteEdits,
    /// The content edits and the edited site.
    pub content: ContentEdits,
    /// The open stream sockets per session.
    pub sockets: OpenSockets,
}

impl StreamsState {
    /// Starts both broadcasters over their stored history (inside the actix system) and
    /// feeds the errors stream from `errors`, the error queue's broadcast channel.
    pub async fn new(
        store: Arc<dyn Store>,
        site: Arc<Site>,
        settings: &Settings,
        errors: broadcast::Receiver<TelemetryEvent>,
    ) -> StreamsState {
        let redis = settings.redis_url.as_deref();
        let edits_hub = start(store.clone(), StreamName::Edits, &settings.streams, redis).await;
        let errors_hub = start(store.clone(), StreamName::Errors, &settings.streams, redis).await;
        actix::spawn(forward_errors(errors, errors_hub.clone()));
        StreamsState {
            edits: edits_hub,
            errors: errors_hub,
            site_edits: SiteEdits::load(store.clone(), &site),
            content: ContentEdits::load(store, site),
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
    redis_url: Option<&str>,
) -> Addr<Broadcaster> {
    let journal = Journal::new(store, stream);
    if let Some(url) = redis_url {
        match SharedLog::open(url, stream, limits) {
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
/// Registers the stream and edit routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/streams/{stream}")
            .route(web::get().to(socket::connect))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource("/api/streams/{stream}/stats")
            .route(web::get().to(socket::stats))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource("/api/streams/{stream}/events")
            .route(web::get().to(recent::recent))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource("/api/site-header-footer")
            .route(web::get().to(edits::header_footer))
            .route(web::put().to(edits::save_header_footer))
            .default_service(method::only("GET, PUT")),
    )
    .service(
        web::resource("/api/multilingual/settings")
            .route(web::get().to(edits::multilingual_settings))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource("/api/multilingual/status")
            .route(web::get().to(edits::multilingual_status))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource("/api/multilingual/languages")
            .route(web::put().to(edits::save_languages))
            .default_service(method::only("PUT")),
    );
    content_routes(cfg);
}

/// Registers the content edit routes (see `content`).
fn content_routes(cfg: &mut web::ServiceConfig) {
    cfg.service(put_only("/api/content/items/{id}/visibility", content::item_visibility))
        .service(put_only("/api/content/items/{id}/position", content::move_item))
        .service(
            web::resource("/api/content/items/{id}/thumbnail")
                .route(web::put().to(content::blog_thumbnail))
                .route(web::delete().to(content::blog_thumbnail))
                .default_service(method::only("PUT, DELETE")),
        )
        .service(put_only("/api/content/collections/{id}/settings", content::collection_settings))
        .service(put_only("/api/content/collections/{id}/position", content::move_collection))
        .service(put_only("/api/content/pages/{id}/settings", content::page_settings))
        .service(put_only("/api/content/blocks/{id}", content::block_content));
}

/// A resource answering only `PUT`.
fn put_only<F, Args>(path: &str, handler: F) -> actix_web::Resource
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    web::resource(path).route(web::put().to(handler)).default_service(method::only("PUT"))
}
