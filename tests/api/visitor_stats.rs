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

async fn page_view_from(app: &App, url: &str, referrer: &str, cookies: &str) {
    let data = json!({ "url": url, "referrer": referrer, "title": "t", "userAgent": "test", "websiteId": "w" });
    let data = data.to_string();
    let res =
        app.post_form("/api/census/RecordHit", &[("event", "pageView"), ("data", &data)], &[("cookie", cookies)]).await;
    assert_eq!(res.status(), 204);
}

async fn read(app: &App, path: &str, cookie: &str) -> Value {
    let res = app.get(path, &[("cookie", cookie)]).await;
    assert_eq!(res.status(), 200, "{path}");
    assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
    res.json().await.expect("JSON")
}

#[actix_rt::test]
async fn the_series_gives_24_hourly_and_30_daily_points_ending_with_the_current_one() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    page_view(&app, "https://example.com/", "ss_cookieAllowed=true").await;
    page_view(&app, "https://example.com/about", "ss_cookieAllowed=true").await;
    page_view(&app, "https://example.com/about", "").await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_millis() as u64;
    for (query, points, bucket) in
        [("", 24, 3_600_000u64), ("?range=24h", 24, 3_600_000), ("?range=30d", 30, 86_400_000)]
    {
        let body = read(&app, &format!("/api/stats/series{query}"), &owner).await;
        assert_eq!(body["bucketMs"], json!(bucket), "{query}");
        assert_eq!(body["range"], json!(if bucket == 3_600_000 { "24h" } else { "30d" }));
        let all = body["points"].as_array().expect("points");
        assert_eq!(all.len(), points, "{query}");
        let last = all.last().expect("a point");
        let start = last["start"].as_u64().expect("start");
        assert!(start <= now && now < start + bucket + 60_000, "{query}: the last point is the current bucket");
        assert_eq!(start % bucket, 0, "{query}: buckets start on the hour and at midnight UTC");
        let starts: Vec<u64> = all.iter().map(|p| p["start"].as_u64().expect("start")).collect();
        assert!(starts.windows(2).all(|w| w[1] == w[0] + bucket), "{query}: consecutive buckets, oldest first");
        // Summed, as a test started just before the hour may see its views in two buckets;
        // each visitor viewed one page, so visitors add up too.
        let sum = |field: &str| all.iter().map(|p| p[field].as_u64().expect("a count")).sum::<u64>();
        assert_eq!((sum("pageViews"), sum("visitors")), (3, 2), "{query}");
    }
}

#[actix_rt::test]
async fn top_pages_and_referring_sites_are_ranked_by_views() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    page_view_from(&app, "https://example.com/about", "https://www.google.com/search?q=x", "").await;
    page_view_from(&app, "https://example.com/about", "https://example.com/", "").await;
    page_view_from(&app, "https://example.com/", "https://news.ycombinator.com/", "").await;
    page_view_from(&app, "https://example.com/about", "https://www.google.com/", "").await;
    page_view_from(&app, "https://example.com/", "", "").await;
    for range in ["24h", "30d"] {
        let body = read(&app, &format!("/api/stats/top?range={range}"), &owner).await;
        assert_eq!(
            body,
            json!({
                "range": range,
                "pages": [{ "key": "/about", "count": 3 }, { "key": "/", "count": 2 }],
                "referrers": [{ "key": "google.com", "count": 2 }, { "key": "news.ycombinator.com", "count": 1 }]
            })
        );
    }
}

#[actix_rt::test]
async fn a_range_other_than_24h_or_30d_is_refused_with_a_message() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    for path in ["/api/stats/series", "/api/stats/top"] {
        assert_eq!(app.get(&format!("{path}?range=7d"), &[]).await.status(), 401, "{path}: sign-in comes first");
        assert_eq!(app.get(&format!("{path}?range=30d"), &[("cookie", &editor)]).await.status(), 403, "{path}");
        for bad in ["7d", "24H", "", "%FF"] {
            let res = app.get(&format!("{path}?range={bad}"), &[("cookie", &owner)]).await;
            assert_eq!(res.status(), 400, "{path}?range={bad}");
            let body: Value = res.json().await.expect("JSON");
            assert_eq!(body, json!({ "error": "The range must be 24h or 30d." }), "{path}?range={bad}");
        }
        let post = app.post_form(path, &[], &[("cookie", &owner)]).await;
        assert_eq!(post.status(), 405, "{path}");
    }
}

