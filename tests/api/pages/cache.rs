//! The page cache and compression: a published page is rendered once for every visitor it
//! is the same for, shown anew after every edit, never shared with a signed-in visitor,
//! and sent in the coding the browser asks for.

use serde_json::json;
use veranda_tests::codings::{gunzip, unbrotli};
use veranda_tests::metrics::{sample, scrape};
use veranda_tests::process::{get_in_session, store_owner_session, ServerProcess};
use veranda_tests::{demo_site_dir, page_context, spawn_app, TestApp};

use crate::streams::put;

const REQUESTS: &str = "veranda_page_cache_requests_total";
const ABOUT: &str = "af4c62082b549d924d8ead37";

fn count(text: &str, result: &str) -> f64 {
    sample(text, REQUESTS, &[("result", result)]).unwrap_or(-1.0)
}

async fn body(res: reqwest::Response) -> (reqwest::header::HeaderMap, Vec<u8>) {
    let headers = res.headers().clone();
    (headers, res.bytes().await.expect("a body").to_vec())
}

#[actix_rt::test]
async fn visitors_without_a_session_share_one_render_and_a_signed_in_one_gets_their_own() {
    let data = tempfile::tempdir().expect("temp dir");
    store_owner_session(data.path(), "owner-session").await;
    let server = ServerProcess::start_with_site(&demo_site_dir(), data.path()).await;
    let client = reqwest::Client::new();
    let before = scrape(&server.ops_address).await;
    for result in ["hit", "miss", "bypass"] {
        assert_eq!(count(&before, result), 0.0, "{result} is exported at zero");
    }
    assert_eq!(sample(&before, "veranda_page_cache_bytes", &[]), Some(0.0));

    let mut bodies = Vec::new();
    for _ in 0..3 {
        let res = client.get(format!("{}/about", server.address)).send().await.expect("answered");
        assert_eq!(res.status(), 200);
        assert!(
            res.headers().get_all("set-cookie").iter().any(|c| c.to_str().is_ok_and(|c| c.starts_with("crumb="))),
            "each visitor still gets a crumb of their own"
        );
        bodies.push(res.text().await.expect("HTML"));
    }
    assert!(bodies.iter().all(|b| *b == bodies[0]));
    assert_eq!(page_context(&bodies[0])["authenticatedAccount"], serde_json::Value::Null);
    let after = scrape(&server.ops_address).await;
    assert_eq!((count(&after, "miss"), count(&after, "hit")), (1.0, 2.0));
    assert!(sample(&after, "veranda_page_cache_bytes", &[]).is_some_and(|b| b >= bodies[0].len() as f64));

    let signed_in = get_in_session(&client, &server.address, "/about?noredirect", "owner-session").await;
    let html = signed_in.text().await.expect("HTML");
    assert_eq!(page_context(&html)["authenticatedAccount"]["id"], "owner", "the owner's own page");
    let again = client.get(format!("{}/about", server.address)).send().await.expect("answered");
    let html = again.text().await.expect("HTML");
    assert_eq!(page_context(&html)["authenticatedAccount"], serde_json::Value::Null, "never the owner's page");
    let after = scrape(&server.ops_address).await;
    assert_eq!((count(&after, "bypass"), count(&after, "hit")), (1.0, 3.0));
}

#[actix_rt::test]
async fn campaign_parameters_are_not_filters_and_unknown_ones_are_rendered_alone() {
    let data = tempfile::tempdir().expect("temp dir");
    let server = ServerProcess::start_with_site(&demo_site_dir(), data.path()).await;
    let client = reqwest::Client::new();
    let get = |path: &str| client.get(format!("{}{path}", server.address)).send();
    let plain = get("/blog").await.expect("answered").text().await.expect("HTML");
    let from_an_ad = get("/blog?utm_source=news&utm_campaign=autumn&fbclid=IwAR0abc&gclid=Cj0K")
        .await
        .expect("answered")
        .text()
        .await
        .expect("HTML");
    assert!(!from_an_ad.contains("Filtered by"), "campaign parameters do not filter the blog");
    assert_eq!(page_context(&from_an_ad)["filters"], json!({}));
    assert_eq!(from_an_ad, plain, "the page a campaign link opens is the page itself");
    let unknown = get("/blog?colour=green").await.expect("answered");
    assert_eq!(unknown.status(), 200);
    let after = scrape(&server.ops_address).await;
    assert_eq!((count(&after, "miss"), count(&after, "hit"), count(&after, "bypass")), (1.0, 1.0, 1.0));
}

