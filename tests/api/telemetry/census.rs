//! `RecordHit` and the other census calls: visitor cookies, consent and recording rules.

use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::store::Tree;
use veranda_actors::telemetry::cookie::VisitorId;
use veranda_actors::telemetry::stored::{session_key, VisitState};
use veranda_actors::telemetry::TelemetryLimits;
use veranda_server::routes::auth::UNLOCK_COOKIE_PREFIX;
use veranda_tests::spec;
use veranda_tests::{demo_site_copy, page_context};

use super::{demo, spawn, App};
use veranda_tests::{cookie_value, eventually, set_cookie};

const CONSENT: &str = "ss_cookieAllowed=true";

fn data(url: &str) -> String {
    serde_json::json!({ "url": url, "title": "t", "userAgent": "test", "websiteId": "w" }).to_string()
}

async fn hit(app: &App, url: &str, cookies: &str) -> reqwest::Response {
    let data = data(url);
    let headers: Vec<(&str, &str)> = if cookies.is_empty() { vec![] } else { vec![("cookie", cookies)] };
    app.post_form("/api/census/RecordHit", &[("event", "pageView"), ("data", &data)], &headers).await
}

fn count_of(cvr: &str) -> u64 {
    cvr.rsplit('|').next().and_then(|c| c.parse().ok()).expect("a count")
}

#[actix_rt::test]
async fn a_first_page_view_sets_both_visit_cookies_and_is_recorded() {
    let app = demo().await;
    let res = hit(&app, "https://example.com/about?x=1", CONSENT).await;
    assert_eq!(res.status(), 204);
    let cvr = cookie_value(&res, "ss_cvr").expect("ss_cvr is set");
    assert_eq!(count_of(&cvr), 1);
    assert!(set_cookie(&res, "ss_cvr").expect("header").contains("Max-Age=63072000"));
    assert!(set_cookie(&res, "ss_cvt").expect("ss_cvt is set").contains("Max-Age=1800"));
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["kind"], "pageView");
    assert_eq!(records[0]["path"], "/about");
    assert_eq!(records[0]["visitorId"], cvr.split('|').next().expect("an id"));
}

#[actix_rt::test]
async fn a_hit_within_the_visit_keeps_the_count_and_an_expired_timestamp_increments_it() {
    let app = demo().await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_millis();
    let same = hit(&app, "/about", &format!("{CONSENT}; ss_cvr=v-1|1|2|3|4; ss_cvt={}", now - 1000)).await;
    assert_eq!(cookie_value(&same, "ss_cvr").as_deref(), Some("v-1|1|2|3|4"));
    let expired = hit(&app, "/about", &format!("{CONSENT}; ss_cvr=v-1|1|2|3|4; ss_cvt={}", now - 31 * 60 * 1000)).await;
    let cvr = cookie_value(&expired, "ss_cvr").expect("set");
    assert!(cvr.starts_with("v-1|1|3|"), "{cvr}");
    assert_eq!(count_of(&cvr), 5);
    let gone = hit(&app, "/about", &format!("{CONSENT}; ss_cvr=v-1|1|2|3|4")).await;
    assert_eq!(count_of(&cookie_value(&gone, "ss_cvr").expect("set")), 5, "a missing ss_cvt means the visit expired");
}

/// A `RecordHit` as the loader sends it: `event=view`, the `ss_cvr` it just wrote both as
/// a field and a cookie, and the `ss_cvt` it just wrote (the hit's time).
async fn loader_hit(app: &App, cvr: &str, cvt: u64) -> reqwest::Response {
    let cookies = format!("{CONSENT}; ss_cvr={cvr}; ss_cvt={cvt}");
    let data = data("/about");
    app.post_form(
        "/api/census/RecordHit",
        &[("event", "view"), ("data", &data), ("ss_cvr", cvr)],
        &[("cookie", &cookies)],
    )
    .await
}

