//! The analytics identifiers of spec 000 §3 and 001 §4, §9: `SS_SESSION_ID` (a session
//! cookie, one per browser session) and `SS_ANALYTICS_ID` (390 days). A page view keeps the
//! ids the browser brings when they are word/dash ids, and makes new ones otherwise; the
//! caller sets and stores them only where analytics identifiers are allowed (never under a
//! restrictive cookie policy without consent); [`strip_identifiers`] takes them out of
//! call data stored without consent.

use crate::telemetry::cookie::VisitorId;

/// The session id cookie; it has no expiry, so it ends with the browser session.
pub const SESSION_ID_COOKIE: &str = "SS_SESSION_ID";
/// The analytics id cookie.
pub const ANALYTICS_ID_COOKIE: &str = "SS_ANALYTICS_ID";
/// Lifetime of `SS_ANALYTICS_ID`: 390 days.
pub const ANALYTICS_ID_MAX_AGE_SECS: i64 = 390 * 24 * 60 * 60;

/// One identifier and whether the response must set its cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptId {
    /// The id.
    pub id: VisitorId,
    /// The browser did not bring a valid one: the cookie is (re)set.
    pub created: bool,
}

impl KeptId {
    /// Keeps `brought` when it is a valid id, else makes one with `new_id`.
    pub fn keep_or_create(brought: Option<&str>, new_id: impl FnOnce() -> VisitorId) -> KeptId {
        match brought.map(VisitorId::parse) {
            Some(Ok(id)) => KeptId { id, created: false },
            _ => KeptId { id: new_id(), created: true },
        }
    }
}

/// The session and analytics ids of one page view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyticsIds {
    /// `SS_SESSION_ID`.
    pub session: KeptId,
    /// `SS_ANALYTICS_ID`.
    pub analytics: KeptId,
}

impl AnalyticsIds {
    /// The ids for a page view that brought the cookie values `session` and `analytics`.
    pub fn resolve(session: Option<&str>, analytics: Option<&str>, new_id: impl Fn() -> VisitorId) -> AnalyticsIds {
        AnalyticsIds {
            session: KeptId::keep_or_create(session, &new_id),
            analytics: KeptId::keep_or_create(analytics, &new_id),
        }
    }

    /// Only the valid ids a request brought (for calls that never set cookies).
    pub fn brought(session: Option<&str>, analytics: Option<&str>) -> (Option<VisitorId>, Option<VisitorId>) {
        (session.and_then(|s| VisitorId::parse(s).ok()), analytics.and_then(|a| VisitorId::parse(a).ok()))
    }
}

/// Field names that carry an analytics identifier, compared without case, `_` or `-`:
/// the ids the loader sends (`analyticsId`, `sessionId`, a visitor id or cookie) and the
/// analytics cookies of spec 000 §3 and §9.
const IDENTIFIER_FIELDS: [&str; 15] = [
    "analyticsid",
    "sessionid",
    "visitorid",
    "visitorcookie",
    "ssanalyticsid",
    "sssessionid",
    "ssmid",
    "ssmattr",
    "sslastvisit",
    "usersegment",
    "sscid",
    "sscpvisit",
    "sscvisit",
    "sscvr",
    "sscvt",
];

/// Whether a data field named `name` carries an analytics identifier.
pub fn is_identifier_field(name: &str) -> bool {
    let folded: String = name.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect();
    IDENTIFIER_FIELDS.contains(&folded.as_str())
}

/// Removes every identifier field (see [`is_identifier_field`]) from `value`, at any depth:
/// what is stored of a call made without consent under a restrictive cookie policy.
pub fn strip_identifiers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|name, _| !is_identifier_field(name));
            map.values_mut().for_each(strip_identifiers);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_identifiers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_fields_are_stripped_at_any_depth_and_the_rest_kept() {
        let mut data = serde_json::json!({ "sessionId": "s-1", "pagePath": "/about", "SS_ANALYTICS_ID": "a",
            "isFirstSession": true, "nested": { "visitor_id": "v", "ss_cvr": "v|1|2|3|4", "k": 1 },
            "list": [{ "analyticsId": "a", "n": 2 }] });
        strip_identifiers(&mut data);
        assert_eq!(
            data,
            serde_json::json!({ "pagePath": "/about", "isFirstSession": true, "nested": { "k": 1 }, "list": [{ "n": 2 }] })
        );
    }

    fn fresh() -> VisitorId {
        VisitorId::parse("fresh").expect("a word/dash id")
    }

    #[test]
    fn valid_ids_are_kept_and_missing_or_invalid_ones_created() {
        let ids = AnalyticsIds::resolve(Some("s-1"), None, fresh);
        assert_eq!((ids.session.id.as_str(), ids.session.created), ("s-1", false));
        assert_eq!((ids.analytics.id.as_str(), ids.analytics.created), ("fresh", true));
        let ids = AnalyticsIds::resolve(Some("bad id"), Some(""), fresh);
        assert!(ids.session.created && ids.analytics.created);
        assert_eq!(ids.session.id.as_str(), "fresh");
    }

    #[test]
    fn brought_ids_are_only_the_valid_ones() {
        let (session, analytics) = AnalyticsIds::brought(Some("s"), Some("a|b"));
        assert_eq!(session.as_ref().map(VisitorId::as_str), Some("s"));
        assert_eq!(analytics, None);
    }

    #[test]
    fn the_analytics_id_lives_390_days() {
        assert_eq!(ANALYTICS_ID_MAX_AGE_SECS, 33_696_000);
    }
}
