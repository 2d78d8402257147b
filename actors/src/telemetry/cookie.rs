//! Visit cookies (spec 000 §3, §4, §5, §9): `ss_cvr` holds
//! `id|first|previous|current|count` (a word/dash id, then four positive integers) and
//! `ss_cvt` the time of the last hit. Both are parsed into types here, and
//! [`next_visit`] turns the pair a visitor brings into the pair they leave with.
//! Timestamps are unix milliseconds.

use std::fmt;

/// The visitor id cookie.
pub const VISITOR_COOKIE: &str = "ss_cvr";
/// The visit timestamp cookie.
pub const VISIT_TIMESTAMP_COOKIE: &str = "ss_cvt";
/// The consent cookie; `true` means analytics cookies are allowed.
pub const CONSENT_COOKIE: &str = "ss_cookieAllowed";
/// A visit ends after 30 minutes without a hit.
pub const VISIT_LENGTH_MS: u64 = 30 * 60 * 1000;
/// Lifetime of `ss_cvr`: two years.
pub const VISITOR_COOKIE_MAX_AGE_SECS: i64 = 2 * 365 * 24 * 60 * 60;
/// Lifetime of `ss_cvt`: 30 minutes.
pub const VISIT_TIMESTAMP_MAX_AGE_SECS: i64 = 30 * 60;
/// Longest visitor id accepted.
pub const MAX_VISITOR_ID_LEN: usize = 64;

/// A visitor id: 1 to 64 letters, digits, underscores or dashes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VisitorId(String);

/// Why a visit cookie was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CookieError {
    /// `ss_cvr` is not five fields separated by bars.
    #[error("expected 5 bar-separated fields, found {0}")]
    FieldCount(usize),
    /// The id is empty, too long or holds characters other than word characters and dashes.
    #[error("the visitor id is not a word/dash id")]
    BadId,
    /// A number field is not a positive integer.
    #[error("{0} is not a positive integer")]
    NotPositive(&'static str),
}

impl VisitorId {
    /// Parses a visitor id.
    pub fn parse(text: &str) -> Result<VisitorId, CookieError> {
        let ok = !text.is_empty()
            && text.len() <= MAX_VISITOR_ID_LEN
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if ok {
            Ok(VisitorId(text.to_string()))
        } else {
            Err(CookieError::BadId)
        }
    }

    /// A new visitor's id: a UUID of version 7 (RFC 9562), `now` (Unix milliseconds) in
    /// its first 48 bits and 74 random bits after them, as lower-case hex in dashed groups.
    /// Ids made later sort after ids made earlier, so a new visitor's session is stored at
    /// the end of the sessions tree, on pages the store holds in its cache, not on any page
    /// of the tree. The time it tells is the first visit's, which `ss_cvr` carries anyway.
    pub fn time_ordered(now: u64) -> VisitorId {
        let random: [u8; 10] = rand::random();
        let uuid = uuid::Builder::from_unix_timestamp_millis(now, &random).into_uuid();
        VisitorId(uuid.hyphenated().encode_lower(&mut uuid::Uuid::encode_buffer()).to_string())
    }

