//! Form submissions: the key, the save call with every field kind, each refusal, the
//! newsletter list, the success redirect, and the owner's export.

use base64::Engine;
use serde_json::{json, Value};
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::store::Tree;
use veranda_tests::{
    assert_refused, crumb, demo_site_with_redirect, spawn_app, spawn_app_with_crumb, spawn_app_with_site, TestApp,
};

pub(crate) const KEY_PATH: &str = "/api/form/FormSubmissionKey";
pub(crate) const SAVE_PATH: &str = "/api/form/SaveFormSubmission";
pub(crate) const CHALLENGE_PATH: &str = "/api/form/captcha/challenge";

/// A POST to `path` with `cookie` as the crumb cookie and `header` as the crumb header.
fn post_to(app: &TestApp, path: &str, cookie: &str, header: &str) -> reqwest::RequestBuilder {
    app.client
        .post(format!("{}{path}", app.address))
        .header("cookie", format!("crumb={cookie}"))
        .header("X-CSRF-Token", header)
}

/// POSTs `body` as JSON with the crumb as cookie and header.
pub(crate) async fn post(app: &TestApp, path: &str, crumb: &str, body: &Value) -> reqwest::Response {
    post_to(app, path, crumb, crumb).json(body).send().await.expect("answered")
}

/// POSTs `body` to the save call as `content_type`, with the crumb as cookie and header.
async fn post_save_as(app: &TestApp, crumb: &str, content_type: &str, body: String) -> reqwest::Response {
    let req = post_to(app, SAVE_PATH, crumb, crumb).header("content-type", content_type);
    req.body(body).send().await.expect("answered")
}

pub(crate) async fn key(app: &TestApp, crumb: &str) -> String {
    let res = post(app, KEY_PATH, crumb, &json!(null)).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.expect("json");
    body["key"].as_str().expect("a key").to_string()
}

/// A complete contact form: every field kind of the demo's `contact` form.
pub(crate) fn contact_values() -> Value {
    json!({
        "name": ["Ada", "Lovelace"],
        "email": "ada@example.com",
        "phone": ["555", "014", "2000"],
        "address": {"Line1": "12 Linden Street", "Line2": "", "City": "Riverton", "State": "NY", "Zip": "10001", "Country": "United States"},
        "website": "https://ada.example",
        "twitter": "@ada",
        "subject": "Porch party",
        "message": "Could we book the porch?",
        "guests": "12",
        "budget": "25.50",
        "date": ["06", "21", "2025"],
        "time": ["7", "30", "", "PM"],
        "occasion": ["Work gathering", "Birthday"],
        "extras": ["Cake", "Live music"],
        "heard-from": "Walking past",
        "visit": {"The coffee": "2", "The food": "-1"},
        "booking-code": "PORCH-7"
    })
}

/// The contact form of [`contact_values`] as the export shows it: the phone with an
/// empty country code, the address as a list, one occasion, and the hidden `source`.
pub(crate) fn stored_contact_values() -> Value {
    let mut stored = contact_values();
    stored["phone"] = json!(["", "555", "014", "2000"]);
    stored["address"] = json!(["12 Linden Street", "", "Riverton", "NY", "10001", "United States"]);
    // Spec 000 §3: likert is a map from question to its checked answers.
    stored["visit"] = json!({"The coffee": ["2"], "The food": ["-1"]});
    stored["occasion"] = json!("Work gathering");
    stored["source"] = json!("contact-page");
    stored
}

/// [`contact_values`] with the fields in `changes` set to other values.
fn contact_values_with<const N: usize>(changes: [(&str, Value); N]) -> Value {
    let mut values = contact_values();
    for (field, value) in changes {
        values[field] = value;
    }
    values
}

pub(crate) fn payload(form_id: &str, key: &str, form: Value) -> Value {
    json!({
        "key": key, "formId": form_id, "collectionId": null, "objectName": "60cf1b6dcc64273709bf1e5b",
        "isOverlayForm": false, "submitButtonText": "Send message", "form": form.to_string(),
        "pageTitle": "Contact", "pageId": "d9c69c3fec4c048f374ed236",
        "contentSource": "c", "pagePath": "/contact", "pagePermissionTypeValue": 1, "utm": "ignored"
    })
}

