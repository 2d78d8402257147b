//! The page context's values of spec 000 §3 and 001 §3 that come from the site file, the
//! signed-in account and the visitor's cookies: `templateInstallation.templateWebsite`,
//! `websiteRoles` (the website roles map), the analytics, marketing and session ids, the
//! fonts the site names (and their stylesheet links), the comment-count script and the comment thread.

use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::{demo_site_copy, page_context, spawn_app, spawn_app_configured, spawn_app_with_site, TestApp};

/// The page at `path` requested with the `Cookie` header `cookie`.
async fn html(app: &TestApp, path: &str, cookie: &str) -> String {
    let res = app.get_with(path, &[("cookie", cookie)]).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.expect("body")
}

/// Sets `website.<key>` of a demo copy's `site.toml`.
fn website(table: &mut toml::Table, key: &str, value: toml::Value) {
    table["website"].as_table_mut().expect("[website]").insert(key.into(), value);
}

#[actix_rt::test]
async fn the_template_identifier_comes_from_the_site_file_and_is_empty_without_one() {
    let app = spawn_app().await;
    let context = page_context(&html(&app, "/", "").await);
    assert_eq!(
        context["templateInstallation"]["templateWebsite"],
        serde_json::json!({ "id": "veranda-porch", "identifier": "" })
    );
    let dir = demo_site_copy(|t| website(t, "templateIdentifier", "porch".into()));
    let app = spawn_app_with_site(dir.path()).await;
    let context = page_context(&html(&app, "/", "").await);
    assert_eq!(
        context["templateInstallation"]["templateWebsite"],
        serde_json::json!({ "id": "veranda-porch", "identifier": "porch" })
    );
}

#[actix_rt::test]
async fn website_roles_map_each_role_id_of_the_account_to_true() {
    // Spec 001 §6: "Viewer is a role id (10) in the website roles map"; 000 §3: editor 4, viewer 10.
    let app = spawn_app().await;
    let roles = |html: &str| page_context(html)["websiteRoles"].clone();
    assert_eq!(roles(&html(&app, "/", "").await), serde_json::json!({}));
    let viewer = app.sign_in(false, &[ContributorRole::Viewer], false).await;
    assert_eq!(roles(&html(&app, "/", &viewer).await), serde_json::json!({ "10": true }));
    let both = app.sign_in(false, &[ContributorRole::Editor, ContributorRole::Viewer], false).await;
    assert_eq!(roles(&html(&app, "/?noredirect", &both).await), serde_json::json!({ "4": true, "10": true }));
    let member = app.sign_in(false, &[], true).await;
    assert_eq!(roles(&html(&app, "/", &member).await), serde_json::json!({}));
}

/// The three ids of a page context: analytics, marketing, session.
fn ids(html: &str) -> [serde_json::Value; 3] {
    let c = page_context(html);
    [c["analyticsId"].clone(), c["marketingId"].clone(), c["sessionId"].clone()]
}

const ID_COOKIES: &str = "SS_ANALYTICS_ID=a-1; SS_MID=m_2; SS_SESSION_ID=s-3";

#[actix_rt::test]
async fn a_page_rendered_for_one_visitor_carries_the_ids_of_their_cookies_with_consent() {
    // The demo site has the restrictive cookie policy: the ids need ss_cookieAllowed=true.
    let app = spawn_app().await;
    let with_consent = format!("{ID_COOKIES}; ss_cookieAllowed=true");
    let page = html(&app, "/search?q=coffee", &with_consent).await;
    assert_eq!(ids(&page), [serde_json::json!("a-1"), serde_json::json!("m_2"), serde_json::json!("s-3")]);
    let without = html(&app, "/search?q=coffee", ID_COOKIES).await;
    assert_eq!(ids(&without), [serde_json::Value::Null, serde_json::Value::Null, serde_json::Value::Null]);
    let declined = html(&app, "/search?q=coffee", &format!("{ID_COOKIES}; ss_cookieAllowed=false")).await;
    assert_eq!(ids(&declined), [serde_json::Value::Null, serde_json::Value::Null, serde_json::Value::Null]);
    // An id that is not a word/dash id is not repeated.
    let odd = html(&app, "/search?q=coffee", "SS_ANALYTICS_ID=a|b; SS_SESSION_ID=s-3; ss_cookieAllowed=true").await;
    assert_eq!(ids(&odd), [serde_json::Value::Null, serde_json::Value::Null, serde_json::json!("s-3")]);
    // A signed-in visitor's pages are theirs alone.
    let viewer = app.sign_in(false, &[ContributorRole::Viewer], false).await;
    let page = html(&app, "/about", &format!("{viewer}; {with_consent}")).await;
    assert_eq!(ids(&page)[0], serde_json::json!("a-1"));
}

