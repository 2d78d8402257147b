//! The content edit APIs: each changes what visitors see on the next request, publishes
//! its editor event on the edits stream, refuses bad calls with a clear 4xx, and survives
//! a restart of the server.

use serde_json::{json, Value};
use veranda_actors::accounts::{SessionRecord, SESSION_COOKIE};
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::site::{BlockData, Site};
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_tests::process::{crumb_with, ServerProcess};
use veranda_tests::{demo_site_dir, spawn_app, spawn_app_with_site, TestApp, Visitor};

use crate::streams::{next_json, put, watch_edits, Socket};

const BLOG: &str = "e6fe1eaa24250e4cd569fa0f";
const EVENTS: &str = "08d9b81775b43b2dcc578471";
const ABOUT: &str = "af4c62082b549d924d8ead37";
const ABOUT_TEXT_BLOCK: &str = "085024dcf58d4d4d826b5c67";

/// The demo blog's published posts: (id, path, title), in directory order.
fn blog_posts(site: &Site) -> Vec<(String, String, String)> {
    let blog = site.collections.iter().find(|c| c.id == BLOG).expect("the demo blog");
    blog.items
        .iter()
        .filter(|i| i.state == veranda_actors::domain::enums::PublicationState::Published)
        .map(|i| (i.id.clone(), blog.item_url(i), i.title.clone()))
        .collect()
}

