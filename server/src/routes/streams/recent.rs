//! `GET /api/streams/{stream}/events?limit=N`: the latest events of a stream's history, for a
//! dashboard panel that lists them first and then follows the websocket from the answer's
//! `(epoch, offset)`, with no gap and no duplicate.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::streams::GetRecentEvents;

use super::error::StreamError;
use super::socket::Watched;
use crate::edge::no_store;
use crate::state::AppState;

/// Events listed when the query names no `limit`.
pub const DEFAULT_RECENT_EVENTS: usize = 50;

/// The most events one answer lists.
pub const MAX_RECENT_EVENTS: usize = 500;

/// The query of the route.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecentQuery {
    /// How many events to list, 1 to [`MAX_RECENT_EVENTS`].
    limit: Option<String>,
}

/// The `limit` of a query string, or a 400 saying why it is unusable.
fn limit_of(query: &str) -> Result<usize, StreamError> {
    let query: RecentQuery = serde_urlencoded::from_str(query)
        .map_err(|e| StreamError::BadRequest(format!("The query is not valid: {e}")))?;
    let Some(limit) = query.limit else { return Ok(DEFAULT_RECENT_EVENTS) };
    match limit.parse::<usize>() {
        Ok(n) if (1..=MAX_RECENT_EVENTS).contains(&n) => Ok(n),
        _ => Err(StreamError::BadRequest(format!("limit must be a whole number from 1 to {MAX_RECENT_EVENTS}."))),
    }
}

/// `GET /api/streams/{stream}/events`: `{stream, epoch, offset, events: [{epoch, offset, at, data}]}`,
/// events oldest first; `offset` is the stream's latest, where a websocket resumes.
pub async fn recent(
    Watched(stream): Watched,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, StreamError> {
    let limit = limit_of(req.query_string())?;
    let recent =
        state.services.streams.hub(stream).send(GetRecentEvents(limit)).await.map_err(|_| StreamError::Busy)?;
    Ok(no_store(HttpResponse::Ok()).json(recent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default_and_stay_in_range() {
        assert_eq!(limit_of("").unwrap(), DEFAULT_RECENT_EVENTS);
        assert_eq!(limit_of("limit=7").unwrap(), 7);
        assert!(limit_of("limit=0").is_err());
        assert!(limit_of("limit=501").is_err());
        assert!(limit_of("limit=ten").is_err());
        assert!(limit_of("other=1").is_err());
    }
}