fn error_record(message: &str, line: u32) -> Value {
    json!({ "event": "error", "timestamp": 1, "data": { "websiteId": "w", "templateId": "t",
        "url": "https://example.com/about", "userAgent": "test", "app": "loader", "message": message,
        "stack": "Error", "file": "https://example.com/assets/loader-abc123ef.js", "line": line, "column": 2,
        "pageLoadId": "load-1" } })
}

#[actix_rt::test]
async fn errors_per_hour_give_the_total_and_each_groups_24_hours() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    assert_eq!(app.get("/api/stats/errors", &[]).await.status(), 401);
    assert_eq!(app.get("/api/stats/errors", &[("cookie", &editor)]).await.status(), 403);
    let empty = read(&app, "/api/stats/errors", &owner).await;
    assert_eq!(empty["bucketMs"], json!(3_600_000));
    assert_eq!(empty["points"].as_array().map(Vec::len), Some(24));
    assert_eq!(empty["groups"], json!([]));
    let crumb = app.crumb().await;
    let cookie = format!("crumb={crumb}");
    let records =
        json!([error_record("Item 1 missing", 3), error_record("Item 2 missing", 3), error_record("other", 9)]);
    let res = app
        .post_body(
            "/api/events/RecordJavascriptErrors",
            "application/json",
            records.to_string(),
            &[("cookie", &cookie), ("X-CSRF-Token", &crumb)],
        )
        .await;
    assert_eq!(res.status(), 202);
    let body = read(&app, "/api/stats/errors", &owner).await;
    let total: u64 = body["points"].as_array().expect("points").iter().map(|p| p["errors"].as_u64().expect("n")).sum();
    assert_eq!(total, 3);
    let groups = body["groups"].as_array().expect("groups");
    let mut sums: Vec<u64> =
        groups.iter().map(|g| g["counts"].as_array().expect("counts").iter().filter_map(Value::as_u64).sum()).collect();
    sums.sort_unstable();
    assert_eq!(sums, [1, 2], "two groups: the two missing items share a fingerprint");
    assert!(groups.iter().all(|g| g["counts"].as_array().map(Vec::len) == Some(24)));
}

#[actix_rt::test]
async fn vitals_over_time_give_every_pages_p75_per_hour_and_per_day() {
    let app = demo().await;
    let owner = app.sign_in(true, &[]).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor]).await;
    assert_eq!(app.get("/api/stats/vitals/series", &[]).await.status(), 401);
    assert_eq!(app.get("/api/stats/vitals/series", &[("cookie", &editor)]).await.status(), 403);
    let bad = app.get("/api/stats/vitals/series?range=1w", &[("cookie", &owner)]).await;
    assert_eq!(bad.status(), 400);
    let mut records = Vec::new();
    for (i, (path, lcp)) in [("/about", 900), ("/", 1100), ("/about", 2400), ("/", 3900)].into_iter().enumerate() {
        records.push(json!({ "pageLoadId": format!("load-{i}"), "name": "LCP", "value": lcp, "pagePath": path }));
    }
    records.push(json!({ "pageLoadId": "load-0", "name": "CLS", "value": 0.3, "pagePath": "/about" }));
    let body = Value::Array(records).to_string();
    assert_eq!(app.post_body("/api/1/performance/records", "text/plain", body, &[]).await.status(), 202);
    for (range, points) in [("24h", 24), ("30d", 30)] {
        let path = format!("/api/stats/vitals/series?range={range}");
        let last = eventually(std::time::Duration::from_secs(5), "the vitals over time", || async {
            let body = read(&app, &path, &owner).await;
            assert_eq!(body["points"].as_array().map(Vec::len), Some(points), "{range}");
            let last = body["points"][points - 1].clone();
            last["lcp"].is_object().then_some(last)
        })
        .await;
        // Both pages together: 4 page loads, the p75 in the bucket up to 2.5 s.
        assert_eq!(last["lcp"], json!({ "p75": 2500.0, "count": 4 }), "{range}");
        assert_eq!(last["cls"], json!({ "p75": 0.3, "count": 1 }), "{range}");
        assert_eq!(
            (last["inp"].clone(), last["fcp"].clone(), last["ttfb"].clone()),
            (Value::Null, Value::Null, Value::Null)
        );
    }
}