/// The stored session of visitor `id` once it holds `visits` visits and `pages` pages
/// this visit (waits up to 5 s).
async fn session_of(app: &App, id: &str, visits: u64, pages: u64) -> (u64, u64) {
    let what = format!("visitor {id} at {visits} visits, {pages} pages this visit");
    eventually(std::time::Duration::from_secs(5), &what, || async {
        let key = session_key(&VisitorId::parse(id).expect("an id"));
        let stored = app.store.get(Tree::VisitorSessions, &key).expect("reads");
        let state = stored.map(|v| VisitState::from_bytes(&v).expect("a session"));
        let got = state.map_or((0, 0), |s| (s.visits, u64::from(s.pages_this_visit)));
        if got == (visits, pages) {
            Ok(got)
        } else {
            Err(got)
        }
    })
    .await
}

/// The loader rewrites `ss_cvt` before each hit, so the server never sees it expired: when
/// it had, the loader itself starts the next visit (count up, current visit now).
#[actix_rt::test]
async fn a_visit_the_loader_starts_once_ss_cvt_expired_starts_a_new_visit_on_the_server() {
    let app = demo().await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_millis();
    let now = now as u64;
    let began = now - 4000;
    // An id of the loader's own making (the millisecond plus 2^44, then 80 random bits), and
    // one of another shape.
    let made = format!("{:012x}0123456789abcdef0123", began + (1u64 << 44));
    for id in [made.as_str(), "loader-1"] {
        let first_visit = format!("{id}|{began}|{began}|{began}|1");
        loader_hit(&app, &first_visit, began).await;
        assert_eq!(session_of(&app, id, 1, 1).await, (1, 1));
        loader_hit(&app, &first_visit, now - 3000).await;
        assert_eq!(session_of(&app, id, 1, 2).await, (1, 2), "the same visit");
        // Thirty minutes later ss_cvt is gone: the loader counts visit 2 and writes a fresh ss_cvt.
        let next = now - 2000;
        let second_visit = format!("{id}|{began}|{began}|{next}|2");
        let res = loader_hit(&app, &second_visit, next).await;
        assert_eq!(res.status(), 204);
        assert_eq!(cookie_value(&res, "ss_cvr").as_deref(), Some(second_visit.as_str()), "not counted again");
        assert_eq!(session_of(&app, id, 2, 1).await, (2, 1), "a new visit: its first page");
        loader_hit(&app, &second_visit, now - 1000).await;
        assert_eq!(session_of(&app, id, 2, 2).await, (2, 2), "then the visit goes on");
    }
    // The loader's id is stored under the millisecond it tells, then the id.
    let key = [&began.to_be_bytes()[..], made.as_bytes()].concat();
    assert!(app.store.get(Tree::VisitorSessions, &key).expect("reads").is_some());
    assert_eq!(app.store.get(Tree::VisitorSessions, made.as_bytes()).expect("reads"), None);
}

#[actix_rt::test]
async fn a_malformed_visitor_cookie_is_recreated() {
    let app = demo().await;
    for bad in ["ss_cvr=v 1|1|2|3|4", "ss_cvr=v|1|2|3", "ss_cvr=v|0|2|3|4", "ss_cvr=v|1|2|3|4; ss_cvt=soon"] {
        let res = hit(&app, "/about", &format!("{CONSENT}; {bad}")).await;
        assert_eq!(res.status(), 204, "{bad}");
        let cvr = cookie_value(&res, "ss_cvr").expect("recreated");
        assert_eq!(count_of(&cvr), 1, "{bad}");
        assert!(!cvr.starts_with("v|"), "{bad}: a new id");
    }
}

#[actix_rt::test]
async fn without_consent_under_a_restrictive_policy_no_identifier_is_set_or_stored() {
    let app = demo().await;
    let res = hit(&app, "/about", "ss_cookieAllowed=false; ss_cvr=v|1|2|3|4").await;
    assert_eq!(res.status(), 204);
    assert!(cookie_value(&res, "ss_cvr").is_none() && cookie_value(&res, "ss_cvt").is_none());
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records[0]["visitorId"], serde_json::Value::Null);
    assert!(app.records(Tree::VisitorSessions, 0).await.is_empty());
}

