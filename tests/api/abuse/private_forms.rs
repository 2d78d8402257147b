//! A form on a page the visitor cannot open (members only, behind a password, or on an unpublished item) refuses
//! its submissions and its thank-you view exactly as a form that does not exist: 404, "This form has not been
//! configured yet.". The same form works for a visitor who can open its page.

use std::path::Path;

use serde_json::{json, Value};
use veranda_tests::{demo_site_copy, spawn_app_with_site, TestApp, Visitor};

const KEY_PATH: &str = "/api/form/FormSubmissionKey";
const SAVE_PATH: &str = "/api/form/SaveFormSubmission";
const NOT_CONFIGURED: &str = "This form has not been configured yet.";

/// A form block `form_id` with one required text field, appended to the site file `file`.
fn add_form(site: &Path, file: &str, block_id: &str, form_id: &str) {
    let path = site.join(file);
    let mut text = std::fs::read_to_string(&path).expect("the demo file");
    text.push_str(&format!(
        "\n[[blocks]]\nkind = \"form\"\nid = \"{block_id}\"\nformId = \"{form_id}\"\ntitle = \"Write to us\"\n\
         submitButtonText = \"Send\"\nsuccessMessage = \"Thanks from {form_id}.\"\n\n\
         [[blocks.fields]]\nid = \"message\"\ntype = \"text\"\ntitle = \"Message\"\nrequired = true\n"
    ));
    std::fs::write(&path, text).expect("the site copy is writable");
}

/// The demo site with a form on the members page, on the password page and on the draft blog post.
fn site_with_private_forms() -> tempfile::TempDir {
    let dir = demo_site_copy(|_| {});
    add_form(dir.path(), "pages/members.toml", "a1b2c3d4e5f6a1b2c3d4e5f1", "members-letter");
    add_form(dir.path(), "pages/private.toml", "a1b2c3d4e5f6a1b2c3d4e5f2", "private-letter");
    add_form(dir.path(), "collections/blog/items/draft-post.toml", "a1b2c3d4e5f6a1b2c3d4e5f3", "draft-letter");
    dir
}

/// Asks for a key and submits `form_id` as `visitor`: the answer's status and JSON.
async fn submit(visitor: &mut Visitor<'_>, form_id: &str) -> (u16, Value) {
    let res = visitor.post(KEY_PATH, &json!(null)).await;
    assert_eq!(res.status(), 200, "a key");
    let key = res.json::<Value>().await.expect("json")["key"].as_str().expect("a key").to_string();
    let form = json!({ "message": "hello" }).to_string();
    let res = visitor.post(SAVE_PATH, &json!({ "key": key, "formId": form_id, "form": form })).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A plain HTML post of `form_id` (no script): the answer's status.
async fn plain_post(visitor: &mut Visitor<'_>, form_id: &str) -> u16 {
    visitor.post_form(SAVE_PATH, &[("formId", form_id), ("message", "hello")]).await.status().as_u16()
}

async fn thank_you(visitor: &mut Visitor<'_>, form_id: &str) -> (u16, String) {
    let res = visitor.get(&format!("/api/form/thank-you?formId={form_id}")).await;
    (res.status().as_u16(), res.text().await.expect("a body"))
}

fn assert_refused(form_id: &str, (status, body): (u16, Value)) {
    assert_eq!(status, 404, "{form_id}: {body}");
    assert_eq!(body["error"], NOT_CONFIGURED, "{form_id}");
}

async fn assert_closed(visitor: &mut Visitor<'_>, form_id: &str) {
    assert_refused(form_id, submit(visitor, form_id).await);
    assert_eq!(plain_post(visitor, form_id).await, 404, "{form_id}: the plain post");
    let (status, html) = thank_you(visitor, form_id).await;
    assert_eq!(status, 404, "{form_id}: the thank-you view");
    assert!(!html.contains(&format!("Thanks from {form_id}.")), "{form_id}: the success message stays hidden");
}

async fn assert_open(visitor: &mut Visitor<'_>, form_id: &str) {
    let (status, body) = submit(visitor, form_id).await;
    assert_eq!(status, 200, "{form_id}: {body}");
    let (status, html) = thank_you(visitor, form_id).await;
    assert_eq!(status, 200, "{form_id}");
    assert!(html.contains(&format!("Thanks from {form_id}.")), "{form_id}");
}

#[actix_rt::test]
async fn a_stranger_cannot_use_forms_on_pages_they_cannot_open() {
    let dir = site_with_private_forms();
    let app: TestApp = spawn_app_with_site(dir.path()).await;
    let mut stranger = Visitor::new(&app).await;
    for form_id in ["members-letter", "private-letter", "draft-letter"] {
        assert_closed(&mut stranger, form_id).await;
    }
    // A signed-in account without member access (no membership, no role) is no member either.
    let account = app.sign_in(false, &[], false).await;
    let mut account = Visitor::with_cookies(&app, &account).await;
    assert_closed(&mut account, "members-letter").await;
}

#[actix_rt::test]
async fn a_visitor_who_can_open_the_page_can_use_its_form() {
    let dir = site_with_private_forms();
    let app = spawn_app_with_site(dir.path()).await;
    let member = app.sign_in(false, &[], true).await;
    let mut member = Visitor::with_cookies(&app, &member).await;
    assert_open(&mut member, "members-letter").await;

    let mut reader = Visitor::new(&app).await;
    reader.get("/private").await;
    let res = reader.post_form("/private", &[("password", "veranda")]).await;
    assert_eq!(res.status(), 303, "the page unlocks");
    assert_open(&mut reader, "private-letter").await;
    assert_closed(&mut reader, "members-letter").await;
}
