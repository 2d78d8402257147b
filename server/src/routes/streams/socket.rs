//! `GET /api/streams/{edits|errors}`: the websocket of one live stream, and
//! `GET /api/streams/{edits|errors}/stats`.
//!
//! Before the upgrade: the `Origin` must be the site's own (403), the account signed in
//! (401) with the stream's permission (403), and `epoch`/`offset` readable (400). Then the
//! socket gets `hello`, the replayed events or a `reset`, and live events. It is pinged
//! every `heartbeat_secs`; it closes when the client sends nothing (pongs included) for
//! `client_timeout_secs` (1001), when a client frame exceeds 64 KB (1009), when it falls
//! `client_queue` frames behind or its frames wait unwritten for `client_timeout_secs`
//! (1013: reconnect with the last offset), or when its session ends (1008): at once on
//! signing out or at the session's expiry, and at the next heartbeat when the session
//! disappears otherwise.
//!
//! The frames are written by the response body itself ([`Outbound`]), straight from the
//! subscriber's queue; the socket's task reads the client, keeps the heartbeat and the
//! session checks, and hands the body its pings, pongs and close frame ([`Control`]).

use std::time::Duration;

use actix::Addr;
use actix_web::body::{BodyStream, BoxBody, MessageBody};
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use actix_ws::{CloseCode, CloseReason, Message, MessageStream, ProtocolError};
use futures_util::future::{ready, Ready};
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio::time::{interval_at, sleep_until, Instant, MissedTickBehavior};
use veranda_actors::accounts::{SessionRecord, SESSION_COOKIE};
use veranda_actors::store::{Store, Tree};
use veranda_actors::streams::{
    Broadcaster, GetStreamStats, StreamLimits, StreamName, Subscribe, Unsubscribe, MAX_CLIENT_FRAME_BYTES,
};

use super::access;
use super::error::StreamError;
use super::outbound::{too_slow, Control, Outbound, QueueRelease};
use crate::edge::no_store;
use crate::security::session::CurrentSession;
use crate::services::streams::SocketGuard;
use crate::state::AppState;

/// The query of a stream connection: both or neither of `epoch` and `offset`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CursorQuery {
    /// The epoch of the client's last event.
    epoch: Option<String>,
    /// The offset of the client's last event.
    offset: Option<String>,
}

/// Reads the client's last `(epoch, offset)`, if it sent one.
fn cursor(query: &str) -> Result<Option<(String, u64)>, StreamError> {
    let query: CursorQuery = serde_urlencoded::from_str(query)
        .map_err(|e| StreamError::BadRequest(format!("The query string is not readable: {e}")))?;
    match (query.epoch, query.offset) {
        (None, None) => Ok(None),
        (Some(epoch), Some(offset)) if epoch.len() <= 64 => {
            let offset =
                offset.parse().map_err(|_| StreamError::BadRequest("offset must be a whole number.".to_string()))?;
            Ok(Some((epoch, offset)))
        }
        (Some(_), Some(_)) => Err(StreamError::BadRequest("epoch is too long.".to_string())),
        _ => Err(StreamError::BadRequest("Send both epoch and offset to resume, or neither.".to_string())),
    }
}

/// The stream of the request's path, when its signed-in account may watch it: 400 for
/// an unknown stream, 401 without a session, 403 without the stream's permission.
pub struct Watched(pub StreamName);

impl FromRequest for Watched {
    type Error = StreamError;
    type Future = Ready<Result<Watched, StreamError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready((|| {
            let stream = stream_of(req)?;
            let session = CurrentSession::of(req).0.ok_or(StreamError::NotSignedIn)?;
            if !access::may_watch(&session, stream) {
                return Err(StreamError::Forbidden);
            }
            Ok(Watched(stream))
        })())
    }
}

/// The stream named in the request's path.
pub(super) fn stream_of(req: &HttpRequest) -> Result<StreamName, StreamError> {
    match req.match_info().get("stream") {
        Some("edits") => Ok(StreamName::Edits),
        Some("errors") => Ok(StreamName::Errors),
        _ => Err(StreamError::BadRequest("Unknown stream.".to_string())),
    }
}

/// Checks the origin, the account and its permission for the stream in the path.
fn admit(
    req: &HttpRequest,
    state: &AppState,
    session: CurrentSession,
) -> Result<(StreamName, SessionRecord), StreamError> {
    let stream = stream_of(req)?;
    if !access::origin_allowed(req, &state.services.site.current()) {
        return Err(StreamError::ForeignOrigin);
    }
    let session = session.0.ok_or(StreamError::NotSignedIn)?;
    if !access::may_watch(&session, stream) {
        return Err(StreamError::Forbidden);
    }
    Ok((stream, session))
}

