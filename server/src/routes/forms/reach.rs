//! Whether the visitor may use a form: only from a page they could open. A form lives in the blocks of pages and
//! collection items; it is usable when at least one of them is published (drafts and other unpublished items are
//! not) and its access gate lets this request through (a members-only page needs a member, a password page the
//! page's unlock). Otherwise the save calls and the thank-you view answer as for a form that does not exist (404),
//! so a stranger learns nothing about forms on pages closed to them.

use actix_web::HttpRequest;
use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::{Access, Block, BlockData, Resolved};

use crate::pages::unlock;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// Whether `req` may submit `form_id` (or see its thank-you view).
pub fn reachable(req: &HttpRequest, state: &AppState, form_id: &str) -> bool {
    let site = state.services.site.current();
    let hosts = |blocks: &[Block]| blocks.iter().any(|b| hosted_form(b).is_some_and(|id| id == form_id));
    let pages = site.pages.iter().filter(|p| hosts(&p.blocks)).map(Resolved::Page);
    let items = site.collections.iter().flat_map(|c| {
        c.items
            .iter()
            .filter(|i| i.state == PublicationState::Published && hosts(&i.blocks))
            .map(move |i| Resolved::Item(c, i))
    });
    let mut hosts = pages.chain(items).peekable();
    if hosts.peek().is_none() {
        return false;
    }
    let session = CurrentSession::of(req).0;
    hosts.any(|resolved| {
        let access = resolved.access();
        let unlocked = access == Access::Password && unlock::unlocked(req, state, resolved);
        access.gate(session.as_ref(), unlocked).is_none()
    })
}

/// The form id of a form or newsletter block (as [`veranda_actors::forms::FormIndex`] reads it).
fn hosted_form(block: &Block) -> Option<&str> {
    match &block.data {
        BlockData::Form(form) => Some(&form.form_id),
        BlockData::Newsletter(newsletter) => Some(&newsletter.form_id),
        _ => None,
    }
}
