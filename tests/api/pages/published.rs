//! Published pages and page types.

use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::spec;
use veranda_tests::{
    demo_site_copy, page_context, pair, set_cookie, spawn_app, spawn_app_with_site, text_with_status, TestApp,
};

fn page_type(html: &str) -> u64 {
    page_context(html)["pageType"].as_u64().expect("pageType is a number")
}

#[actix_rt::test]
async fn every_published_url_renders_with_its_blocks_and_page_context() {
    let app = spawn_app().await;
    let urls = app.site.published_urls();
    assert!(urls.len() >= 10, "the demo site publishes its pages: {urls:?}");
    for url in urls {
        let res = app.get(&url).await;
        assert_eq!(res.status(), 200, "{url}");
        let content_type = res.headers()["content-type"].to_str().expect("ascii").to_string();
        assert!(content_type.starts_with("text/html"), "{url}: {content_type}");
        let html = res.text().await.expect("body");
        let context = page_context(&html);
        assert_eq!(context["website"]["id"], app.site.settings.website.id.as_str(), "{url}");
        assert_eq!(context["pagePath"], url.as_str());
    }
}

#[actix_rt::test]
async fn every_block_carries_its_id_type_and_json() {
    let app = spawn_app().await;
    let mut seen = std::collections::BTreeSet::new();
    for page in &app.site.pages {
        if page.access != veranda_actors::site::Access::Public {
            continue;
        }
        let html = app.get(&page.url).await.text().await.expect("body");
        for block in &page.blocks {
            let marker = format!("id=\"block-{}\"", block.id);
            let at = html.find(&marker).unwrap_or_else(|| panic!("{}: block {} is rendered", page.url, block.id));
            let tag_end = html[at..].find('>').expect("the tag ends") + at;
            let tag = &html[at..tag_end];
            assert!(tag.contains(&format!("data-block-type=\"{}\"", block.kind().name())), "{tag}");
            assert!(tag.contains("data-block-json="), "{tag}");
            seen.insert(block.kind().name());
        }
    }
    for kind in veranda_actors::site::BlockKind::ALL {
        assert!(seen.contains(kind.name()), "the demo pages render a {} block", kind.name());
    }
}

#[actix_rt::test]
async fn page_types_follow_what_the_path_names() {
    let app = spawn_app().await;
    let home = app.get("/").await.text().await.expect("body");
    assert_eq!(page_type(&home), spec::page_type("Page"));
    let blog = app.get("/blog").await.text().await.expect("body");
    assert_eq!(page_type(&blog), spec::page_type("MainContent"));
    let blog_collection = app.site.collection("blog").expect("the demo has a blog");
    let post = blog_collection
        .items
        .iter()
        .find(|i| i.state == veranda_actors::domain::enums::PublicationState::Published)
        .expect("a post");
    let item = app.get(&format!("/blog/{}", post.url_id)).await.text().await.expect("body");
    assert_eq!(page_type(&item), spec::page_type("ContentItem"));
    assert_eq!(page_context(&item)["itemId"], post.id.as_str());
    let search = app.get("/search?q=coffee").await.text().await.expect("body");
    assert_eq!(page_type(&search), spec::page_type("Search"));
}

