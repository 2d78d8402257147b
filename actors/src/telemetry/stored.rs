//! The stored records other telemetry parts read back besides their owners: a visitor's
//! session ([`VisitState`], written by the visitor sessions) and an error group
//! ([`ErrorGroup`], written by the error queue). Retention reads both to sweep them, so
//! they live apart from the actors that write them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::telemetry::cookie::{VisitorCookie, VisitorId};

/// The key of a visitor's session in the visitor-sessions tree. For an id that tells the
/// millisecond it was made ([`VisitorId::made_at`]: the server's and the loader's ids), that
/// millisecond as 8 big-endian bytes, then the id; for any other id, the id alone.
///
/// So the sessions of such ids come first, in the order their visitors first came, and a
/// session is never last seen before its visitor first came: the size limit reads them from
/// the first key and stops once the time the keys start with passes the oldest it needs
/// (`capacity`). The first byte of such a key is 0 (the millisecond is under 2^48), which no
/// id holds, so the two kinds of key never meet. Servers before keyed every session by its
/// id alone: [`session_key_before`] finds those.
pub fn session_key(id: &VisitorId) -> Vec<u8> {
    match id.made_at() {
        Some(made) => [&made.to_be_bytes()[..], id.as_str().as_bytes()].concat(),
        None => id.as_str().as_bytes().to_vec(),
    }
}

/// Where servers before kept the session of `id`: under the id alone. The same key as
/// [`session_key`] for an id that tells no time; `None` for the others.
pub fn session_key_before(id: &VisitorId) -> Option<&[u8]> {
    id.made_at().map(|_| id.as_str().as_bytes())
}

/// The id whose session `key` is (the inverse of [`session_key`], and of the keys servers
/// before wrote).
pub fn session_id(key: &[u8]) -> &[u8] {
    match session_made_at(key) {
        Some(_) => &key[8..],
        None => key,
    }
}

/// The millisecond a session key starts with: when the visitor first came, as its id tells
/// it; `None` for the key of an id that tells no time.
pub fn session_made_at(key: &[u8]) -> Option<u64> {
    match key.split_first_chunk::<8>() {
        Some((made, id)) if made[0] == 0 && !id.is_empty() => Some(u64::from_be_bytes(*made)),
        _ => None,
    }
}

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

/// The first byte of a session stored as [`VisitState::to_bytes`] writes it (JSON, which
/// servers before wrote, starts with `{`).
const COMPACT_SESSION: u8 = 1;

/// A session as stored: each time but the first as its distance from the one before it,
/// so that postcard's varints (zig-zag for the signed ones) take a few bytes for each. The
/// distances wrap, so every `u64` comes back as it was, whatever the cookie said.
#[derive(Serialize, Deserialize)]
struct CompactSession {
    visits: u64,
    first: u64,
    previous: i64,
    current: i64,
    pages_this_visit: u32,
    last_seen: i64,
}

/// `to - from`, wrapping, as a signed distance.
fn distance(from: u64, to: u64) -> i64 {
    to.wrapping_sub(from) as i64
}

/// The time `distance` after `from` (the inverse of [`distance`]).
fn after(from: u64, distance: i64) -> u64 {
    from.wrapping_add(distance as u64)
}

impl VisitState {
    /// The session as the visitor-sessions tree keeps it: a version byte, then the fields
    /// as varints (see [`CompactSession`]): 12 bytes for a first visit, 22 for a visitor back
    /// a month after the first (visits years apart take a byte or two more), where JSON took
    /// about 110. sled keeps a value of up to 22 bytes inline in its leaf instead of as a
    /// separate, reference-counted allocation that every insert into the leaf copies a handle of.
    pub fn to_bytes(&self) -> Vec<u8> {
        let compact = CompactSession {
            visits: self.visits,
            first: self.first,
            previous: distance(self.first, self.previous),
            current: distance(self.previous, self.current),
            pages_this_visit: self.pages_this_visit,
            last_seen: distance(self.current, self.last_seen),
        };
        // Integers only: writing to a vector cannot fail.
        postcard::to_extend(&compact, vec![COMPACT_SESSION]).unwrap_or_default()
    }

