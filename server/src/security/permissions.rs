//! What a signed-in account may do beyond its own pages: the permissions route areas share.
//!
//! Spec 000 §6 gives edit events to accounts with admin permission; 001 §3 names the config
//! (1) and admin (2) permissions without mapping roles to them. We map: admin permission is the
//! owner or the admin role; config permission is the owner or any contributor role except the
//! read-only viewer and scheduling-viewer roles. Edits are made by the owner, admins and editors.

use veranda_actors::accounts::SessionRecord;
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::streams::StreamName;

/// Whether `session` has admin permission.
pub fn has_admin_permission(session: &SessionRecord) -> bool {
    session.owner || session.roles.contains(&ContributorRole::Admin)
}

/// Whether `session` has config permission.
pub fn has_config_permission(session: &SessionRecord) -> bool {
    session.owner
        || session.roles.iter().any(|r| !matches!(r, ContributorRole::Viewer | ContributorRole::SchedulingViewer))
}

/// Whether `session` may watch `stream`: both need admin permission, the errors stream the same as the errors API
/// (`GET /api/events/errors`), since it carries the same records (messages, pages, visitors' addresses in URLs).
pub fn may_watch(session: &SessionRecord, stream: StreamName) -> bool {
    match stream {
        StreamName::Edits | StreamName::Errors => has_admin_permission(session),
    }
}

/// Whether `session` may edit the site: the owner, admins and editors.
pub fn may_edit(session: &SessionRecord) -> bool {
    session.owner || session.roles.iter().any(|r| matches!(r, ContributorRole::Admin | ContributorRole::Editor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(owner: bool, roles: &[ContributorRole]) -> SessionRecord {
        SessionRecord { account_id: "a".into(), owner, roles: roles.to_vec(), member: false, expires_at: i64::MAX }
    }

    #[test]
    fn admin_permission_is_the_owner_or_the_admin_role() {
        assert!(has_admin_permission(&session(true, &[])));
        assert!(has_admin_permission(&session(false, &[ContributorRole::Admin])));
        assert!(!has_admin_permission(&session(false, &[ContributorRole::Editor])));
        assert!(!has_admin_permission(&session(false, &[])));
    }

    #[test]
    fn both_streams_need_admin_permission() {
        let admin = session(false, &[ContributorRole::Admin]);
        let editor = session(false, &[ContributorRole::Editor]);
        let viewer = session(false, &[ContributorRole::Viewer]);
        let member = SessionRecord { member: true, ..session(false, &[]) };
        assert!(may_watch(&session(true, &[]), StreamName::Edits));
        assert!(may_watch(&admin, StreamName::Edits) && may_watch(&admin, StreamName::Errors));
        assert!(!may_watch(&editor, StreamName::Edits) && !may_watch(&editor, StreamName::Errors));
        assert!(!may_watch(&viewer, StreamName::Errors) && !may_watch(&member, StreamName::Errors));
        assert!(may_edit(&editor) && !may_edit(&viewer) && !may_edit(&member));
    }
}
