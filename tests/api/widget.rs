//! `POST /api/widget/GetWidgetRendering` (000 §7): form-encoded `widgetJSON` with `type`,
//! `id` (no `block-` prefix) and `value`; `collectionId` for event summaries. Answers
//! `{html}` rendered from the site's public collections; bad input gets a 4xx with a message.

use serde_json::{json, Value};
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site, TestApp};

const PATH: &str = "/api/widget/GetWidgetRendering";
const BLOCK_ID: &str = "a1b2c3d4e5f6a7b8c9d0e1f2";
const EVENTS_ID: &str = "08d9b81775b43b2dcc578471";
const BLOG_ID: &str = "e6fe1eaa24250e4cd569fa0f";

async fn post(app: &TestApp, form: &[(&str, &str)]) -> (u16, Value) {
    let res = app.client.post(format!("{}{PATH}", app.address)).form(form).send().await.expect("request");
    let status = res.status().as_u16();
    (status, res.json().await.expect("a JSON answer"))
}

fn widget(kind: &str, id: &str, value: Value) -> String {
    json!({ "type": kind, "id": id, "value": value }).to_string()
}

#[actix_rt::test]
async fn a_summary_is_rendered_from_the_collection() {
    let app = spawn_app().await;
    let json =
        widget("summary", BLOCK_ID, json!({ "collection": "blog", "headerText": "From the blog", "pageSize": 2 }));
    let (status, body) = post(&app, &[("widgetJSON", &json)]).await;
    assert_eq!(status, 200, "{body}");
    let html = body["html"].as_str().expect("html");
    assert!(html.contains("<h2>From the blog</h2>"), "{html}");
    assert!(html.contains("View all in"), "{html}");
    assert_eq!(html.matches("<li").count(), 2, "page size is kept: {html}");
    assert!(!html.contains("not ready yet"), "drafts stay out: {html}");
    assert!(!html.contains("block-"), "only the content, not the block element: {html}");
}

#[actix_rt::test]
async fn a_summary_sent_back_as_the_page_carries_it_with_its_layout_variant_is_rendered() {
    let app = spawn_app().await;
    // The summary list design's spec id (001 §3: layout variants 1000-1019, in the order listed).
    let value = json!({ "collection": "blog", "design": "list", "layoutVariant": 1006, "pageSize": 1 });
    let (status, body) = post(&app, &[("widgetJSON", &widget("summary", BLOCK_ID, value))]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["html"].as_str().expect("html").matches("<li").count(), 1, "{body}");
}

#[actix_rt::test]
async fn an_event_summary_reads_its_collection_id() {
    let app = spawn_app().await;
    let json = widget("summary", BLOCK_ID, json!({ "collection": "blog", "pageSize": 10 }));
    let (status, body) = post(&app, &[("widgetJSON", &json), ("collectionId", EVENTS_ID)]).await;
    assert_eq!(status, 200, "{body}");
    let html = body["html"].as_str().expect("html");
    assert!(html.contains("Latte art for beginners"), "{html}");
    assert!(!html.contains("sourdough"), "{html}");

    let (status, body) = post(&app, &[("widgetJSON", &json), ("collectionId", BLOG_ID)]).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("collectionId must name an events collection.")));
    let (status, _) = post(&app, &[("widgetJSON", &json), ("collectionId", "ffffffffffffffffffffffff")]).await;
    assert_eq!(status, 404);
}

/// A refused widget call: its form fields, the status and the message expected.
type BadCall<'a> = (Vec<(&'a str, String)>, u16, &'a str);

#[actix_rt::test]
async fn bad_requests_are_refused_with_a_message() {
    let app = spawn_app().await;
    let summary = json!({ "collection": "blog" });
    let cases: Vec<BadCall> = vec![
        (vec![("widgetJSON", "{not json".to_string())], 400, "widgetJSON could not be decoded"),
        (vec![("widgetJSON", json!({ "id": BLOCK_ID }).to_string())], 400, "widgetJSON could not be decoded"),
        (vec![("collectionId", EVENTS_ID.to_string())], 400, "widgetJSON is required."),
        (vec![("widgetJSON", widget("summary", &format!("block-{BLOCK_ID}"), summary.clone()))], 400, "block- prefix"),
        (vec![("widgetJSON", widget("summary", "short", summary.clone()))], 400, "24 lowercase"),
        (vec![("widgetJSON", widget("gallery", BLOCK_ID, summary.clone()))], 400, "'gallery' is not a widget type"),
        (vec![("widgetJSON", widget("summary", BLOCK_ID, json!({ "collection": 3 })))], 400, "not a summary block"),
        (vec![("widgetJSON", widget("summary", BLOCK_ID, json!({ "collection": "nope" })))], 404, "'nope'"),
    ];
    for (form, expected, words) in cases {
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, body) = post(&app, &form).await;
        let message = body["error"].as_str().unwrap_or_default();
        assert_eq!(status, expected, "{form:?}: {body}");
        assert!(message.contains(words), "{form:?}: {message}");
    }
}

#[actix_rt::test]
async fn oversized_bodies_and_other_methods_are_refused() {
    let app = spawn_app().await;
    let big = "x".repeat(70 * 1024);
    let res = app.client.post(format!("{}{PATH}", app.address)).form(&[("widgetJSON", big.as_str())]).send().await;
    assert_eq!(res.expect("request").status().as_u16(), 413);
    let res = app.client.get(format!("{}{PATH}", app.address)).send().await.expect("request");
    assert!(res.status().is_client_error(), "{}", res.status());
}

#[actix_rt::test]
async fn collections_only_members_see_are_not_rendered() {
    let site = demo_site_copy(|_| {});
    let path = site.path().join("collections/blog/collection.toml");
    let text = std::fs::read_to_string(&path).expect("collection.toml");
    std::fs::write(&path, format!("access = \"members\"\n{text}")).expect("writes");
    let app = spawn_app_with_site(site.path()).await;
    let json = widget("summary", BLOCK_ID, json!({ "collection": "blog" }));
    let (status, body) = post(&app, &[("widgetJSON", &json)]).await;
    assert_eq!(status, 404, "{body}");
    assert!(!body.to_string().contains("sourdough"), "{body}");
}