/// Fetches a captcha challenge and solves it with the ALTCHA library, as a page would;
/// returns the `captchaKey` (base64 of the solved payload's JSON).
pub(crate) async fn captcha_proof(app: &TestApp) -> String {
    let res = app.get(CHALLENGE_PATH).await;
    assert_eq!(res.status(), 200);
    let challenge: altcha_lib_rs::Challenge = res.json().await.expect("a challenge");
    solve(&challenge)
}

/// The `captchaKey` for `challenge`, solved by brute force.
pub(crate) fn solve(challenge: &altcha_lib_rs::Challenge) -> String {
    let number = altcha_lib_rs::solve_challenge(
        &challenge.challenge,
        &challenge.salt,
        Some(challenge.algorithm),
        Some(challenge.maxnumber),
        0,
    )
    .expect("the challenge has a solution");
    let payload = json!({
        "algorithm": "SHA-256", "challenge": challenge.challenge, "number": number,
        "salt": challenge.salt, "signature": challenge.signature
    });
    base64::engine::general_purpose::STANDARD.encode(payload.to_string())
}

/// A payload with a fresh key and a solved captcha.
pub(crate) async fn full_payload(app: &TestApp, crumb: &str, form_id: &str, form: Value) -> Value {
    let key = key(app, crumb).await;
    let mut body = payload(form_id, &key, form);
    body["captchaKey"] = json!(captcha_proof(app).await);
    body
}

async fn save(app: &TestApp, crumb: &str, form_id: &str, form: Value) -> reqwest::Response {
    let body = full_payload(app, crumb, form_id, form).await;
    post(app, SAVE_PATH, crumb, &body).await
}

async fn export(app: &TestApp, cookie: &str, query: &str) -> reqwest::Response {
    app.get_with(&format!("/api/form/submissions?{query}"), &[("cookie", cookie)]).await
}

#[actix_rt::test]
async fn a_contact_submission_stores_every_field_kind_as_the_spec_shapes_it() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let res = save(&app, &crumb, "contact", contact_values()).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.expect("json");
    assert_eq!(body["success"], true);
    assert!(body.get("redirectUrl").is_none());
    assert!(body["postSubmitHtml"].as_str().expect("html").contains("href=\"tel:+15550142\""));

    let owner = app.sign_in(true, &[], false).await;
    let res = export(&app, &owner, "formId=contact&format=json").await;
    assert_eq!(res.status(), 200);
    let export: Value = res.json().await.expect("json");
    let stored = &export["submissions"][0];
    assert_eq!(stored["values"], stored_contact_values());
    assert_eq!(stored["pagePath"], "/contact");
    assert_eq!(stored["contentSource"], "c");
    assert_eq!(stored["pagePermissionTypeValue"], "1");
    assert!(stored.get("utm").is_none(), "undocumented fields are not kept");
    assert!(!export["fields"].as_array().expect("fields").contains(&json!("about-you")), "sections are skipped");
}

#[actix_rt::test]
async fn a_hidden_field_keeps_the_value_the_page_sends_and_form_may_be_an_object() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let values = contact_values_with([("source", json!("spring-flyer"))]);
    let mut body = full_payload(&app, &crumb, "contact", json!(null)).await;
    body["form"] = values;
    assert_eq!(post(&app, SAVE_PATH, &crumb, &body).await.status(), 200);
    let owner = app.sign_in(true, &[], false).await;
    let export: Value = export(&app, &owner, "formId=contact").await.json().await.expect("json");
    assert_eq!(export["submissions"][0]["values"]["source"], "spring-flyer");
}

#[actix_rt::test]
async fn invalid_fields_get_the_spec_messages_verbatim() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let values = contact_values_with([
        ("email", json!("ada.example.com")),
        ("message", json!("x".repeat(501))),
        ("address", json!(["1 Main St", "", "Town", "NY", "1234", "US"])),
        ("subject", json!("")),
    ]);
    let res = save(&app, &crumb, "contact", values).await;
    let body = assert_refused(res, 400, "One or more fields is invalid, please check your entries.").await;
    assert_eq!(
        body["errors"],
        json!({
            "email": "Email is not valid. Email addresses should follow the format name@example.com.",
            "message": "You have exceeded the character limit.",
            "address": "Zip codes in the United States have exactly 5 digits.",
            "subject": "Subject is required."
        })
    );
}