/// `method path` with `body` as `cookie`'s account, crumb-checked.
async fn send(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> reqwest::Response {
    Visitor::with_cookies(app, cookie).await.call(method, path, body).await
}

async fn html(app: &TestApp, path: &str) -> (u16, String) {
    let res = app.get(path).await;
    (res.status().as_u16(), res.text().await.expect("HTML"))
}

/// The next live event's data, after the `hello` frame was read.
async fn next_event(socket: &mut Socket) -> Value {
    let frame = next_json(socket).await;
    assert_eq!(frame["type"], "event", "{frame}");
    assert!(frame["at"].as_u64().is_some_and(|at| at > 0), "an event carries its time");
    frame["data"].clone()
}

/// Asserts an editor event's name, action, target and the paths it lists.
fn assert_event(data: &Value, name: &str, action: &str, target: (&str, &str), path: Option<&str>) {
    assert_eq!(data["name"], name, "{data}");
    assert!(data["actor"].as_str().is_some_and(|a| a.starts_with("account-")), "{data}");
    assert_eq!(data["action"], action, "{data}");
    assert_eq!((data["objectType"].as_str(), data["objectId"].as_str()), (Some(target.0), Some(target.1)), "{data}");
    assert!(data["productPage"].as_str().is_some_and(|p| !p.is_empty()), "{data}");
    assert!(data["productSection"].as_str().is_some_and(|p| !p.is_empty()), "{data}");
    if let Some(path) = path {
        assert!(data["paths"].as_array().is_some_and(|p| p.iter().any(|p| p == path)), "{path} in {data}");
    }
}

#[actix_rt::test]
async fn hiding_and_showing_an_item_changes_its_page_and_the_listing() {
    hide_and_show_the_first_post(&spawn_app().await).await;
}

#[actix_rt::test]
async fn a_post_under_a_url_pattern_is_hidden_and_shown_at_its_patterned_address() {
    let dir = crate::pages::blog_urls::demo_site_with_dated_blog_urls();
    let app = spawn_app_with_site(dir.path()).await;
    let (_, path, _) = blog_posts(&app.site).remove(0);
    assert_eq!(path.matches('/').count(), 4, "/blog/YYYY/MM/slug: {path}");
    hide_and_show_the_first_post(&app).await;
}

/// An editor hides the demo blog's first post, then shows it again: its page and its place
/// in the listing go and come back, and the edits stream names each change with its path.
async fn hide_and_show_the_first_post(app: &TestApp) {
    let owner = app.sign_in(true, &[], false).await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let mut socket = watch_edits(app, &owner).await;
    let (id, path, title) = blog_posts(&app.site).remove(0);
    assert_eq!(html(app, &path).await.0, 200);
    assert!(html(app, "/blog").await.1.contains(&title));

    let res = put(app, &format!("/api/content/items/{id}/visibility"), &editor, json!({ "state": "draft" })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.expect("JSON")["state"], "draft");
    assert_eq!(html(app, &path).await.0, 404, "a hidden item's page is gone");
    assert!(!html(app, "/blog").await.1.contains(&title), "and it leaves the listing");
    assert_event(&next_event(&mut socket).await, "UserChangesItemVisibility", "hide", ("item", &id), Some("/blog"));

    let res = put(app, &format!("/api/content/items/{id}/visibility"), &editor, json!({ "state": "published" })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(html(app, &path).await.0, 200);
    assert_event(&next_event(&mut socket).await, "UserChangesItemVisibility", "show", ("item", &id), Some(&path));
}

#[actix_rt::test]
async fn content_edits_refuse_strangers_missing_crumbs_unknown_ids_and_bad_bodies() {
    let app = spawn_app().await;
    let viewer = app.sign_in(false, &[ContributorRole::Viewer], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let member = app.sign_in(false, &[], true).await;
    let (id, ..) = blog_posts(&app.site).remove(0);
    let visibility = format!("/api/content/items/{id}/visibility");
    let no_crumb = app
        .client
        .put(format!("{}{visibility}", app.address))
        .header("cookie", &admin)
        .json(&json!({ "state": "draft" }))
        .send()
        .await
        .expect("answered");
    assert_eq!(no_crumb.status(), 403);
    assert_eq!(no_crumb.json::<Value>().await.expect("JSON")["crumbFail"], true);
    let status = |res: reqwest::Response| res.status().as_u16();
    let draft = || Some(json!({ "state": "draft" }));
    assert_eq!(status(send(&app, reqwest::Method::PUT, &visibility, "x=y", draft()).await), 401);
    assert_eq!(status(send(&app, reqwest::Method::PUT, &visibility, &viewer, draft()).await), 403);
    assert_eq!(status(send(&app, reqwest::Method::PUT, &visibility, &member, draft()).await), 403);
    let unknown = send(&app, reqwest::Method::PUT, "/api/content/items/nope/visibility", &admin, draft()).await;
    assert_eq!(unknown.status(), 404);
    assert!(unknown.json::<Value>().await.expect("JSON")["error"].as_str().is_some_and(|e| e.contains("nope")));
    let bad_state = put(&app, &visibility, &admin, json!({ "state": "gone" })).await;
    assert_eq!(bad_state.status(), 400);
    assert!(bad_state.json::<Value>().await.expect("JSON")["error"].as_str().is_some_and(|e| e.contains("published")));
    assert_eq!(status(put(&app, &visibility, &admin, json!({ "visible": true })).await), 400);
    let huge = Some(json!({ "html": "x".repeat(70 * 1024) }));
    assert_eq!(
        status(
            send(&app, reqwest::Method::PUT, &format!("/api/content/blocks/{ABOUT_TEXT_BLOCK}"), &admin, huge).await
        ),
        413
    );
    let settings = format!("/api/content/collections/{BLOG}/settings");
    assert_eq!(status(put(&app, &settings, &admin, json!({})).await), 400);
    assert_eq!(status(put(&app, &settings, &admin, json!({ "title": " " })).await), 400);
    assert_eq!(status(send(&app, reqwest::Method::GET, &settings, &admin, None).await), 405);
    assert_eq!(html(&app, "/blog").await.0, 200, "nothing was changed");
}

#[actix_rt::test]
async fn collection_and_page_settings_show_in_the_page_titles() {
    let app = spawn_app().await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let mut socket = watch_edits(&app, &admin).await;
    let body = json!({ "title": "Porch Notes", "description": "Stories <b>from</b> the porch." });
    let res = put(&app, &format!("/api/content/collections/{BLOG}/settings"), &admin, body).await;
    assert_eq!(res.status(), 200);
    let (_, blog) = html(&app, "/blog").await;
    assert!(blog.contains("<title>Porch Notes"), "the collection's title is its page title");
    assert!(blog.contains(r#"content="Stories from the porch.""#), "the description is plain text");
    assert_event(
        &next_event(&mut socket).await,
        "UserSavesCollectionSettings",
        "save",
        ("collection", BLOG),
        Some("/blog"),
    );

    let res =
        put(&app, &format!("/api/content/pages/{ABOUT}/settings"), &admin, json!({ "title": "Who we are" })).await;
    assert_eq!(res.status(), 200);
    assert!(html(&app, "/about").await.1.contains("<title>Who we are"));
    assert_event(&next_event(&mut socket).await, "UserSavesPageSettings", "save", ("page", ABOUT), Some("/about"));
    let res = put(&app, "/api/content/pages/none/settings", &admin, json!({ "title": "x" })).await;
    assert_eq!(res.status(), 404);
}

#[actix_rt::test]
async fn moving_items_reorders_the_listing_and_moving_across_kinds_is_refused() {
    let app = spawn_app().await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let mut socket = watch_edits(&app, &admin).await;
    let posts = blog_posts(&app.site);
    assert!(posts.len() >= 2);
    let order = |listing: &str| {
        let mut at: Vec<(usize, String)> =
            posts.iter().filter_map(|(_, _, t)| listing.find(t.as_str()).map(|i| (i, t.clone()))).collect();
        at.sort();
        at.into_iter().map(|(_, t)| t).collect::<Vec<_>>()
    };
    let before = order(&html(&app, "/blog").await.1);
    let (last_id, last_path, last_title) =
        posts.iter().find(|(_, _, t)| *t == before[before.len() - 1]).expect("a post").clone();
    let res = put(&app, &format!("/api/content/items/{last_id}/position"), &editor, json!({ "position": 0 })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.expect("JSON")["position"], 0);
    let after = order(&html(&app, "/blog").await.1);
    assert_eq!(after[0], last_title, "the moved post leads the listing");
    assert_eq!(after[1..], before[..before.len() - 1]);
    assert_eq!(html(&app, &last_path).await.0, 200, "and keeps its page");
    assert_event(&next_event(&mut socket).await, "UserMovesCollectionItem", "move", ("item", &last_id), Some("/blog"));

    let across = Some(json!({ "position": 0, "collectionId": EVENTS }));
    let res =
        send(&app, reqwest::Method::PUT, &format!("/api/content/items/{last_id}/position"), &editor, across).await;
    assert_eq!(res.status(), 409);

    let res =
        put(&app, &format!("/api/content/collections/{EVENTS}/position"), &editor, json!({ "position": 0 })).await;
    assert_eq!(res.status(), 200);
    let answer: Value = res.json().await.expect("JSON");
    assert_eq!(answer["order"][0], EVENTS);
    assert_eq!(answer["order"].as_array().map(Vec::len), Some(app.site.collections.len()));
    assert_event(&next_event(&mut socket).await, "UserMovesCollection", "move", ("collection", EVENTS), None);
}

#[actix_rt::test]
async fn a_blog_thumbnail_is_set_and_removed() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    let mut socket = watch_edits(&app, &owner).await;
    let (id, path, _) = blog_posts(&app.site).remove(0);
    let thumbnail = format!("/api/content/items/{id}/thumbnail");
    let res = put(&app, &thumbnail, &owner, json!({ "image": "mug.png" })).await;
    assert_eq!(res.status(), 200);
    assert!(html(&app, &path).await.1.contains("/images/mug.png"));
    assert_event(&next_event(&mut socket).await, "UserChangesBlogThumbnail", "save", ("item", &id), Some(&path));

    let res = send(&app, reqwest::Method::DELETE, &thumbnail, &owner, None).await;
    assert_eq!(res.status(), 200);
    assert!(!html(&app, &path).await.1.contains("/images/mug.png"));
    assert_event(&next_event(&mut socket).await, "UserRemovesBlogThumbnail", "remove", ("item", &id), Some(&path));

    for name in ["missing.png", "../site.toml", ""] {
        let res = put(&app, &thumbnail, &owner, json!({ "image": name })).await;
        assert_eq!(res.status(), 400, "{name}");
    }
    let product = &app
        .site
        .collections
        .iter()
        .find(|c| c.kind != veranda_actors::site::CollectionKind::Blog && !c.items.is_empty())
        .expect("a non-blog item")
        .items[0];
    let res =
        put(&app, &format!("/api/content/items/{}/thumbnail", product.id), &owner, json!({ "image": "mug.png" })).await;
    assert_eq!(res.status(), 409);
}

#[actix_rt::test]
async fn a_text_blocks_content_is_replaced_sanitised() {
    let app = spawn_app().await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let mut socket = watch_edits(&app, &app.sign_in(true, &[], false).await).await;
    let body = json!({ "html": "<p>Fresh <em>scones</em> daily</p><script>alert(1)</script>" });
    let res = put(&app, &format!("/api/content/blocks/{ABOUT_TEXT_BLOCK}"), &editor, body).await;
    assert_eq!(res.status(), 200);
    let (_, about) = html(&app, "/about").await;
    let block = about.split(&format!("id=\"block-{ABOUT_TEXT_BLOCK}\"")).nth(1).expect("the block");
    assert!(block.contains("<p>Fresh <em>scones</em> daily</p>"), "{block}");
    assert!(!about.contains("alert(1)"));
    assert!(!about.contains("<h1>About the Veranda</h1>"), "the old text is gone");
    assert_event(
        &next_event(&mut socket).await,
        "UserSavesBlockContent",
        "save",
        ("block", ABOUT_TEXT_BLOCK),
        Some("/about"),
    );

    let other = app
        .site
        .pages
        .iter()
        .flat_map(|p| &p.blocks)
        .find(|b| !matches!(b.data, BlockData::Text(_)))
        .expect("a block that is not text");
    let res = put(&app, &format!("/api/content/blocks/{}", other.id), &editor, json!({ "html": "<p>x</p>" })).await;
    assert_eq!(res.status(), 409);
    let res = put(&app, "/api/content/blocks/nothing", &editor, json!({ "html": "<p>x</p>" })).await;
    assert_eq!(res.status(), 404);
}

#[actix_rt::test]
async fn content_edits_survive_a_killed_server() {
    let data = tempfile::tempdir().expect("a data dir");
    let session = "content-edits-owner";
    {
        let store = SledStore::open(data.path()).expect("the store opens");
        let record = SessionRecord {
            account_id: "account-owner".into(),
            owner: true,
            roles: Vec::new(),
            member: false,
            expires_at: i64::MAX,
        };
        store
            .put(Tree::Sessions, session.as_bytes(), &serde_json::to_vec(&record).expect("JSON"))
            .await
            .expect("stored");
        store.close().expect("closed");
    }
    let site = Site::load(demo_site_dir()).expect("the demo site loads");
    let (id, path, _) = blog_posts(&site).remove(0);
    let client = reqwest::Client::new();
    let server = ServerProcess::start(data.path()).await;
    let crumb = crumb_with(&server.address, Some(&format!("{SESSION_COOKIE}={session}"))).await;
    let edit = |path: String, body: Value| {
        client
            .put(format!("{}{path}", server.address))
            .header("cookie", format!("{SESSION_COOKIE}={session}; crumb={crumb}"))
            .header("x-csrf-token", crumb.as_str())
            .json(&body)
            .send()
    };
    let res =
        edit(format!("/api/content/items/{id}/visibility"), json!({ "state": "private" })).await.expect("answered");
    assert_eq!(res.status(), 200);
    let res = edit(format!("/api/content/pages/{ABOUT}/settings"), json!({ "title": "Kept after a crash" }))
        .await
        .expect("answered");
    assert_eq!(res.status(), 200);
    drop(server);

    let server = ServerProcess::start(data.path()).await;
    let item = client.get(format!("{}{path}", server.address)).send().await.expect("answered");
    assert_eq!(item.status(), 404, "the item is still hidden");
    let about =
        client.get(format!("{}/about", server.address)).send().await.expect("answered").text().await.expect("HTML");
    assert!(about.contains("<title>Kept after a crash"));
    let on_disk = std::fs::read_to_string(demo_site_dir().join("pages/about.toml")).expect("readable");
    assert!(!on_disk.contains("Kept after a crash"), "the site directory is not rewritten");
}
