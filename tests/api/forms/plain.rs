//! Plain HTML form posts, as a browser without JavaScript sends the server-rendered
//! form: form-encoded fields named like the rendered inputs, the crumb cookie, no key.
//! Success is a 303 to the thank-you view (or the form's own redirect); refusals are
//! HTML pages with the messages.

use serde_json::{json, Value};
use veranda_actors::store::Tree;
use veranda_tests::{crumb, demo_site_copy, spawn_app_with_crumb, spawn_app_with_site, TestApp};

use super::submit::{stored_contact_values, urlencode, SAVE_PATH};

/// The demo site with the contact form's captcha off and `extra` TOML lines added to it.
fn contact_without_captcha(extra: &str) -> tempfile::TempDir {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("pages/contact.toml");
    let text = std::fs::read_to_string(&path).expect("contact page");
    std::fs::write(&path, text.replacen("captcha = true", &format!("captcha = false\n{extra}"), 1)).expect("written");
    dir
}

/// What a browser sends for the filled-in contact form (rendered input names).
const CONTACT_FIELDS: [(&str, &str); 29] = [
    ("formId", "contact"),
    ("name-First", "Ada"),
    ("name-Last", "Lovelace"),
    ("email", "ada@example.com"),
    ("phone-Country", ""),
    ("phone-Areacode", "555"),
    ("phone-Prefix", "014"),
    ("phone-Line", "2000"),
    ("address-Line1", "12 Linden Street"),
    ("address-Line2", ""),
    ("address-City", "Riverton"),
    ("address-State", "NY"),
    ("address-Zip", "10001"),
    ("address-Country", "United States"),
    ("subject", "Porch party"),
    ("message", "Could we book the porch?"),
    ("date-Month", "06"),
    ("date-Day", "21"),
    ("date-Year", "2025"),
    ("time-Hour", "7"),
    ("time-Minute", "30"),
    ("time-Ampm", "PM"),
    ("occasion", "Birthday"),
    ("extras", "Cake"),
    ("extras", "Live music"),
    ("heard-from", "A friend"),
    ("visit-0", "2"),
    ("visit-2", "-1"),
    ("source", "contact-page"),
];