#[actix_rt::test]
async fn with_no_room_every_page_is_rendered_for_its_request() {
    let data = tempfile::tempdir().expect("temp dir");
    let env = [("VERANDA_PAGES", "{cache_mb = 0}")];
    let server = ServerProcess::start_with_env(&demo_site_dir(), data.path(), &env).await;
    for _ in 0..2 {
        let res = reqwest::get(format!("{}/menu", server.address)).await.expect("answered");
        assert_eq!(res.status(), 200);
    }
    let after = scrape(&server.ops_address).await;
    assert_eq!((count(&after, "bypass"), count(&after, "hit")), (2.0, 0.0));
}

async fn get_text(app: &TestApp, path: &str) -> String {
    app.get(path).await.text().await.expect("HTML")
}

#[actix_rt::test]
async fn an_edit_shows_on_the_next_request_of_a_kept_page() {
    let app = spawn_app().await;
    let admin = app.sign_in(true, &[], false).await;
    assert!(get_text(&app, "/about").await.contains("<title>About"));
    let res =
        put(&app, &format!("/api/content/pages/{ABOUT}/settings"), &admin, json!({ "title": "Who we are" })).await;
    assert_eq!(res.status(), 200);
    assert!(get_text(&app, "/about").await.contains("<title>Who we are"), "the title edit shows at once");

    assert!(!get_text(&app, "/").await.contains("Porch news tonight"));
    let res =
        put(&app, "/api/site-header-footer", &admin, json!({ "header": "Porch news tonight", "footer": "F" })).await;
    assert_eq!(res.status(), 200);
    assert!(get_text(&app, "/").await.contains("Porch news tonight"), "the header edit shows at once");
    assert!(get_text(&app, "/about").await.contains("Porch news tonight"), "on every page");
}

#[actix_rt::test]
async fn pages_come_in_the_coding_the_browser_asks_for_and_revalidate_per_coding() {
    let app = spawn_app().await;
    let (identity_headers, _) = body(app.get("/").await).await;
    assert_eq!(identity_headers.get("content-encoding"), None, "nothing asked, nothing compressed");
    assert_eq!(identity_headers["vary"], "Accept-Encoding, Cookie");
    for path in ["/", "/about", "/blog", "/no-such-page"] {
        let (plain_headers, plain) = body(app.get(path).await).await;
        let (br_headers, br) = body(app.get_with(path, &[("Accept-Encoding", "gzip, deflate, br, zstd")]).await).await;
        assert_eq!(br_headers["content-encoding"], "br", "{path}");
        assert_eq!(unbrotli(&br), plain, "{path}: the same page");
        assert!(br.len() * 2 < plain.len(), "{path}: {} of {} bytes", br.len(), plain.len());
        let (gz_headers, gz) = body(app.get_with(path, &[("Accept-Encoding", "gzip")]).await).await;
        assert_eq!(gz_headers["content-encoding"], "gzip", "{path}");
        assert_eq!(gunzip(&gz), plain, "{path}");
        assert_ne!(gz_headers["etag"], br_headers["etag"], "{path}: one tag per coding");
        assert_ne!(plain_headers["etag"], gz_headers["etag"], "{path}");
    }
    let (br_headers, _) = body(app.get_with("/", &[("Accept-Encoding", "br")]).await).await;
    let tag = br_headers["etag"].to_str().expect("ascii");
    let revalidated = app.get_with("/", &[("Accept-Encoding", "br"), ("If-None-Match", tag)]).await;
    assert_eq!(revalidated.status(), 304);
    let other_coding = app.get_with("/", &[("Accept-Encoding", "gzip"), ("If-None-Match", tag)]).await;
    assert_eq!(other_coding.status(), 200, "a gzip body is another representation");
    let refused = app.get_with("/", &[("Accept-Encoding", "identity;q=0, *;q=0")]).await;
    assert_eq!(refused.status(), 200, "never a 406");
    assert_eq!(refused.headers().get("content-encoding"), None);
}
