//! Accounts and signed-in sessions: who is signed in, and with which roles.

use serde::{Deserialize, Serialize};

use crate::domain::enums::ContributorRole;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "veranda_session";

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

    /// Whether this session is still valid at `now` (unix seconds).
    pub fn is_valid_at(&self, now: i64) -> bool {
        now < self.expires_at
    }
}