/// Upgrades to a websocket on the stream in the path.
pub async fn connect(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
    session: CurrentSession,
) -> Result<HttpResponse, StreamError> {
    let (stream, session) = admit(&req, &state, session)?;
    let resume = cursor(req.query_string())?;
    let session_id = req.cookie(SESSION_COOKIE).map(|c| c.value().to_string()).unwrap_or_default();
    // actix-ws answers the handshake and reads the client's frames; its response body is
    // replaced by `Outbound`. It is kept (never sent) until the socket ends, since the
    // message stream ends as soon as the body actix-ws made for it is dropped.
    let (handshake, _, messages) = actix_ws::handle(&req, body).map_err(|_| StreamError::NotWebsocket)?;
    let (head, unsent_body) = handshake.into_parts();
    let hub = state.services.streams.hub(stream).clone();
    let subscription = hub.send(Subscribe(resume)).await.map_err(|_| StreamError::Busy)?;
    let (control, control_rx) = mpsc::channel(CONTROL_QUEUE);
    let (outbound, queue) = Outbound::new(subscription.backlog, subscription.outbox, control_rx, too_slow());
    let client = Client {
        signed_in_guard: state.services.streams.sockets.register(&session_id),
        expires_in: seconds_until(session.expires_at),
        control,
        queue,
        messages: messages.max_frame_size(MAX_CLIENT_FRAME_BYTES),
        _unsent_body: unsent_body,
        store: state.services.store.clone(),
        session_id,
        limits: state.settings.streams.clone(),
    };
    actix_web::rt::spawn(client.serve(subscription.id, hub));
    Ok(head.set_body(BodyStream::new(outbound).boxed()))
}

/// Pings, pongs and a close frame waiting for the socket's body; a full queue means the
/// body has not been able to write for a while.
const CONTROL_QUEUE: usize = 8;

/// `GET /api/streams/{stream}/stats`: where the stream and its subscribers stand.
pub async fn stats(Watched(stream): Watched, state: web::Data<AppState>) -> Result<HttpResponse, StreamError> {
    let stats = state.services.streams.hub(stream).send(GetStreamStats).await.map_err(|_| StreamError::Busy)?;
    Ok(no_store(HttpResponse::Ok()).json(stats))
}

/// One connected websocket.
struct Client {
    /// Pings, pongs and the close frame, for the socket's body.
    control: mpsc::Sender<Control>,
    /// Frees the subscriber's queue when the socket ends.
    queue: QueueRelease,
    /// Frames from the client.
    messages: MessageStream,
    /// The response body actix-ws made for the handshake, never sent; `messages` ends
    /// when it is dropped.
    _unsent_body: BoxBody,
    /// Where the session is re-checked.
    store: std::sync::Arc<dyn Store>,
    /// The session cookie the socket was opened with.
    session_id: String,
    /// Heartbeat and timeout settings.
    limits: StreamLimits,
    /// The socket's place among its session's sockets; woken on signing out.
    signed_in_guard: SocketGuard,
    /// Time left until the session expires.
    expires_in: Duration,
}

impl Client {
    /// Runs the socket until it closes, then leaves the stream.
    async fn serve(mut self, id: u64, hub: Addr<Broadcaster>) {
        // The close frame is queued before leaving the stream: the body sends it ahead of
        // the 1013 it sends when the queue ends.
        if let Some(reason) = self.pump().await {
            let _ = self.control.try_send(Control::Close(reason));
        }
        let _ = hub.send(Unsubscribe(id)).await;
        self.queue.release();
    }