#[actix_rt::test]
async fn a_page_the_cache_shares_carries_no_visitor_ids() {
    let app = spawn_app().await;
    let first = html(&app, "/about", &format!("{ID_COOKIES}; ss_cookieAllowed=true")).await;
    assert_eq!(ids(&first), [serde_json::Value::Null, serde_json::Value::Null, serde_json::Value::Null]);
    let second = html(&app, "/about", "SS_ANALYTICS_ID=other; ss_cookieAllowed=true").await;
    assert!(!second.contains("a-1") && !second.contains("other"), "a visitor's id in a shared page");
}

/// The `href`s of the page's font stylesheet links (`&` unescaped).
fn font_links(html: &str) -> Vec<String> {
    html.split("<link rel=\"preload\" as=\"style\" href=\"")
        .skip(1)
        .filter(|rest| rest.split('>').next().is_some_and(|tag| tag.contains("data-font-stylesheet")))
        .map(|rest| rest.split('"').next().expect("quoted").replace("&amp;", "&"))
        .collect()
}

#[actix_rt::test]
async fn the_fonts_the_site_names_are_in_the_context_and_linked_from_the_font_services() {
    let dir =
        demo_site_copy(|t| website(t, "googleFonts", toml::Value::Array(vec!["Fraunces".into(), "Inter".into()])));
    let app = spawn_app_with_site(dir.path()).await;
    let page = html(&app, "/", "").await;
    let context = page_context(&page);
    assert_eq!(context["googleFonts"], serde_json::json!([{ "includeName": "Fraunces" }, { "includeName": "Inter" }]));
    assert_eq!(context["typekitFonts"], serde_json::json!([]));
    let google = "https://fonts.googleapis.com/css?family=Fraunces%7CInter&display=swap";
    assert_eq!(font_links(&page), [google]);
    assert!(page.contains(&format!(
        "<noscript><link rel=\"stylesheet\" href=\"{}\"></noscript>",
        google.replace('&', "&amp;")
    )));

    let dir = demo_site_copy(|t| {
        website(t, "googleFonts", toml::Value::Array(vec!["Playfair Display:400,700italic".into()]));
        website(t, "typekitId", "abc1234".into());
        let font: toml::Table = toml::from_str("id = 'proxima-nova'\nvariations = ['n4', 'i7']").expect("TOML");
        website(t, "typekitFonts", toml::Value::Array(vec![toml::Value::Table(font)]));
    });
    let app = spawn_app_configured(dir.path(), |s| s.pages.google_fonts_url = "https://fonts.example/css".into()).await;
    let page = html(&app, "/", "").await;
    let context = page_context(&page);
    assert_eq!(context["typekitFonts"], serde_json::json!([{ "id": "proxima-nova", "variations": ["n4", "i7"] }]));
    assert_eq!(context["website"]["typekitId"], "abc1234");
    assert_eq!(
        font_links(&page),
        [
            "https://fonts.example/css?family=Playfair+Display%3A400%2C700italic&display=swap",
            "https://use.typekit.net/abc1234.css"
        ]
    );
}