    /// A stored session, as [`to_bytes`](VisitState::to_bytes) writes it or as JSON (how
    /// servers before wrote it); `None` for anything else.
    pub fn from_bytes(bytes: &[u8]) -> Option<VisitState> {
        match bytes.split_first() {
            Some((&COMPACT_SESSION, rest)) => {
                let (c, unread): (CompactSession, _) = postcard::take_from_bytes(rest).ok()?;
                let previous = after(c.first, c.previous);
                let current = after(previous, c.current);
                unread.is_empty().then_some(VisitState {
                    visits: c.visits,
                    first: c.first,
                    previous,
                    current,
                    pages_this_visit: c.pages_this_visit,
                    last_seen: after(current, c.last_seen),
                })
            }
            _ => serde_json::from_slice(bytes).ok(),
        }
    }

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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A visitor on their twelfth visit: first seen 30 days before, the previous visit 2
    /// days before this one, which began 10 minutes ago, four pages in.
    fn returning() -> VisitState {
        let current = 1_764_000_000_000;
        VisitState {
            visits: 12,
            first: current - 30 * 86_400_000,
            previous: current - 2 * 86_400_000,
            current,
            pages_this_visit: 4,
            last_seen: current + 600_000,
        }
    }

    #[test]
    fn a_session_is_stored_in_the_bytes_pinned_here() {
        // The layout stays readable by every server after this one: changing it breaks
        // this test, and needs a new version byte with the old one still read.
        let bytes = returning().to_bytes();
        assert_eq!(
            bytes,
            // version 1; 12 visits; the first visit's ms as a varint; then zig-zag varints:
            // 28 days (4,838,400,000), 2 days (345,600,000); 4 pages; 10 minutes (1,200,000).
            [1, 12, 128, 192, 228, 224, 161, 51, 128, 192, 144, 131, 18, 128, 224, 229, 164, 1, 4, 128, 159, 73],
        );
        assert_eq!(VisitState::from_bytes(&bytes), Some(returning()));
    }

    #[test]
    fn a_returning_visitors_session_fits_inline_in_a_sled_leaf() {
        // sled keeps values of up to 22 bytes inside its leaves (IVec's inline form).
        assert!(returning().to_bytes().len() <= 22, "{} bytes", returning().to_bytes().len());
        let first_visit = VisitState {
            visits: 1,
            first: 1_764_000_000_000,
            previous: 1_764_000_000_000,
            current: 1_764_000_000_000,
            pages_this_visit: 1,
            last_seen: 1_764_000_000_000,
        };
        assert_eq!(first_visit.to_bytes().len(), 12);
    }

    #[test]
    fn sessions_written_as_json_are_still_read() {
        let json = br#"{"visits":3,"first":1700000000000,"previous":1700000000000,"current":1764000000000,"pagesThisVisit":2,"lastSeen":1764000060000}"#;
        let state = VisitState::from_bytes(json).expect("read");
        assert_eq!(
            state,
            VisitState {
                visits: 3,
                first: 1_700_000_000_000,
                previous: 1_700_000_000_000,
                current: 1_764_000_000_000,
                pages_this_visit: 2,
                last_seen: 1_764_000_060_000,
            }
        );
    }

    #[test]
    fn anything_else_is_no_session() {
        let mut trailing = returning().to_bytes();
        trailing.push(0);
        let cut = &returning().to_bytes()[..10];
        for bytes in [&b""[..], b"{}", b"[1,2]", &[1], &[2, 12, 0, 0, 0, 0, 0], cut, &trailing] {
            assert_eq!(VisitState::from_bytes(bytes), None, "{bytes:?}");
        }
    }

    proptest! {
        #[test]
        fn every_session_comes_back_as_it_was(
            visits: u64, first: u64, previous: u64, current: u64, pages_this_visit: u32, last_seen: u64,
        ) {
            let state = VisitState { visits, first, previous, current, pages_this_visit, last_seen };
            prop_assert_eq!(VisitState::from_bytes(&state.to_bytes()), Some(state));
        }
    }

    #[test]
    fn a_session_key_starts_with_the_millisecond_its_id_tells() {
        let server = VisitorId::time_ordered(1_700_000_000_000);
        let key = session_key(&server);
        assert_eq!(&key[..8], &[0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00]);
        assert_eq!(&key[8..], server.as_str().as_bytes());
        assert_eq!(session_made_at(&key), Some(1_700_000_000_000));
        assert_eq!(session_id(&key), server.as_str().as_bytes());
        assert_eq!(session_key_before(&server), Some(server.as_str().as_bytes()));

        let loader = VisitorId::parse("118bcfe568010123456789abcdef0123").expect("an id");
        assert_eq!(session_made_at(&session_key(&loader)), Some(1_700_000_000_001));
        assert!(session_key(&server) < session_key(&loader), "first came first");

        let other = VisitorId::parse("visitor-7").expect("an id");
        assert_eq!(session_key(&other), b"visitor-7");
        assert_eq!(session_made_at(b"visitor-7"), None);
        assert_eq!(session_id(b"visitor-7"), b"visitor-7");
        assert_eq!(session_key_before(&other), None);
        // A key written before under the id alone tells no time either.
        assert_eq!(session_made_at(server.as_str().as_bytes()), None);
        assert!(session_key(&loader) < session_key(&other), "every timed key before every other");
    }
}