    /// A new random id (32 hex digits in dashed groups), for ids that are never a store
    /// key (the analytics and session ids).
    pub fn random() -> VisitorId {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes: [u8; 16] = rand::random();
        let mut id = String::with_capacity(36);
        for (i, byte) in bytes.iter().enumerate() {
            // Groups of 4, 2, 2, 2 and 6 bytes.
            if matches!(i, 4 | 6 | 8 | 10) {
                id.push('-');
            }
            id.push(char::from(HEX[usize::from(byte >> 4)]));
            id.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        VisitorId(id)
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The Unix millisecond the id says it was made at, for the two kinds of id that begin
    /// with it: the server's ([`time_ordered`](VisitorId::time_ordered): a UUID of version 7,
    /// lower-case and dashed) and the loader's (`newVisitorId` in
    /// `client/src/loader/telemetry/transport.ts`: 32 lower-case hex digits, the first 12 the
    /// millisecond plus 2^44). `None` for any other id. A client can send any id, so the
    /// time is only what the id claims.
    pub fn made_at(&self) -> Option<u64> {
        let id = self.0.as_bytes();
        let hex = |digits: &[u8]| -> Option<u64> {
            digits.iter().try_fold(0u64, |n, &d| {
                let digit = match d {
                    b'0'..=b'9' => d - b'0',
                    b'a'..=b'f' => d - b'a' + 10,
                    _ => return None,
                };
                Some(n << 4 | u64::from(digit))
            })
        };
        match id.len() {
            36 if [8, 13, 18, 23].iter().all(|&i| id[i] == b'-') && id[14] == b'7' => {
                let rest = [&id[14..18], &id[19..23], &id[24..]].concat();
                hex(&rest)?;
                Some(hex(&id[..8])? << 16 | hex(&id[9..13])?)
            }
            32 => {
                hex(&id[12..])?;
                hex(&id[..12])?.checked_sub(LOADER_ID_EPOCH).filter(|&ms| ms < LOADER_ID_EPOCH)
            }
            _ => None,
        }
    }
}

/// What the loader adds to the millisecond at the start of its ids, so that they always
/// take 12 hex digits: 2^44.
const LOADER_ID_EPOCH: u64 = 1 << 44;

/// A parsed `ss_cvr`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitorCookie {
    /// Who the visitor is.
    pub id: VisitorId,
    /// When their first visit started.
    pub first: u64,
    /// When their previous visit started.
    pub previous: u64,
    /// When their current visit started.
    pub current: u64,
    /// How many visits they made.
    pub count: u64,
}

fn positive(text: &str, field: &'static str) -> Result<u64, CookieError> {
    if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CookieError::NotPositive(field));
    }
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(CookieError::NotPositive(field)),
    }
}

impl VisitorCookie {
    /// Parses `id|first|previous|current|count`.
    pub fn parse(text: &str) -> Result<VisitorCookie, CookieError> {
        let fields: Vec<&str> = text.splitn(6, '|').collect();
        let [id, first, previous, current, count] = fields.as_slice() else {
            return Err(CookieError::FieldCount(fields.len()));
        };
        Ok(VisitorCookie {
            id: VisitorId::parse(id)?,
            first: positive(first, "first")?,
            previous: positive(previous, "previous")?,
            current: positive(current, "current")?,
            count: positive(count, "count")?,
        })
    }

    /// A first visit starting at `now`.
    pub fn new_visitor(id: VisitorId, now: u64) -> VisitorCookie {
        let now = now.max(1);
        VisitorCookie { id, first: now, previous: now, current: now, count: 1 }
    }

    /// `id|first|previous|current|count`, the cookie's value (as [`Display`](fmt::Display)
    /// writes it): one allocation, the numbers written by `itoa`, since every page view
    /// sets the cookie.
    pub fn text(&self) -> String {
        let mut text = String::with_capacity(self.id.0.len() + 4 * 14);
        text.push_str(&self.id.0);
        let mut digits = itoa::Buffer::new();
        for n in [self.first, self.previous, self.current, self.count] {
            text.push('|');
            text.push_str(digits.format(n));
        }
        text
    }
}

impl fmt::Display for VisitorCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// A parsed `ss_cvt`: the time of the visitor's last hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisitTimestamp(pub u64);

impl VisitTimestamp {
    /// Parses a positive integer.
    pub fn parse(text: &str) -> Result<VisitTimestamp, CookieError> {
        positive(text, "timestamp").map(VisitTimestamp)
    }
}

/// What a hit does to the visitor's cookies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitOutcome {
    /// The `ss_cvr` to set.
    pub cookie: VisitorCookie,
    /// The `ss_cvt` to set (the hit's time).
    pub timestamp: VisitTimestamp,
    /// This hit starts a visit.
    pub new_visit: bool,
    /// The pair was missing or invalid and was recreated.
    pub recreated: bool,
}

