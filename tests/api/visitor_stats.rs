//! `GET /api/stats/visitors`: live visitors and page views for the owner and admins.

use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;

use veranda_tests::eventually;

use crate::telemetry::{demo, App};

async fn page_view(app: &App, url: &str, cookies: &str) {
    let data = json!({ "url": url, "title": "t", "userAgent": "test", "websiteId": "w" }).to_string();
    let headers: Vec<(&str, &str)> = if cookies.is_empty() { vec![] } else { vec![("cookie", cookies)] };
    let res = app.post_form("/api/census/RecordHit", &[("event", "pageView"), ("data", &data)], &headers).await;
    assert_eq!(res.status(), 204);
}

async fn stats(app: &App, cookie: &str) -> Value {
    let res = app.get("/api/stats/visitors", &[("cookie", cookie)]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
    res.json().await.expect("JSON")
}

#[actix_rt::test]
async fn page_views_and_live_visitors_are_counted_as_hits_come_in() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    assert_eq!(stats(&app, &owner).await, json!({ "liveVisitors": 0, "pageViews": { "today": 0, "lastHour": 0 } }));
    page_view(&app, "https://example.com/", "ss_cookieAllowed=true").await;
    page_view(&app, "https://example.com/about", "ss_cookieAllowed=true").await;
    page_view(&app, "https://example.com/about", "").await;
    assert_eq!(stats(&app, &owner).await, json!({ "liveVisitors": 2, "pageViews": { "today": 3, "lastHour": 3 } }));
}

#[actix_rt::test]
async fn only_the_owner_and_admins_read_visitor_figures() {
    let app = demo().await;
    let admin = app.sign_in(false, &[ContributorRole::Admin]).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    assert_eq!(app.get("/api/stats/visitors", &[]).await.status(), 401);
    assert_eq!(app.get("/api/stats/visitors", &[("cookie", &editor)]).await.status(), 403);
    stats(&app, &admin).await;
    let post = app.post_form("/api/stats/visitors", &[], &[("cookie", &admin)]).await;
    assert_eq!(post.status(), 405);
}

#[actix_rt::test]
async fn vitals_give_the_p75_per_page_path_for_the_owner_and_admins() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    assert_eq!(app.get("/api/stats/vitals", &[]).await.status(), 401);
    assert_eq!(app.get("/api/stats/vitals", &[("cookie", &editor)]).await.status(), 403);
    let empty: Value = app.get("/api/stats/vitals", &[("cookie", &owner)]).await.json().await.expect("JSON");
    assert_eq!(empty, json!({ "pages": [] }));
    let mut records = Vec::new();
    for (i, lcp) in [900, 1100, 2400, 3900].into_iter().enumerate() {
        records.push(json!({ "pageLoadId": format!("load-{i}"), "name": "LCP", "value": lcp, "pagePath": "/about" }));
    }
    records.push(json!({ "pageLoadId": "load-0", "name": "CLS", "value": 0.3, "pagePath": "/about" }));
    records.push(json!({ "pageLoadId": "load-0", "name": "LCP", "value": 9000, "pagePath": "/about" }));
    let body = Value::Array(records).to_string();
    assert_eq!(app.post_body("/api/1/performance/records", "text/plain", body, &[]).await.status(), 202);
    let pages = eventually(std::time::Duration::from_secs(5), "the vitals of a page", || async {
        let res = app.get("/api/stats/vitals", &[("cookie", &owner)]).await;
        assert_eq!(res.status(), 200);
        let body: Value = res.json().await.expect("JSON");
        body["pages"].as_array().is_some_and(|p| !p.is_empty()).then(|| body["pages"].clone())
    })
    .await;
    assert_eq!(
        pages,
        json!([{
            "path": "/about",
            "lcp": { "p75": 2500.0, "count": 4 },
            "inp": null,
            "cls": { "p75": 0.3, "count": 1 },
            "fcp": null,
            "ttfb": null
        }])
    );
}
