//! Signed-in sessions: the record kept in the sessions tree under a random id, and
//! starting and ending one.

use rand::RngCore;
use serde::{Deserialize, Serialize};

use super::account::Account;
use crate::domain::enums::{ContributorRole, Permission};
use crate::store::{Store, StoreError, Tree};

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "veranda_session";

/// How long a "remember me" session lasts (the cookie's `Max-Age` too): 14 days.
pub const REMEMBERED_SESSION_SECS: i64 = 14 * 24 * 60 * 60;

/// How long a browser-session login stays valid on the server: its cookie has no
/// `Max-Age`, so the browser drops it on close, and this bounds a forgotten tab.
pub const BROWSER_SESSION_SECS: i64 = 24 * 60 * 60;

/// A signed-in session, stored in the sessions tree under its id.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SessionRecord {
    /// The account signed in.
    pub account_id: String,
    /// The site owner (all permissions).
    #[serde(default)]
    pub owner: bool,
    /// Contributor roles on this site.
    #[serde(default)]
    pub roles: Vec<ContributorRole>,
    /// A site member (may see member-only pages).
    #[serde(default)]
    pub member: bool,
    /// Unix seconds after which the session is no longer valid.
    pub expires_at: i64,
}

impl SessionRecord {
    /// Whether the owner redirect applies: owners, admins and editors, never viewers.
    pub fn is_owner_or_editor(&self) -> bool {
        !self.roles.contains(&ContributorRole::Viewer)
            && (self.owner
                || self.roles.contains(&ContributorRole::Admin)
                || self.roles.contains(&ContributorRole::Editor))
    }

    /// Whether member-only pages open: members, owners and any contributor.
    pub fn may_see_member_pages(&self) -> bool {
        self.member || self.owner || !self.roles.is_empty()
    }

    /// Whether visitor analytics may be recorded for this account (spec 000 §6):
    /// only when its only website role is viewer.
    pub fn analytics_allowed(&self) -> bool {
        !self.owner && !self.member && self.roles == [ContributorRole::Viewer]
    }

    /// The page context's `accessPermissions` (spec 000 §3 permission ids: authenticated with
    /// no site permissions 0, config 1, admin 2): owners and admins hold config and admin,
    /// other contributors but viewers hold config (the configuration area), and members and
    /// viewers hold only authenticated. The spec does not show the sub-permissions' ids, so
    /// none is given.
    pub fn access_permissions(&self) -> Vec<u16> {
        let config = Permission::Config.id();
        let admin = Permission::Admin.id();
        if self.owner || self.roles.contains(&ContributorRole::Admin) {
            vec![config, admin]
        } else if self.roles.iter().any(|r| *r != ContributorRole::Viewer) {
            vec![config]
        } else {
            vec![Permission::AuthenticatedNoSitePermissions.id()]
        }
    }

    /// Whether this session is still valid at `now` (unix seconds).
    pub fn is_valid_at(&self, now: i64) -> bool {
        now < self.expires_at
    }
}

/// A session id: 256 random bits, as 64 lowercase hex digits (the cookie's value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionId(String);

impl SessionId {
    /// A fresh random id from the operating system's generator.
    pub fn generate() -> SessionId {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        SessionId(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The id as text (the cookie value and the store key).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Starts a session for `account` at `now` (unix seconds): stores a fresh record under a
/// fresh id and resolves once it is on disk. `remember` picks the longer lifetime.
pub async fn start_session(
    store: &dyn Store,
    account: &Account,
    remember: bool,
    now: i64,
) -> Result<(SessionId, SessionRecord), StoreError> {
    let lifetime = if remember { REMEMBERED_SESSION_SECS } else { BROWSER_SESSION_SECS };
    let record = SessionRecord {
        account_id: account.id.as_str().to_string(),
        owner: account.owner,
        roles: account.roles.clone(),
        member: account.member,
        expires_at: now.saturating_add(lifetime),
    };
    let id = SessionId::generate();
    let bytes = serde_json::to_vec(&record).map_err(|e| StoreError::Backend(e.to_string()))?;
    store.put(Tree::Sessions, id.as_str().as_bytes(), &bytes).await?;
    Ok((id, record))
}

/// Ends the session stored under `id` (a cookie value; unknown ids are fine) and
/// resolves once the removal is on disk.
pub async fn end_session(store: &dyn Store, id: &str) -> Result<(), StoreError> {
    if id.is_empty() || id.len() > 128 {
        return Ok(());
    }
    store.delete(Tree::Sessions, id.as_bytes()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_long_random_and_distinct() {
        let a = SessionId::generate();
        let b = SessionId::generate();
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