/// The visit rule: a valid pair within 30 minutes continues the visit; a valid id with
/// an expired (or missing) timestamp starts the next visit; anything invalid recreates
/// both cookies as a first visit.
pub fn next_visit(cvr: Option<&str>, cvt: Option<&str>, now: u64, new_id: impl FnOnce() -> VisitorId) -> VisitOutcome {
    let now = now.max(1);
    let parsed_cvr = cvr.map(VisitorCookie::parse);
    let parsed_cvt = cvt.map(VisitTimestamp::parse);
    let fresh = |new_id: VisitorId| VisitOutcome {
        cookie: VisitorCookie::new_visitor(new_id, now),
        timestamp: VisitTimestamp(now),
        new_visit: true,
        recreated: true,
    };
    match (parsed_cvr, parsed_cvt) {
        (Some(Ok(cookie)), None) => next_visit_of(cookie, now),
        (Some(Ok(cookie)), Some(Ok(last))) if now.saturating_sub(last.0) >= VISIT_LENGTH_MS => {
            next_visit_of(cookie, now)
        }
        (Some(Ok(cookie)), Some(Ok(_))) => {
            VisitOutcome { cookie, timestamp: VisitTimestamp(now), new_visit: false, recreated: false }
        }
        _ => fresh(new_id()),
    }
}