#[actix_rt::test]
async fn without_a_restrictive_policy_cookies_need_no_consent() {
    let dir = demo_site_copy(|t| {
        t["cookieBanner"]["isRestrictiveCookiePolicyEnabled"] = toml::Value::Boolean(false);
    });
    let app = spawn(Some(dir.path()), TelemetryLimits::default()).await;
    assert!(cookie_value(&hit(&app, "/about", "").await, "ss_cvr").is_some());
}

/// Sends `skipped` (which must record nothing), then an anonymous hit on `/about`, and
/// checks only the latter was recorded.
async fn assert_not_recorded(app: &App, skipped: reqwest::Response) {
    assert_eq!(skipped.status(), 204);
    assert!(cookie_value(&skipped, "ss_cvr").is_none());
    assert_eq!(hit(app, "/contact", CONSENT).await.status(), 204);
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["path"], "/contact");
}

#[actix_rt::test]
async fn signed_in_owners_and_editors_are_not_recorded_but_viewers_are() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    assert_not_recorded(&app, hit(&app, "/about", &format!("{CONSENT}; {owner}")).await).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    assert_eq!(cookie_value(&hit(&app, "/about", &format!("{CONSENT}; {editor}")).await, "ss_cvr"), None);
    let viewer = app.sign_in(false, &[ContributorRole::Viewer]).await;
    assert!(cookie_value(&hit(&app, "/about", &format!("{CONSENT}; {viewer}")).await, "ss_cvr").is_some());
}

#[actix_rt::test]
async fn config_paths_are_not_recorded() {
    let app = demo().await;
    assert_not_recorded(&app, hit(&app, "https://example.com/config/design", CONSENT).await).await;
}

#[actix_rt::test]
async fn not_found_pages_are_not_recorded() {
    let app = demo().await;
    assert_not_recorded(&app, hit(&app, "/no-such-page", CONSENT).await).await;
}

#[actix_rt::test]
async fn lock_screens_are_not_recorded() {
    let app = demo().await;
    assert_not_recorded(&app, hit(&app, "/private", CONSENT).await).await;
}

/// Unlocks the demo's password page through its lock screen; gives the grant as `name=value`.
async fn unlock_private(app: &App) -> String {
    let crumb = cookie_value(&app.get("/private", &[]).await, "crumb").expect("the lock screen hands out a crumb");
    let cookie = format!("crumb={crumb}");
    let res = app.post_form("/private", &[("password", "veranda"), ("crumb", &crumb)], &[("cookie", &cookie)]).await;
    assert_eq!(res.status(), 303, "unlocked");
    let id = app.site.pages.iter().find(|p| p.url == "/private").map(|p| p.id.clone()).expect("the password page");
    let name = format!("{UNLOCK_COOKIE_PREFIX}{id}");
    format!("{name}={}", cookie_value(&res, &name).expect("a grant"))
}

/// Once unlocked, a password page is an ordinary page: its context turns analytics on,
/// and the server records its hits.
#[actix_rt::test]
async fn an_unlocked_password_page_is_recorded_like_any_page() {
    let app = demo().await;
    let grant = unlock_private(&app).await;
    let context = page_context(&app.get("/private", &[("cookie", &grant)]).await.text().await.expect("a page"));
    assert_eq!(context["pageType"], spec::page_type("Page"));
    assert_eq!(context["analyticsEnabled"], true);
    let res = hit(&app, "/private", &format!("{CONSENT}; {grant}")).await;
    assert_eq!(res.status(), 204);
    assert!(cookie_value(&res, "ss_cvr").is_some(), "a visit like any other");
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["path"], "/private");
}