#[actix_rt::test]
async fn unparseable_fields_and_malformed_bodies_are_400() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let mut body = full_payload(&app, &crumb, "contact", json!(null)).await;
    let key = body["key"].as_str().expect("key").to_string();
    body["form"] = json!("{not json");
    let res = post(&app, SAVE_PATH, &crumb, &body).await;
    assert_refused(res, 400, "Could not parse the form fields, please check your entries.").await;

    let res = post_save_as(&app, &crumb, "application/json", "{\"formId\": \"contact\", ".into()).await;
    assert_eq!(res.status(), 400);
    let answer: Value = res.json().await.expect("a JSON error");
    assert!(answer["error"].as_str().expect("error text").starts_with("The submission could not be read"));
    assert_eq!(post(&app, SAVE_PATH, &crumb, &json!({ "key": key })).await.status(), 400, "formId is required");
}

#[actix_rt::test]
async fn a_form_encoded_save_call_is_read_too() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let key = key(&app, &crumb).await;
    let proof = captcha_proof(&app).await;
    let form = contact_values().to_string();
    let body = format!(
        "key={key}&formId=contact&isOverlayForm=true&captchaKey={}&form={}",
        urlencode(&proof),
        urlencode(&form)
    );
    let res = post_save_as(&app, &crumb, "application/x-www-form-urlencoded", body).await;
    assert_eq!(res.status(), 200);
    let owner = app.sign_in(true, &[], false).await;
    let export: Value = export(&app, &owner, "formId=contact").await.json().await.expect("json");
    assert_eq!(export["submissions"][0]["isOverlayForm"], true);
}

/// `text` percent-encoded for a form-encoded body: every byte but letters and digits.
pub(crate) fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

#[actix_rt::test]
async fn a_key_is_single_use_and_must_be_issued_and_fresh() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let body = full_payload(&app, &crumb, "contact", contact_values()).await;
    assert_eq!(post(&app, SAVE_PATH, &crumb, &body).await.status(), 200);
    let res = post(&app, SAVE_PATH, &crumb, &body).await;
    assert_eq!(res.status(), 401, "a used key is refused");
    let body: Value = res.json().await.expect("json");
    assert_eq!(body["error"], "The submission key is missing, used or expired.");
    let mut keyless = payload("contact", "", contact_values());
    keyless.as_object_mut().map(|m| m.remove("key"));
    assert_eq!(post(&app, SAVE_PATH, &crumb, &keyless).await.status(), 401);
    assert_eq!(post(&app, SAVE_PATH, &crumb, &payload("contact", "made-up", contact_values())).await.status(), 401);

    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs();
    let an_hour_ago = (now - 3601).to_string();
    app.store.put(Tree::Submissions, b"key:stale", an_hour_ago.as_bytes()).await.expect("stored");
    assert_eq!(post(&app, SAVE_PATH, &crumb, &payload("contact", "stale", contact_values())).await.status(), 401);
}

#[actix_rt::test]
async fn an_unknown_form_is_not_configured() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let res = save(&app, &crumb, "no-such-form", json!({})).await;
    assert_refused(res, 404, "This form has not been configured yet.").await;
}

#[actix_rt::test]
async fn missing_or_foreign_crumbs_fail_on_both_calls() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let other = self::crumb(&app).await;
    for path in [KEY_PATH, SAVE_PATH] {
        let bare = app.client.post(format!("{}{path}", app.address)).json(&json!({})).send().await.expect("answered");
        assert_eq!(bare.status(), 403, "{path} without a crumb");
        let foreign = post_to(&app, path, &crumb, &other).json(&json!({})).send().await.expect("answered");
        assert_eq!(foreign.status(), 403, "{path} with a foreign crumb");
        let body: Value = foreign.json().await.expect("json");
        assert_eq!(body["crumbFail"], true);
    }
}

#[actix_rt::test]
async fn more_than_ten_saves_a_minute_to_one_form_are_limited() {
    let (app, crumb) = spawn_app_with_crumb().await;
    for _ in 0..10 {
        let res = post(&app, SAVE_PATH, &crumb, &payload("contact", "no-key", json!({}))).await;
        assert_eq!(res.status(), 401);
    }
    let res = post(&app, SAVE_PATH, &crumb, &payload("contact", "no-key", json!({}))).await;
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!((1..=60).contains(&retry), "{retry}");
    let body: Value = res.json().await.expect("json");
    assert_eq!(body["error"], "Unable to submit form. Submission rate limit exceeded. Please try again later.");
    let other_form = post(&app, SAVE_PATH, &crumb, &payload("newsletter", "no-key", json!({}))).await;
    assert_eq!(other_form.status(), 401, "the limit is per form");
}

