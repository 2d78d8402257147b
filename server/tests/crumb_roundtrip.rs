//! Crumbs round trip: every crumb the server issues (and its cookie, written and read
//! back) verifies under its key and passes the request check; any changed character,
//! cut or addition, and any other key, is refused. Arbitrary text never verifies by
//! accident and never panics.

use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use proptest::prelude::*;
use veranda_server::security::crumb::{crumb_cookie, CrumbError, CrumbKey, CRUMB_HEADER};

/// The characters a crumb is made of.
const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

proptest! {
    #[test]
    fn issued_crumbs_verify_and_pass_the_check(key in any::<[u8; 32]>()) {
        let key = CrumbKey::from_bytes(key);
        let crumb = key.issue_for(None);
        prop_assert!(key.verifies_for(&crumb, None));
        let written = crumb_cookie(&crumb).to_string();
        let read = Cookie::parse(written.clone()).expect("the cookie parses back");
        prop_assert_eq!(read.value(), crumb.as_str(), "{}", written);
        let req = TestRequest::post()
            .cookie(read)
            .insert_header((CRUMB_HEADER, crumb.as_str()))
            .to_http_request();
        prop_assert_eq!(key.check(&req), Ok(()));
    }

    #[test]
    fn a_changed_character_is_refused(
        key in any::<[u8; 32]>(),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(ALPHABET.to_vec()),
    ) {
        let key = CrumbKey::from_bytes(key);
        let crumb = key.issue_for(None);
        let mut bytes = crumb.clone().into_bytes();
        let at = at.index(bytes.len());
        prop_assume!(bytes[at] != with);
        bytes[at] = with;
        let tampered = String::from_utf8(bytes).expect("ASCII");
        prop_assert!(!key.verifies_for(&tampered, None), "{} verified after changing {}", tampered, crumb);
        let req = TestRequest::post()
            .cookie(crumb_cookie(&tampered))
            .insert_header((CRUMB_HEADER, tampered.as_str()))
            .to_http_request();
        prop_assert_eq!(key.check(&req), Err(CrumbError::Tampered));
    }

    #[test]
    fn cut_or_extended_crumbs_and_other_keys_are_refused(
        key in any::<[u8; 32]>(),
        other in any::<[u8; 32]>(),
        cut in 1usize..10,
        extra in "[A-Za-z0-9_.-]{1,8}",
    ) {
        prop_assume!(key != other);
        let (key, other) = (CrumbKey::from_bytes(key), CrumbKey::from_bytes(other));
        let crumb = key.issue_for(None);
        prop_assert!(!key.verifies_for(&crumb[..crumb.len() - cut], None));
        let extended = format!("{crumb}{extra}");
        prop_assert!(!key.verifies_for(&extended, None));
        prop_assert!(!other.verifies_for(&crumb, None));
    }

    #[test]
    fn a_crumb_bound_to_a_session_verifies_for_that_session_only(
        key in any::<[u8; 32]>(),
        session in "[A-Za-z0-9_-]{1,64}",
        other in "[A-Za-z0-9_-]{1,64}",
    ) {
        prop_assume!(session != other);
        let key = CrumbKey::from_bytes(key);
        let crumb = key.issue_for(Some(&session));
        prop_assert!(key.verifies_for(&crumb, Some(&session)));
        prop_assert!(!key.verifies_for(&crumb, Some(&other)));
        prop_assert!(!key.verifies_for(&crumb, None), "a session's crumb is not an anonymous one");
        prop_assert!(!key.verifies_for(&key.issue_for(None), Some(&session)), "nor the other way round");
    }

    #[test]
    fn arbitrary_text_does_not_verify(
        key in any::<[u8; 32]>(),
        text in "\\PC{0,80}",
        echoed in "[!-~]{1,80}",
    ) {
        let key = CrumbKey::from_bytes(key);
        prop_assert!(!key.verifies_for(&text, None));
        let crumb = key.issue_for(None);
        prop_assume!(echoed != crumb);
        let req = TestRequest::post()
            .cookie(crumb_cookie(&crumb))
            .insert_header((CRUMB_HEADER, echoed.as_str()))
            .to_http_request();
        prop_assert_eq!(key.check(&req), Err(CrumbError::Mismatch));
    }
}