fn next_visit_of(cookie: VisitorCookie, now: u64) -> VisitOutcome {
    let cookie =
        VisitorCookie { previous: cookie.current, current: now, count: cookie.count.saturating_add(1), ..cookie };
    VisitOutcome { cookie, timestamp: VisitTimestamp(now), new_visit: true, recreated: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_text_is_five_fields_joined_by_bars_and_reads_back() {
        let cookie = VisitorCookie {
            id: VisitorId::parse("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b").expect("an id"),
            first: 1,
            previous: 1_700_000_000_000,
            current: u64::MAX,
            count: 10,
        };
        let text = cookie.text();
        assert_eq!(text, "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b|1|1700000000000|18446744073709551615|10");
        assert_eq!(cookie.to_string(), text);
        assert_eq!(VisitorCookie::parse(&text), Ok(cookie));
    }

    const NOW: u64 = 1_700_000_000_000;

    fn id() -> VisitorId {
        VisitorId::parse("fresh-id").expect("a word/dash id")
    }

    #[test]
    fn a_valid_cookie_round_trips() {
        let text = "ab_c-1|1|2|3|4";
        let cookie = VisitorCookie::parse(text).expect("valid");
        assert_eq!(cookie.count, 4);
        assert_eq!(cookie.to_string(), text);
    }

    #[test]
    fn malformed_cookies_are_refused_with_their_reason() {
        assert_eq!(VisitorCookie::parse("a|1|2|3"), Err(CookieError::FieldCount(4)));
        assert_eq!(VisitorCookie::parse("a|1|2|3|4|5"), Err(CookieError::FieldCount(6)));
        assert_eq!(VisitorCookie::parse("a b|1|2|3|4"), Err(CookieError::BadId));
        assert_eq!(VisitorCookie::parse("|1|2|3|4"), Err(CookieError::BadId));
        assert_eq!(VisitorCookie::parse("a|0|2|3|4"), Err(CookieError::NotPositive("first")));
        assert_eq!(VisitorCookie::parse("a|1|-2|3|4"), Err(CookieError::NotPositive("previous")));
        assert_eq!(VisitorCookie::parse("a|1|2|3|x"), Err(CookieError::NotPositive("count")));
        assert_eq!(VisitorCookie::parse("a|1|2|99999999999999999999999|4"), Err(CookieError::NotPositive("current")));
        assert_eq!(VisitTimestamp::parse("0"), Err(CookieError::NotPositive("timestamp")));
        assert_eq!(VisitTimestamp::parse("12"), Ok(VisitTimestamp(12)));
    }

    #[test]
    fn a_hit_within_thirty_minutes_continues_the_visit() {
        let last = (NOW - VISIT_LENGTH_MS + 1).to_string();
        let out = next_visit(Some("v|1|2|3|4"), Some(&last), NOW, id);
        assert!(!out.new_visit);
        assert_eq!(out.cookie.to_string(), "v|1|2|3|4");
        assert_eq!(out.timestamp, VisitTimestamp(NOW));
    }

    #[test]
    fn an_expired_or_missing_timestamp_starts_the_next_visit() {
        let last = (NOW - VISIT_LENGTH_MS).to_string();
        for cvt in [Some(last.as_str()), None] {
            let out = next_visit(Some("v|1|2|3|4"), cvt, NOW, id);
            assert!(out.new_visit && !out.recreated);
            assert_eq!(out.cookie.to_string(), format!("v|1|3|{NOW}|5"));
        }
    }

    #[test]
    fn an_invalid_pair_is_recreated() {
        for (cvr, cvt) in [(Some("v|1|2|3"), None), (Some("v|1|2|3|4"), Some("soon")), (None, Some("5"))] {
            let out = next_visit(cvr, cvt, NOW, id);
            assert!(out.recreated, "{cvr:?} {cvt:?}");
            assert_eq!(out.cookie.to_string(), format!("fresh-id|{NOW}|{NOW}|{NOW}|1"));
        }
    }

    #[test]
    fn random_ids_are_valid_ids() {
        let id = VisitorId::random();
        assert_eq!(VisitorId::parse(id.as_str()), Ok(id.clone()));
        let groups: Vec<usize> = id.as_str().split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{}", id.as_str());
        assert!(id.as_str().bytes().all(|b| b == b'-' || b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        assert_ne!(VisitorId::random(), id, "random");
    }

    #[test]
    fn new_visitor_ids_are_uuids_of_version_7_holding_the_millisecond() {
        let id = VisitorId::time_ordered(NOW);
        assert_eq!(VisitorId::parse(id.as_str()), Ok(id.clone()));
        let groups: Vec<usize> = id.as_str().split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{}", id.as_str());
        let hex: String = id.as_str().replace('-', "");
        assert!(hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{hex}");
        // 1_700_000_000_000 is 0x018bcfe56800: the first 48 bits.
        assert_eq!(&hex[..12], "018bcfe56800");
        assert_eq!(&hex[12..13], "7", "version");
        assert!(matches!(&hex[16..17], "8" | "9" | "a" | "b"), "variant of {hex}");
        assert_ne!(VisitorId::time_ordered(NOW), id, "74 random bits");
    }

    #[test]
    fn the_server_and_the_loader_ids_tell_the_millisecond_they_were_made_at() {
        assert_eq!(VisitorId::time_ordered(NOW).made_at(), Some(NOW));
        assert_eq!(VisitorId::time_ordered(0xffff_ffff_ffff).made_at(), Some(0xffff_ffff_ffff));
        // The loader's: (1_700_000_000_000 + 2^44).toString(16) is "118bcfe56800".
        let loader = VisitorId::parse("118bcfe568000123456789abcdef0123").expect("an id");
        assert_eq!(loader.made_at(), Some(1_700_000_000_000));
        assert_eq!(VisitorId::parse("100000000000ffffffffffffffffffff").expect("an id").made_at(), Some(0));
        for other in [
            "visitor-1",
            "fresh-id",
            // Not hex, upper case, a version other than 7, dashes elsewhere, too short.
            "018bcfe5-6800-7abc-8def-0123456789az",
            "018BCFE5-6800-7ABC-8DEF-0123456789AB",
            "018bcfe5-6800-4abc-8def-0123456789ab",
            "018bcfe56-800-7abc-8def-0123456789ab",
            "018bcfe5-6800-7abc-8def-0123456789a",
            // Under 2^44 or past 2^45 at the start: not what the loader makes.
            "018bcfe568000123456789abcdef0123",
            "218bcfe568000123456789abcdef0123",
            "118bcfe568000123456789abcdef012g",
        ] {
            assert_eq!(VisitorId::parse(other).expect("an id").made_at(), None, "{other}");
        }
    }

    #[test]
    fn new_visitor_ids_sort_by_the_millisecond_they_were_made() {
        let ids: Vec<VisitorId> = (0..200).map(|i| VisitorId::time_ordered(NOW + i)).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
        // Across a change in the first hex digit of the time, too.
        assert!(VisitorId::time_ordered(0x0fff_ffff_ffff) < VisitorId::time_ordered(0x1000_0000_0000));
    }
}