/// A signed-in account without member access gets the member-area-denied page: its
/// context turns analytics off, and the server skips its hits for that reason.
#[actix_rt::test]
async fn the_member_area_denied_page_is_not_recorded() {
    let app = demo().await;
    let account = app.sign_in(false, &[]).await;
    let page = app.get("/members", &[("cookie", &account)]).await;
    assert_eq!(page.status(), 403);
    let context = page_context(&page.text().await.expect("a page"));
    assert_eq!(context["pageType"], spec::page_type("MemberAreaAccessDenied"));
    assert_eq!(context["analyticsEnabled"], false);
    assert_not_recorded(&app, hit(&app, "/members", &format!("{CONSENT}; {account}")).await).await;
    let metrics = app.get_ops("/metrics").await;
    let metrics = metrics.text().await.expect("a body");
    let skipped = metrics.lines().any(|l| {
        l.starts_with("veranda_ingest_skipped_total{")
            && l.contains("endpoint=\"record_hit\"")
            && l.contains("reason=\"member_area_denied\"")
    });
    assert!(skipped, "skipped as the member-area-denied page:\n{metrics}");
}

#[actix_rt::test]
async fn nothing_is_recorded_when_analytics_are_disabled() {
    let dir = demo_site_copy(|t| {
        t["analyticsDisabled"] = toml::Value::Boolean(true);
    });
    let app = spawn(Some(dir.path()), TelemetryLimits::default()).await;
    let res = hit(&app, "/about", CONSENT).await;
    assert_eq!(res.status(), 204);
    assert!(cookie_value(&res, "ss_cvr").is_none());
    let res = app.post_form("/api/census/button-click", &[("id", "b1"), ("url", "/about")], &[]).await;
    assert_eq!(res.status(), 204);
    assert!(app.store.scan_prefix(Tree::Census, b"", 10).expect("scans").is_empty());
}

#[actix_rt::test]
async fn search_views_are_recorded_as_searches() {
    let app = demo().await;
    assert_eq!(hit(&app, "/search?q=porch", CONSENT).await.status(), 204);
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records[0]["kind"], "search");
}

#[actix_rt::test]
async fn malformed_and_oversized_hits_are_refused() {
    let app = demo().await;
    let missing = app.post_form("/api/census/RecordHit", &[("event", "pageView")], &[]).await;
    assert_eq!(missing.status(), 400);
    assert!(missing.text().await.expect("body").contains("data is required"));
    let not_json = app.post_form("/api/census/RecordHit", &[("data", "{nope")], &[]).await;
    assert_eq!(not_json.status(), 400);
    let no_url = app.post_form("/api/census/RecordHit", &[("data", "{}")], &[]).await;
    assert_eq!(no_url.status(), 400);
    let huge = "x".repeat(20_000);
    let big = app.post_form("/api/census/RecordHit", &[("data", &huge)], &[]).await;
    assert_eq!(big.status(), 413);
}

