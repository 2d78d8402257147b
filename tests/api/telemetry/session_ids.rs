//! `SS_SESSION_ID` and `SS_ANALYTICS_ID` on page views: made when absent, kept when
//! valid, stored with the hit, never set or stored without consent under a restrictive
//! cookie policy.

use veranda_actors::store::Tree;

use super::{demo, App};
use veranda_tests::{cookie_value, set_cookie};

const CONSENT: &str = "ss_cookieAllowed=true";

async fn page_view(app: &App, cookies: &str) -> reqwest::Response {
    let data = serde_json::json!({ "url": "/about", "title": "About" }).to_string();
    let headers: Vec<(&str, &str)> = if cookies.is_empty() { vec![] } else { vec![("cookie", cookies)] };
    app.post_form("/api/census/RecordHit", &[("event", "pageView"), ("data", &data)], &headers).await
}

#[actix_rt::test]
async fn a_first_page_view_sets_a_session_cookie_and_a_390_day_analytics_id_and_stores_both() {
    let app = demo().await;
    let res = page_view(&app, CONSENT).await;
    assert_eq!(res.status(), 204);
    let session = cookie_value(&res, "SS_SESSION_ID").expect("SS_SESSION_ID is set");
    let analytics = cookie_value(&res, "SS_ANALYTICS_ID").expect("SS_ANALYTICS_ID is set");
    assert_ne!(session, analytics);
    let session_header = set_cookie(&res, "SS_SESSION_ID").expect("header");
    assert!(!session_header.contains("Max-Age") && !session_header.contains("Expires"), "{session_header}");
    assert!(session_header.contains("Path=/"), "{session_header}");
    let analytics_header = set_cookie(&res, "SS_ANALYTICS_ID").expect("header");
    assert!(analytics_header.contains("Max-Age=33696000"), "{analytics_header}");
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records[0]["sessionId"], session.as_str());
    assert_eq!(records[0]["analyticsId"], analytics.as_str());
}

#[actix_rt::test]
async fn valid_ids_the_browser_brings_are_kept_and_not_set_again() {
    let app = demo().await;
    let res = page_view(&app, &format!("{CONSENT}; SS_SESSION_ID=s-1; SS_ANALYTICS_ID=a_2")).await;
    assert_eq!(res.status(), 204);
    assert_eq!(cookie_value(&res, "SS_SESSION_ID"), None);
    assert_eq!(cookie_value(&res, "SS_ANALYTICS_ID"), None);
    let records = app.records(Tree::Census, 1).await;
    assert_eq!((&records[0]["sessionId"], &records[0]["analyticsId"]), (&"s-1".into(), &"a_2".into()));
}

#[actix_rt::test]
async fn malformed_ids_are_replaced() {
    let app = demo().await;
    let res = page_view(&app, &format!("{CONSENT}; SS_SESSION_ID=\"a b\"; SS_ANALYTICS_ID=x|y")).await;
    let session = cookie_value(&res, "SS_SESSION_ID").expect("replaced");
    let analytics = cookie_value(&res, "SS_ANALYTICS_ID").expect("replaced");
    assert!(!session.contains(' ') && !analytics.contains('|'));
}

#[actix_rt::test]
async fn without_consent_under_a_restrictive_policy_no_id_is_set_or_stored() {
    let app = demo().await;
    for cookies in ["", "ss_cookieAllowed=false; SS_SESSION_ID=s-1; SS_ANALYTICS_ID=a-1"] {
        let res = page_view(&app, cookies).await;
        assert_eq!(res.status(), 204);
        assert_eq!(cookie_value(&res, "SS_SESSION_ID"), None, "{cookies}");
        assert_eq!(cookie_value(&res, "SS_ANALYTICS_ID"), None, "{cookies}");
    }
    let records = app.records(Tree::Census, 2).await;
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record["sessionId"], serde_json::Value::Null);
        assert_eq!(record["analyticsId"], serde_json::Value::Null);
    }
}

#[actix_rt::test]
async fn other_census_calls_record_the_ids_brought_but_set_none() {
    let app = demo().await;
    let cookies = format!("{CONSENT}; SS_SESSION_ID=s-9; SS_ANALYTICS_ID=a-9");
    let res =
        app.post_form("/api/census/button-click", &[("id", "b1"), ("url", "/about")], &[("cookie", &cookies)]).await;
    assert_eq!(res.status(), 204);
    assert_eq!(cookie_value(&res, "SS_SESSION_ID"), None);
    let denied = "SS_SESSION_ID=s-8; SS_ANALYTICS_ID=a-8";
    let res =
        app.post_form("/api/census/form-render", &[("formId", "f1"), ("url", "/about")], &[("cookie", denied)]).await;
    assert_eq!(res.status(), 204);
    let records = app.records(Tree::Census, 2).await;
    let click = records.iter().find(|r| r["kind"] == "buttonClick").expect("the click");
    assert_eq!((&click["sessionId"], &click["analyticsId"]), (&"s-9".into(), &"a-9".into()));
    let render = records.iter().find(|r| r["kind"] == "formRender").expect("the render");
    assert_eq!(render["analyticsId"], serde_json::Value::Null, "no consent: not stored");
}
