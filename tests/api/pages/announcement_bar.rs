//! The announcement bar and its dismissal cookie: a page requested with the
//! `ss_announcementBarDismissed` cookie naming the current announcement leaves the bar out;
//! any other value, a malformed one or a new announcement text shows it.

use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site, TestApp};

const COOKIE: &str = "ss_announcementBarDismissed";

/// The page at `path` requested with `cookie` (a `Cookie` header value), if any.
async fn page(app: &TestApp, path: &str, cookie: Option<&str>) -> (reqwest::header::HeaderMap, String) {
    let res = match cookie {
        Some(c) => app.get_with(path, &[("Cookie", c)]).await,
        None => app.get(path).await,
    };
    assert!(res.status() == 200 || res.status() == 404, "{path}: {}", res.status());
    let headers = res.headers().clone();
    (headers, res.text().await.expect("body"))
}

/// The `data-announcement-id` of the page's bar, if the page has one.
fn announcement_id(html: &str) -> Option<String> {
    let at = html.find("<aside class=\"announcement-bar\"")?;
    let tag = &html[at..at + html[at..].find('>').expect("the tag ends")];
    let key = "data-announcement-id=\"";
    let start = tag.find(key).expect("the bar carries its announcement id") + key.len();
    Some(tag[start..start + tag[start..].find('"').expect("quoted")].to_string())
}

#[actix_rt::test]
async fn a_dismissed_announcement_is_left_out_of_every_page() {
    let app = spawn_app().await;
    let (_, home) = page(&app, "/", None).await;
    let id = announcement_id(&home).expect("the demo site shows its announcement");
    assert_eq!(id.len(), 16, "{id}");
    assert!(home.contains("Porch music every Friday"));
    let dismissed = format!("{COOKIE}={id}");
    for path in ["/", "/contact", "/menu", "/search?q=coffee", "/no-such-page"] {
        let (_, html) = page(&app, path, Some(&dismissed)).await;
        assert_eq!(announcement_id(&html), None, "{path}: the dismissed bar is rendered");
        assert!(!html.contains("class=\"announcement-bar\""), "{path}");
        let (_, shown) = page(&app, path, None).await;
        assert_eq!(announcement_id(&shown).as_deref(), Some(id.as_str()), "{path}: the bar without the cookie");
    }
    // Among other cookies, too.
    let (_, html) = page(&app, "/", Some(&format!("crumb=abc; {dismissed}; ss_cookieAllowed=true"))).await;
    assert_eq!(announcement_id(&html), None);
}

#[actix_rt::test]
async fn another_or_malformed_dismissal_cookie_shows_the_bar() {
    let app = spawn_app().await;
    let (_, home) = page(&app, "/", None).await;
    let id = announcement_id(&home).expect("the demo site shows its announcement");
    let upper = id.to_uppercase();
    let long = format!("{id}0");
    let short = &id[..15];
    let spaced = format!("{} ", &id[..15]);
    let text = "Porch music every Friday from 6 pm. See what's on.";
    for value in ["0000000000000000", upper.as_str(), long.as_str(), short, spaced.as_str(), "", text, "%00%ff"] {
        let header = format!("{COOKIE}={value}");
        let res = app.get_with("/", &[("Cookie", header.as_str())]).await;
        assert_eq!(res.status(), 200, "{value:?}: a bad cookie is no error");
        let html = res.text().await.expect("body");
        assert_eq!(announcement_id(&html).as_deref(), Some(id.as_str()), "{value:?} must not hide the bar");
    }
}

#[actix_rt::test]
async fn the_page_answer_varies_with_the_cookie_and_is_never_shared() {
    let app = spawn_app().await;
    let (shown_headers, home) = page(&app, "/", None).await;
    let id = announcement_id(&home).expect("the bar");
    let (hidden_headers, _) = page(&app, "/", Some(&format!("{COOKIE}={id}"))).await;
    for headers in [&shown_headers, &hidden_headers] {
        assert_eq!(headers["vary"], "Accept-Encoding, Cookie");
        assert_eq!(headers["cache-control"], "private, no-cache");
    }
    assert_ne!(shown_headers["etag"], hidden_headers["etag"], "a revalidation must not keep the other version");
    // A browser revalidating with the ETag of the page with the bar gets the page without it.
    let etag = shown_headers["etag"].to_str().expect("ascii");
    let cookie = format!("{COOKIE}={id}");
    let res = app.get_with("/", &[("Cookie", cookie.as_str()), ("If-None-Match", etag)]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(announcement_id(&res.text().await.expect("body")), None);
}

#[actix_rt::test]
async fn a_new_announcement_shows_again_after_the_old_one_was_dismissed() {
    let old = spawn_app().await;
    let (_, home) = page(&old, "/", None).await;
    let old_id = announcement_id(&home).expect("the bar");
    let site = demo_site_copy(|t| {
        let bar = t.get_mut("announcementBar").and_then(|b| b.as_table_mut()).expect("the demo has a bar");
        bar.insert("text".into(), toml::Value::String("Closed on Monday for a private party.".into()));
    });
    let app = spawn_app_with_site(site.path()).await;
    let (_, html) = page(&app, "/", Some(&format!("{COOKIE}={old_id}"))).await;
    let new_id = announcement_id(&html).expect("the new announcement shows despite the old dismissal");
    assert_ne!(new_id, old_id);
    assert!(html.contains("Closed on Monday for a private party."));
    let (_, html) = page(&app, "/", Some(&format!("{COOKIE}={new_id}"))).await;
    assert_eq!(announcement_id(&html), None, "and goes once it is dismissed in turn");
}