/// Posts `fields` form-encoded with the crumb cookie and `headers`, as a browser would.
async fn plain_post(
    app: &TestApp,
    crumb: Option<&str>,
    fields: &[(&str, &str)],
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut req = app
        .client
        .post(format!("{}{SAVE_PATH}", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded_body(fields));
    if let Some(crumb) = crumb {
        req = req.header("cookie", format!("crumb={crumb}"));
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("answered")
}

fn serde_urlencoded_body(fields: &[(&str, &str)]) -> String {
    fields.iter().map(|(k, v)| format!("{}={}", urlencode(k), urlencode(v))).collect::<Vec<_>>().join("&")
}

#[actix_rt::test]
async fn the_rendered_contact_form_posts_every_field_without_javascript() {
    let dir = contact_without_captcha("");
    let app = spawn_app_with_site(dir.path()).await;
    let page = app.get("/contact").await.text().await.expect("html");
    assert!(page.contains(&format!("method=\"post\" action=\"{SAVE_PATH}\"")), "the form posts to the save call");
    for (name, _) in CONTACT_FIELDS.iter().filter(|(n, _)| !n.starts_with("visit-")) {
        assert!(page.contains(&format!("name=\"{name}\"")), "the page renders an input named {name}");
    }
    assert!(page.contains("name=\"visit-0\"") && page.contains("name=\"visit-2\""));

    let crumb = crumb(&app).await;
    let headers = [("origin", app.address.as_str()), ("sec-fetch-site", "same-origin")];
    let res = plain_post(&app, Some(&crumb), &CONTACT_FIELDS, &headers).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/api/form/thank-you?formId=contact");

    let thanks = app.get("/api/form/thank-you?formId=contact").await;
    assert_eq!(thanks.status(), 200);
    let html = thanks.text().await.expect("html");
    assert!(
        html.contains("Thank you! We&#39;ll write back soon.") || html.contains("Thank you! We'll write back soon."),
        "{html}"
    );
    assert!(html.contains("href=\"tel:+15550142\""), "{html}");

    let owner = app.sign_in(true, &[], false).await;
    let export: Value =
        app.get_with("/api/form/submissions?formId=contact", &[("cookie", &owner)]).await.json().await.expect("json");
    let mut expected = stored_contact_values();
    expected["occasion"] = json!("Birthday");
    expected["heard-from"] = json!("A friend");
    expected["visit"] = json!({"The coffee": ["2"], "The service": ["-1"]});
    for empty in ["website", "twitter", "guests", "budget", "booking-code"] {
        expected[empty] = json!("");
    }
    assert_eq!(export["submissions"][0]["values"], expected);
}

#[actix_rt::test]
async fn a_plain_newsletter_sign_up_is_kept_and_a_same_site_redirect_is_followed() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let res = plain_post(&app, Some(&crumb), &[("formId", "newsletter"), ("email", "reader@example.com")], &[]).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/api/form/thank-you?formId=newsletter");
    let entries = app.store.scan_prefix(Tree::MailingLists, b"porch-letters\0", 10).expect("scan");
    assert_eq!(entries.len(), 1);

    // A path on this site, and an absolute address on the site's own origin
    // (`website.baseUrl`), are both followed.
    for location in ["/about", "http://127.0.0.1:8080/about?sent=1"] {
        let dir = contact_without_captcha(&format!("successRedirect = \"{location}\""));
        let app = spawn_app_with_site(dir.path()).await;
        let crumb = self::crumb(&app).await;
        let res = plain_post(&app, Some(&crumb), &CONTACT_FIELDS, &[]).await;
        assert_eq!(res.status(), 303, "{location}");
        assert_eq!(res.headers()["location"], location);
    }
}

#[actix_rt::test]
async fn invalid_fields_and_a_missing_captcha_answer_an_html_page_with_the_messages() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let res = plain_post(&app, Some(&crumb), &[("formId", "newsletter"), ("email", "nope")], &[]).await;
    assert_eq!(res.status(), 400);
    assert!(res.headers()["content-type"].to_str().expect("ascii").starts_with("text/html"));
    let html = res.text().await.expect("html");
    assert!(html.contains("One or more fields is invalid, please check your entries."), "{html}");
    assert!(html.contains("Email is not valid. Email addresses should follow the format name@example.com."), "{html}");

    let res = plain_post(&app, Some(&crumb), &CONTACT_FIELDS, &[("referer", "http://127.0.0.1/contact")]).await;
    assert_eq!(res.status(), 400, "the demo contact form has a captcha, which needs the page's script");
    let html = res.text().await.expect("html");
    assert!(html.contains("Complete CAPTCHA before submitting."), "{html}");
    assert!(html.contains("href=\"/contact\""), "a link back to the form: {html}");

    assert_eq!(plain_post(&app, Some(&crumb), &[("formId", "nope")], &[]).await.status(), 404);
    assert_eq!(app.get("/api/form/thank-you?formId=nope").await.status(), 404);
}

#[actix_rt::test]
async fn a_plain_post_without_the_crumb_cookie_or_from_another_site_is_refused() {
    let (app, crumb) = spawn_app_with_crumb().await;
    let fields = [("formId", "newsletter"), ("email", "reader@example.com")];
    let refusals = [
        (None, vec![]),
        (Some("forged.crumb"), vec![]),
        (Some(crumb.as_str()), vec![("origin", "https://evil.example")]),
        (Some(crumb.as_str()), vec![("sec-fetch-site", "cross-site")]),
    ];
    for (cookie, headers) in refusals {
        let res = plain_post(&app, cookie, &fields, &headers).await;
        assert_eq!(res.status(), 403, "{cookie:?} {headers:?}");
        assert!(res.headers().get("set-cookie").is_some(), "a fresh crumb comes with the refusal");
    }
    assert!(app.store.scan_prefix(Tree::MailingLists, b"porch-letters\0", 10).expect("scan").is_empty());
}