#[actix_rt::test]
async fn a_search_with_a_collection_finds_only_that_collections_items() {
    let app = spawn_app().await;
    // The result links: the `href`s of the results list.
    let links = |html: &str| -> Vec<String> {
        let list = html.split("class=\"search-results\"").nth(1).unwrap_or("");
        let list = list.split("</ol>").next().unwrap_or("");
        list.split("href=\"").skip(1).filter_map(|rest| rest.split('"').next()).map(str::to_string).collect()
    };
    let everywhere = links(&app.get("/search?q=the").await.text().await.expect("body"));
    assert!(everywhere.iter().any(|href| !href.starts_with("/blog/")), "pages are found too: {everywhere:?}");
    let in_blog = links(&app.get("/search?q=the&collection=blog").await.text().await.expect("body"));
    assert!(!in_blog.is_empty() && in_blog.iter().all(|href| href.starts_with("/blog/")), "{in_blog:?}");
    let again = app.get("/search?q=the&collection=blog").await.text().await.expect("body");
    assert!(again.contains(r#"name="collection" value="blog""#), "searching again stays in the collection");
}

#[actix_rt::test]
async fn an_unknown_path_is_a_404_page_with_page_type_100() {
    let app = spawn_app().await;
    // The last ones start as routed paths do (`/search`, `/cart`, `/sitemap.xml`, `/config`,
    // `/checkout`) and are none of them.
    let routed_starts = ["/searching", "/cartography", "/sitemap.xml.bak", "/configure", "/checkouts"];
    let paths = ["/no-such-page", "/blog/no-such-post", "/blog/draft-post", "/api/unknown", "/%ff%fe", "/a/b/c/d/e/f"];
    for path in paths.into_iter().chain(routed_starts) {
        let html = text_with_status(app.get(path).await, 404).await;
        assert_eq!(page_type(&html), 100, "{path}");
        assert_eq!(page_context(&html)["analyticsEnabled"], false, "{path}");
    }
}

#[actix_rt::test]
async fn a_password_page_shows_the_lock_screen() {
    let app = spawn_app().await;
    let html = text_with_status(app.get("/private").await, 200).await;
    assert!(html.contains("This page is locked"));
    assert_eq!(page_type(&html), spec::page_type("LockScreen"));
    assert_eq!(page_context(&html)["analyticsEnabled"], false);
}

/// `/members` for a signed-in account that is a member or not; asserts `status`, returns the HTML.
async fn members_page_as(app: &TestApp, member: bool, status: u16) -> String {
    let cookie = app.sign_in(false, &[], member).await;
    text_with_status(app.get_with("/members", &[("cookie", &cookie)]).await, status).await
}

#[actix_rt::test]
async fn a_member_page_is_closed_to_visitors_and_open_to_members() {
    let app = spawn_app().await;
    let visitor = app.get("/members").await.text().await.expect("body");
    assert!(visitor.contains("This page available only site members"));
    assert_eq!(page_type(&visitor), spec::page_type("ProtectedContent"));

    let html = members_page_as(&app, true, 200).await;
    assert!(!html.contains("This page available only site members"));
    assert_eq!(page_type(&html), spec::page_type("Page"));

    let html = members_page_as(&app, false, 403).await;
    assert_eq!(page_type(&html), spec::page_type("MemberAreaAccessDenied"));
    assert_eq!(page_context(&html)["analyticsEnabled"], false);
}

#[actix_rt::test]
async fn the_logout_landing_shows_the_information_dialog() {
    let app = spawn_app().await;
    let html = app.get("/?logout=true").await.text().await.expect("body");
    assert!(html.contains("Logout Successful"));
    assert!(html.contains("You have been successfully logged out."));
    let plain = app.get("/").await.text().await.expect("body");
    assert!(!plain.contains("Logout Successful"));
}

#[actix_rt::test]
async fn content_links_split_filters_from_the_url_id() {
    let app = spawn_app().await;
    let blog = app.site.collection("blog").expect("blog");
    let category = blog.items.iter().flat_map(|i| i.categories.iter()).next().expect("a category").clone();
    let html =
        app.get(&format!("/blog?category={}&nomotion=true", urlencode(&category))).await.text().await.expect("body");
    let context = page_context(&html);
    assert_eq!(context["filters"]["category"], category.as_str());
    assert!(context["filters"].get("nomotion").is_none());
    assert_eq!(context["pagePath"], "/blog");
}

#[actix_rt::test]
async fn access_permissions_come_from_the_signed_in_account() {
    // Spec 000 §3 permission ids: authenticated with no site permissions 0, config 1, admin 2.
    let app = spawn_app().await;
    let permissions = |html: &str| page_context(html)["accessPermissions"].clone();
    let visitor = app.get("/").await.text().await.expect("body");
    assert_eq!(permissions(&visitor), serde_json::json!([]));
    for (owner, roles, member, expected) in [
        (true, vec![], false, serde_json::json!([1, 2])),
        (false, vec![ContributorRole::Admin], false, serde_json::json!([1, 2])),
        (false, vec![ContributorRole::Editor], false, serde_json::json!([1])),
        (false, vec![ContributorRole::Viewer], false, serde_json::json!([0])),
        (false, vec![], true, serde_json::json!([0])),
    ] {
        let cookie = app.sign_in(owner, &roles, member).await;
        let html = app.get_with("/?noredirect", &[("cookie", &cookie)]).await.text().await.expect("body");
        assert_eq!(permissions(&html), expected, "owner {owner}, roles {roles:?}, member {member}");
    }
}

#[actix_rt::test]
async fn analytics_are_off_for_signed_in_owners_and_on_for_viewers() {
    let app = spawn_app().await;
    let visitor = page_context(&app.get("/").await.text().await.expect("body"));
    assert_eq!(visitor["analyticsEnabled"], true);
    let viewer = app.sign_in(false, &[ContributorRole::Viewer], false).await;
    let html = app.get_with("/", &[("cookie", &viewer)]).await.text().await.expect("body");
    assert_eq!(page_context(&html)["analyticsEnabled"], true);
    assert_eq!(page_context(&html)["websiteRoles"], serde_json::json!({ "10": true }));
    let owner = app.sign_in(true, &[], false).await;
    let html = app.get_with("/?noredirect", &[("cookie", &owner)]).await.text().await.expect("body");
    assert_eq!(page_context(&html)["analyticsEnabled"], false);
}

#[actix_rt::test]
async fn state_changing_methods_on_pages_are_405() {
    let app = spawn_app().await;
    for method in [reqwest::Method::POST, reqwest::Method::PUT, reqwest::Method::DELETE] {
        let res = app.client.request(method.clone(), format!("{}/about", app.address)).send().await.expect("answered");
        assert_eq!(res.status(), 405, "{method}");
    }
}

#[actix_rt::test]
async fn html_is_revalidated_with_an_etag() {
    let app = spawn_app().await;
    let res = app.get("/about").await;
    assert_eq!(res.headers()["cache-control"], "private, no-cache");
    let etag = res.headers()["etag"].to_str().expect("ascii").to_string();
    let again = app.get_with("/about", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status(), 304);
}

#[actix_rt::test]
async fn head_requests_are_answered() {
    let app = spawn_app().await;
    let res = app.client.head(format!("{}/about", app.address)).send().await.expect("answered");
    assert_eq!(res.status(), 200);
}

#[actix_rt::test]
async fn the_sitemap_lists_every_published_url() {
    let app = spawn_app().await;
    let xml = text_with_status(app.get("/sitemap.xml").await, 200).await;
    for url in app.site.published_urls() {
        assert!(
            xml.contains(&format!("{}{}</loc>", app.site.settings.website.base_url.trim_end_matches('/'), url)),
            "{url}"
        );
    }
    assert!(!xml.contains("/private<"), "locked pages are not listed");
}

fn urlencode(s: &str) -> String {
    s.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

#[actix_rt::test]
async fn pages_hand_out_a_crumb_cookie_once() {
    let app = spawn_app().await;
    let res = app.get("/").await;
    let crumb = set_cookie(&res, "crumb").expect("a crumb cookie is set");
    assert!(crumb.contains("SameSite=Lax") && crumb.contains("Path=/"), "{crumb}");
    let again = app.get_with("/about", &[("cookie", &pair(&crumb))]).await;
    assert!(set_cookie(&again, "crumb").is_none());
    let forged = app.get_with("/about", &[("cookie", "crumb=forged.value")]).await;
    assert!(set_cookie(&forged, "crumb").is_some());
}

#[actix_rt::test]
async fn a_product_page_shows_weight_and_dimensions_in_the_store_units() {
    // Spec 000 §9: weight unit lbs if imperial, else kg; dimension unit inches if imperial,
    // else cm. The demo store is imperial; its mug weighs 0.5 and measures 4 × 4 × 4.5.
    let app = spawn_app().await;
    let html = app.get("/shop/enamel-mug").await.text().await.expect("body");
    assert!(html.contains("<dt>Weight</dt><dd>0.5 lbs</dd>"), "{html}");
    assert!(html.contains("<dt>Dimensions</dt><dd>4 × 4 × 4.5 inches</dd>"), "{html}");
    let metric = demo_site_copy(|site| {
        site["store"].as_table_mut().expect("a store table").insert("measurementSystem".into(), "metric".into());
    });
    let app = spawn_app_with_site(metric.path()).await;
    let html = app.get("/shop/enamel-mug").await.text().await.expect("body");
    assert!(html.contains("<dd>0.5 kg</dd>") && html.contains("<dd>4 × 4 × 4.5 cm</dd>"), "{html}");
}