    /// Reads the client and keeps the heartbeat and the session checks while the body
    /// writes the frames; returns why the socket must close (`None` when the client
    /// already went away).
    async fn pump(&mut self) -> Option<CloseReason> {
        let mut unwritten = Unwritten::new(Duration::from_secs(self.limits.client_timeout_secs.max(1)));
        let period = Duration::from_secs(self.limits.heartbeat_secs.max(1));
        let mut heartbeat = interval_at(Instant::now() + period, period);
        heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut last_heard = Instant::now();
        let expiry = sleep_until(Instant::now() + self.expires_in);
        tokio::pin!(expiry);
        loop {
            tokio::select! {
                _ = self.signed_in_guard.session_ended() => return Some(reason(CloseCode::Policy, "Signed out.")),
                _ = &mut expiry => return Some(reason(CloseCode::Policy, "The session expired.")),
                message = self.messages.recv() => {
                    last_heard = Instant::now();
                    match message {
                        Some(Ok(Message::Ping(bytes))) => self.send(Control::Pong(bytes))?,
                        Some(Ok(Message::Close(_))) | None => return None,
                        Some(Ok(_)) => {}
                        Some(Err(ProtocolError::Overflow)) => {
                            return Some(reason(CloseCode::Size, "Frames are limited to 64 KB."))
                        }
                        Some(Err(_)) => return Some(reason(CloseCode::Protocol, "Unreadable frame.")),
                    }
                }
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() > Duration::from_secs(self.limits.client_timeout_secs) {
                        return Some(reason(CloseCode::Away, "No answer to pings."));
                    }
                    if !self.signed_in() {
                        return Some(reason(CloseCode::Policy, "Signed out."));
                    }
                    let waiting = self.control.capacity() < self.control.max_capacity();
                    if unwritten.too_long(waiting, Instant::now()) {
                        return Some(too_slow());
                    }
                    self.send(Control::Ping)?;
                }
            }
        }
    }

    /// Hands `message` to the body; `None` when the socket is gone. A full queue drops it
    /// (the heartbeat closes a socket whose body stopped writing).
    fn send(&self, message: Control) -> Option<()> {
        match self.control.try_send(message) {
            Err(mpsc::error::TrySendError::Closed(_)) => None,
            _ => Some(()),
        }
    }

    /// Whether the socket's session still exists and is valid.
    fn signed_in(&self) -> bool {
        if self.session_id.is_empty() {
            return false;
        }
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        self.store
            .get(Tree::Sessions, self.session_id.as_bytes())
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<SessionRecord>(&bytes).ok())
            .is_some_and(|s| s.is_valid_at(now))
    }
}

/// Whether a socket's body stopped writing: at each heartbeat, whether the previous
/// heartbeat's ping is still waiting for the body, for `limit` or longer.
struct Unwritten {
    /// How long messages may wait.
    limit: Duration,
    /// The first heartbeat that found messages waiting, since they last did not.
    since: Option<Instant>,
}

impl Unwritten {
    fn new(limit: Duration) -> Unwritten {
        Unwritten { limit, since: None }
    }

    /// Records whether messages are `waiting` at `now`; true once they have waited `limit`.
    fn too_long(&mut self, waiting: bool, now: Instant) -> bool {
        if !waiting {
            self.since = None;
            return false;
        }
        now.duration_since(*self.since.get_or_insert(now)) >= self.limit
    }
}

fn reason(code: CloseCode, description: &str) -> CloseReason {
    CloseReason { code, description: Some(description.to_string()) }
}

/// Time from now until the unix second `expires_at` (none when past; at most a year).
fn seconds_until(expires_at: i64) -> Duration {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    Duration::from_secs(expires_at.saturating_sub(now).clamp(0, 365 * 24 * 3600) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_is_both_epoch_and_offset_or_neither() {
        assert_eq!(cursor("").ok(), Some(None));
        assert_eq!(cursor("epoch=ab&offset=7").ok(), Some(Some(("ab".to_string(), 7))));
        assert!(cursor("epoch=ab").is_err());
        assert!(cursor("epoch=ab&offset=-1").is_err());
        assert!(cursor("offset=x&epoch=a").is_err());
        assert!(cursor("other=1").is_err());
    }

    #[test]
    fn a_body_that_stops_writing_is_too_slow_after_the_limit_and_writing_again_resets_it() {
        let start = Instant::now();
        let at = |secs| start + Duration::from_secs(secs);
        let mut unwritten = Unwritten::new(Duration::from_secs(30));
        assert!(!unwritten.too_long(false, at(10)));
        assert!(!unwritten.too_long(true, at(20)), "the first heartbeat that finds a ping waiting");
        assert!(!unwritten.too_long(true, at(40)));
        assert!(!unwritten.too_long(false, at(45)), "written: the wait starts over");
        assert!(!unwritten.too_long(true, at(50)));
        assert!(!unwritten.too_long(true, at(70)));
        assert!(unwritten.too_long(true, at(80)), "30 s without writing");
    }

    #[test]
    fn a_session_expiry_is_a_bounded_wait() {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        assert_eq!(seconds_until(now - 5), Duration::ZERO);
        assert!((3590..=3600).contains(&seconds_until(now + 3600).as_secs()));
        assert_eq!(seconds_until(i64::MAX).as_secs(), 365 * 24 * 3600);
    }
}