#[actix_rt::test]
async fn a_page_views_data_is_stored_as_sent_and_read_as_any_json_object() {
    let app = demo().await;
    let text = r#"{ "url":"/about",  "title":"Caf\u00e9 é", "z":{"b":1,"a":[2, 3]}, "referrer":"https://x.example/" }"#;
    let sent = [("event", "pageView"), ("data", text)];
    let res = app.post_form("/api/census/RecordHit", &sent, &[("cookie", CONSENT)]).await;
    assert_eq!(res.status(), 204);
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records[0]["path"], "/about");
    assert_eq!(records[0]["data"]["event"], "pageView");
    assert_eq!(records[0]["data"]["newVisit"], true);
    assert_eq!(records[0]["data"]["data"]["title"], "Café é");
    assert_eq!(records[0]["data"]["data"]["z"]["a"][1], 3);
    let stored = app.store.scan_prefix(Tree::Census, b"", 10).expect("scans");
    let stored = String::from_utf8(stored[0].1.clone()).expect("UTF-8");
    assert!(stored.contains(text.trim()), "the data text as sent: {stored}");

    let array = app.post_form("/api/census/RecordHit", &[("data", r#"[{"url":"/about"}]"#)], &[]).await;
    assert_eq!(array.status(), 400);
    assert!(array.text().await.expect("body").contains("data must be a JSON object"));
    let number_url = app.post_form("/api/census/RecordHit", &[("data", r#"{"url":5}"#)], &[]).await;
    assert_eq!(number_url.status(), 400);
    assert!(number_url.text().await.expect("body").contains("data.url is required"));
    let surrogate = [("data", r#"{"url":"/about","title":"\ud800"}"#)];
    let lone = app.post_form("/api/census/RecordHit", &surrogate, &[("cookie", CONSENT)]).await;
    assert_eq!(lone.status(), 400, "what a JSON value refuses is not stored as sent");
    assert!(lone.text().await.expect("body").contains("data is not JSON"));
    let twice = [("data", r#"{"url":"/about","url":"/contact"}"#)];
    let duplicate = app.post_form("/api/census/RecordHit", &twice, &[("cookie", CONSENT)]).await;
    assert_eq!(duplicate.status(), 204, "a repeated field reads as JSON objects do: the last one");
    let records = app.records(Tree::Census, 2).await;
    assert_eq!(records[1]["path"], "/contact");
}

#[actix_rt::test]
async fn a_hits_event_is_kept_to_its_first_64_characters_and_defaults_to_page_view() {
    let app = demo().await;
    let data = data("/about");
    let long = "é".repeat(70);
    let named =
        app.post_form("/api/census/RecordHit", &[("event", &long), ("data", &data)], &[("cookie", CONSENT)]).await;
    assert_eq!(named.status(), 204);
    let unnamed = app.post_form("/api/census/RecordHit", &[("data", &data)], &[("cookie", CONSENT)]).await;
    assert_eq!(unnamed.status(), 204);
    let records = app.records(Tree::Census, 2).await;
    assert_eq!(records[0]["data"]["event"], "é".repeat(64), "cut to 64 characters, not bytes");
    assert_eq!(records[1]["data"]["event"], "pageView");
}

#[actix_rt::test]
async fn button_form_overlay_and_quick_view_calls_are_recorded() {
    let app = demo().await;
    let cookie = [("cookie", CONSENT)];
    let calls: [(&str, Vec<(&str, &str)>); 4] = [
        (
            "/api/census/button-click",
            vec![("id", "b1"), ("buttonText", "Go"), ("visitorCookie", "v|1|2|3|4"), ("url", "/about")],
        ),
        ("/api/census/button-render", vec![("id", "b1"), ("url", "/about")]),
        ("/api/census/form-render", vec![("formId", "f1"), ("url", "/contact")]),
        ("/api/census/overlay", vec![("event", "shown"), ("url", "/")]),
    ];
    for (path, form) in &calls {
        assert_eq!(app.post_form(path, form, &cookie).await.status(), 204, "{path}");
    }
    assert_eq!(app.post_form("/api/census/RecordQuickView/item-1", &[], &[]).await.status(), 204);
    let records = app.records(Tree::Census, 5).await;
    let kinds: Vec<&str> = records.iter().filter_map(|r| r["kind"].as_str()).collect();
    for kind in ["buttonClick", "buttonRender", "formRender", "overlay", "quickView"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    let click = records.iter().find(|r| r["kind"] == "buttonClick").expect("a click");
    assert_eq!(click["visitorId"], "v");
    assert_eq!(app.post_form("/api/census/button-click", &[("buttonText", "Go")], &[]).await.status(), 400);
    assert_eq!(app.post_form("/api/census/form-render", &[("url", "/")], &[]).await.status(), 400);
    assert_eq!(app.post_form("/api/census/RecordQuickView/bad%20id", &[], &[]).await.status(), 400);
}

#[actix_rt::test]
async fn the_tracking_pixel_answers_a_gif_and_records_marketing_parameters() {
    let app = demo().await;
    let res = app.get("/api/track/Track?source=news&campaign=spring&landing=%2Fabout&junk=1", &[]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/gif");
    assert!(res.bytes().await.expect("body").starts_with(b"GIF89a"));
    let records = app.records(Tree::Census, 1).await;
    assert_eq!(records[0]["kind"], "track");
    assert_eq!(records[0]["data"]["campaign"], "spring");
    assert!(records[0]["data"].get("junk").is_none());
}
