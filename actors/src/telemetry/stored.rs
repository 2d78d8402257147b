//! The stored records other telemetry parts read back besides their owners: a visitor's
//! session ([`VisitState`], written by the visitor sessions) and an error group
//! ([`ErrorGroup`], written by the error queue). Retention reads both to sweep them, so
//! they live apart from the actors that write them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::telemetry::cookie::VisitorCookie;

/// What the server keeps of one visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VisitState {
    /// Visits so far.
    pub visits: u64,
    /// Start of the first visit (unix ms).
    pub first: u64,
    /// Start of the previous visit (unix ms).
    pub previous: u64,
    /// Start of the current visit (unix ms).
    pub current: u64,
    /// Hits in the current visit.
    pub pages_this_visit: u32,
    /// Time of the last hit (unix ms).
    pub last_seen: u64,
}

impl VisitState {
    /// Whether `cookie` names the visit this session holds. A cookie whose visit count or
    /// current-visit start is past the session's names a later visit: one the loader
    /// started itself (it rewrites an expired `ss_cvt` before sending the hit, so the
    /// server never sees the expired one). The count comes from the cookie either way,
    /// so a visit is counted once whichever side started it.
    pub fn holds_visit_of(&self, cookie: &VisitorCookie) -> bool {
        cookie.count <= self.visits && cookie.current <= self.current
    }
}

/// One group of errors sharing a fingerprint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ErrorGroup {
    /// The shared fingerprint.
    pub fingerprint: String,
    /// The message of the first error seen.
    pub message: String,
    /// The script file of the first error seen.
    pub file: String,
    /// Its line.
    pub line: Option<u32>,
    /// Its column.
    pub column: Option<u32>,
    /// The page of the latest error.
    pub last_url: String,
    /// When the first error arrived (unix ms).
    pub first_seen: u64,
    /// When the latest error arrived (unix ms).
    pub last_seen: u64,
    /// How many errors fell into the group.
    pub count: u64,
}
