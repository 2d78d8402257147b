//! The admin live streams (websockets) and the edit APIs that feed them.
//!
//! | route | methods | who | answer |
//! |---|---|---|---|
//! | `/api/streams/edits` | GET (websocket) | admin permission | the edits stream |
//! | `/api/streams/errors` | GET (websocket) | admin permission (as `GET /api/events/errors`) | the errors stream |
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
//!   body that writes a socket's frames from its queue.
//! - `editor`: the edit APIs' extractors (the signed-in editor; a crumb-checked edit and its body).
//! - `edits`: the edit APIs of the site's settings.
//! - `content`: the content edit APIs.
//! - `error`: the refusals.
//!
//! The `orderPlaced` event a checkout publishes on the edits stream is
//! `orders` in [`crate::services::streams`].
//!
//! The broadcasters, the edited settings and the open sockets are
//! [`crate::services::streams`]; the edited content is [`crate::services::site`].
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
mod editor;
mod edits;
mod error;
mod outbound;
mod recent;
mod socket;

use actix_web::web;

pub use error::StreamError;

use crate::edge::method;

/// Registers the stream and edit routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::get_only("/api/streams/{stream}", socket::connect))
        .service(method::get_only("/api/streams/{stream}/stats", socket::stats))
        .service(method::get_only("/api/streams/{stream}/events", recent::recent))
        .service(
            method::resource("/api/site-header-footer", "GET, PUT")
                .get(edits::header_footer)
                .put(edits::save_header_footer),
        )
        .service(method::get_only("/api/multilingual/settings", edits::multilingual_settings))
        .service(method::get_only("/api/multilingual/status", edits::multilingual_status))
        .service(method::put_only("/api/multilingual/languages", edits::save_languages));
    content_routes(cfg);
}

/// Registers the content edit routes (see `content`).
fn content_routes(cfg: &mut web::ServiceConfig) {
    cfg.service(method::put_only("/api/content/items/{id}/visibility", content::item_visibility))
        .service(method::put_only("/api/content/items/{id}/position", content::move_item))
        .service(
            method::resource("/api/content/items/{id}/thumbnail", "PUT, DELETE")
                .put(content::blog_thumbnail)
                .delete(content::blog_thumbnail),
        )
        .service(method::put_only("/api/content/collections/{id}/settings", content::collection_settings))
        .service(method::put_only("/api/content/collections/{id}/position", content::move_collection))
        .service(method::put_only("/api/content/pages/{id}/settings", content::page_settings))
        .service(method::put_only("/api/content/blocks/{id}", content::block_content));
}
