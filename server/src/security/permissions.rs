//! What a signed-in account may do beyond its own pages: the permissions route areas share.
//!
//! Spec 000 §6 gives edit events to accounts with admin permission; 001 §3 names the admin
//! permission without mapping roles to it. We map: admin permission is the owner or the admin role.

use veranda_actors::accounts::SessionRecord;
use veranda_actors::domain::enums::ContributorRole;

/// Whether `session` has admin permission.
pub fn has_admin_permission(session: &SessionRecord) -> bool {
    session.owner || session.roles.contains(&ContributorRole::Admin)
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
}
