//! The gate of password pages: whether a request's grant opens a page, and the lock
//! screen shown instead (the unlock form's post is `routes::auth`).

use actix_web::HttpRequest;
use veranda_actors::site::Resolved;

use super::crumb::page_crumb;
use crate::render::PageBody;
use crate::state::AppState;

/// Whether a resolved page opens for this request: a password page with a valid grant.
pub fn unlocked(req: &HttpRequest, state: &AppState, resolved: Resolved<'_>) -> bool {
    let Resolved::Page(page) = resolved else { return false };
    let Some(lock) = state.services.auth.page_locks.get(&page.id) else { return false };
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    state.services.auth.unlock_key.request_opens(req, &page.id, &lock.hash, now)
}

/// The lock screen's body for this request (its form carries the page's crumb).
pub fn lock_screen(
    req: &HttpRequest,
    state: &AppState,
    title: String,
    error: Option<&'static str>,
) -> PageBody<'static> {
    PageBody::LockScreen { title, crumb: page_crumb(req, state), error }
}