#[actix_rt::test]
async fn a_body_over_the_limit_is_413() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let values = contact_values_with([("message", json!("x".repeat(300 * 1024)))]);
    let res = save(&app, &crumb, "contact", values).await;
    assert_eq!(res.status(), 413);
}

#[actix_rt::test]
async fn a_captcha_form_without_its_proof_is_refused() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let key = key(&app, &crumb).await;
    let body = payload("contact", &key, contact_values());
    assert!(body.get("captchaKey").is_none());
    let res = post(&app, SAVE_PATH, &crumb, &body).await;
    assert_refused(res, 400, "Complete CAPTCHA before submitting.").await;
}

#[actix_rt::test]
async fn a_newsletter_address_is_stored_once() {
    let (app, crumb) = spawn_app_with_crumb().await;
    for email in ["Reader@Example.com", "reader@example.COM"] {
        let res = save(&app, &crumb, "newsletter", json!({ "email": email })).await;
        assert_eq!(res.status(), 200);
    }
    let entries = app.store.scan_prefix(Tree::MailingLists, b"porch-letters\0", 10).expect("scan");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].0, b"porch-letters\0reader@example.com");
    let res = save(&app, &crumb, "newsletter", json!({ "email": "nope" })).await;
    assert_eq!(res.status(), 400);
    let owner = app.sign_in(true, &[], false).await;
    let export: Value = export(&app, &owner, "formId=newsletter").await.json().await.expect("json");
    assert_eq!(export["submissions"].as_array().map(Vec::len), Some(1));
    assert_eq!(export["submissions"][0]["values"]["email"], "Reader@Example.com");
}

#[actix_rt::test]
async fn the_success_redirect_is_only_ever_a_path_on_this_site() {
    let dir = demo_site_with_redirect("/about", |_| {});
    let app = spawn_app_with_site(dir.path()).await;
    let crumb = crumb(&app).await;
    let body: Value = save(&app, &crumb, "contact", contact_values()).await.json().await.expect("json");
    assert_eq!(body["redirectUrl"], "/about");

    let dir = demo_site_with_redirect("/\\evil.example", |_| {});
    let problems = veranda_actors::site::Site::load(dir.path()).expect_err("a backslash path is refused");
    assert!(problems.to_string().contains("successRedirect"), "{problems}");
}

#[actix_rt::test]
async fn the_csv_export_defuses_formulas_and_quotes_cells() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let values = contact_values_with([
        ("subject", json!("=HYPERLINK(\"http://evil.example\",\"x\")")),
        ("twitter", json!("@SUM(1+1)")),
    ]);
    assert_eq!(save(&app, &crumb, "contact", values).await.status(), 200);
    let owner = app.sign_in(true, &[], false).await;
    let res = export(&app, &owner, "formId=contact&format=csv").await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"].to_str().expect("ascii").starts_with("text/csv"));
    let csv = res.text().await.expect("text");
    let mut lines = csv.split("\r\n");
    assert_eq!(
        lines.next(),
        Some("submittedAt,name,email,phone,address,website,twitter,subject,message,guests,budget,date,time,occasion,extras,heard-from,visit,booking-code,source")
    );
    let row = lines.next().expect("one row");
    assert!(row.contains(",'@SUM(1+1),\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\","), "{row}");
    assert!(row.contains("\"Ada, Lovelace\""), "{row}");
}

#[actix_rt::test]
async fn the_export_is_for_owners_and_admins_only() {
    let app = spawn_app().await;
    let res = app.get("/api/form/submissions?formId=contact").await;
    assert_eq!(res.status(), 401);
    let body: Value = res.json().await.expect("json");
    assert!(body["error"].is_string());
    let member = app.sign_in(false, &[], true).await;
    assert_eq!(export(&app, &member, "formId=contact").await.status(), 403);
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    assert_eq!(export(&app, &editor, "formId=contact").await.status(), 403);
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    assert_eq!(export(&app, &admin, "formId=contact").await.status(), 200);
    assert_eq!(export(&app, &admin, "formId=nope").await.status(), 404);
    assert_eq!(export(&app, &admin, "formId=contact&format=xml").await.status(), 400);
}

#[actix_rt::test]
async fn get_on_the_form_calls_is_405() {
    let app = spawn_app().await;
    for path in [KEY_PATH, SAVE_PATH] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 405, "{path}");
        assert_eq!(res.headers()["allow"], "POST");
    }
}