#[actix_rt::test]
async fn a_site_without_fonts_links_no_font_service() {
    // The demo site names no fonts.
    let app = spawn_app().await;
    for path in ["/", "/blog", "/search?q=coffee"] {
        let page = html(&app, path, "").await;
        assert_eq!(font_links(&page), Vec::<String>::new(), "{path}");
        assert!(!page.contains("googleapis") && !page.contains("typekit.net"), "{path}");
        assert_eq!(page_context(&page)["fontStylesheets"], serde_json::json!([]));
    }
}

/// `[comments]` of a demo copy.
fn comments(enabled: bool, shortname: Option<&str>) -> tempfile::TempDir {
    demo_site_copy(|t| {
        let mut table = toml::Table::new();
        table.insert("commentsEnabled".into(), enabled.into());
        if let Some(name) = shortname {
            table.insert("disqusShortname".into(), name.into());
        }
        t.insert("comments".into(), toml::Value::Table(table));
    })
}

const POST: &str = "/blog/roasting-our-own";

#[actix_rt::test]
async fn items_of_a_site_with_comments_and_a_short_name_link_their_comment_count() {
    let dir = comments(true, Some("veranda-porch"));
    let app = spawn_app_with_site(dir.path()).await;
    let page = html(&app, POST, "").await;
    let settings = &page_context(&page)["websiteSettings"];
    assert_eq!(settings["commentsEnabled"], true);
    assert_eq!(settings["disqusShortname"], "veranda-porch");
    assert_eq!(settings["commentCountScriptUrl"], "https://veranda-porch.disqus.com/count.js");
    let link =
        page.split("<a class=\"comment-count\"").nth(1).expect("a comment-count link").split('>').next().unwrap_or("");
    assert!(link.contains(&format!("href=\"http://127.0.0.1:8080{POST}#disqus_thread\"")), "{link}");
    assert!(link.contains("data-comment-count"), "{link}");

    for (enabled, name) in [(false, Some("veranda-porch")), (true, None)] {
        let dir = comments(enabled, name);
        let app = spawn_app_with_site(dir.path()).await;
        let page = html(&app, POST, "").await;
        assert_eq!(page_context(&page)["websiteSettings"]["commentCountScriptUrl"], serde_json::Value::Null);
        assert!(!page.contains("comment-count"), "enabled {enabled}, short name {name:?}");
    }
}

#[actix_rt::test]
async fn items_of_a_site_with_comments_have_a_thread_the_thread_script_fills() {
    let dir = comments(true, Some("veranda-porch"));
    let app = spawn_app_with_site(dir.path()).await;
    let page = html(&app, POST, "").await;
    let settings = &page_context(&page)["websiteSettings"];
    assert_eq!(settings["commentThreadScriptUrl"], "https://veranda-porch.disqus.com/embed.js");
    let thread = page.split("<div id=\"disqus_thread\"").nth(1).expect("the thread the count link leads to");
    let (attributes, inside) = thread.split_once('>').unwrap_or_default();
    assert!(attributes.contains("data-comment-thread"), "{attributes}");
    assert!(attributes.contains(&format!("data-comment-url=\"http://127.0.0.1:8080{POST}\"")), "{attributes}");
    assert!(attributes.contains("data-comment-identifier=\""), "{attributes}");
    let offer = inside.split("</div>").next().unwrap_or_default();
    assert!(
        offer.contains("<button type=\"button\" class=\"button\" data-comment-offer hidden>Show comments</button>"),
        "{offer}"
    );
    assert!(offer.contains("<noscript><p>Comments need JavaScript.</p></noscript>"), "{offer}");
    assert!(page.contains("<h2 id=\"comments-heading\">Comments</h2>"));

    let dir = comments(false, Some("veranda-porch"));
    let app = spawn_app_with_site(dir.path()).await;
    let page = html(&app, POST, "").await;
    assert_eq!(page_context(&page)["websiteSettings"]["commentThreadScriptUrl"], serde_json::Value::Null);
    assert!(!page.contains("disqus_thread"), "comments off: no thread and no link to one");
}
