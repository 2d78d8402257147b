//! The visit cookies `ss_cvr` and `ss_cvt` as a browser may send them.
//!
//! Input: `ss_cvr`, then optionally a newline and `ss_cvt`. Properties: parsing never
//! panics; an accepted cookie, written back, reparses equal; the
//! pair the server hands back after a hit always parses again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use veranda_actors::telemetry::cookie::{next_visit, VisitTimestamp, VisitorCookie, VisitorId};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (cvr, cvt) = match text.split_once('\n') {
        Some((cvr, cvt)) => (cvr, Some(cvt)),
        None => (text, None),
    };
    if let Ok(cookie) = VisitorCookie::parse(cvr) {
        let written = cookie.to_string();
        assert_eq!(VisitorCookie::parse(&written).as_ref(), Ok(&cookie), "{cvr:?} wrote {written:?}");
        assert!(cookie.first > 0 && cookie.previous > 0 && cookie.current > 0 && cookie.count > 0);
    }
    if let Some(cvt) = cvt {
        if let Ok(stamp) = VisitTimestamp::parse(cvt) {
            assert_eq!(VisitTimestamp::parse(&stamp.0.to_string()), Ok(stamp));
        }
    }
    let id = VisitorId::parse("fuzz-id").expect("a word/dash id");
    for now in [0, 1, 1_700_000_000_000, u64::MAX] {
        let outcome = next_visit(Some(cvr), cvt, now, || id.clone());
        let back = VisitorCookie::parse(&outcome.cookie.to_string());
        assert_eq!(back.as_ref(), Ok(&outcome.cookie), "the server's own ss_cvr reparses");
        assert_eq!(VisitTimestamp::parse(&outcome.timestamp.0.to_string()), Ok(outcome.timestamp));
        assert!(outcome.cookie.count >= 1);
    }
});
