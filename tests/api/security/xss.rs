//! Post-submit HTML reaches the visitor cleaned: the form's HTML as the owner wrote it,
//! full of filter-evasion tricks, comes back from the save call without anything that
//! runs. (The full OWASP list is checked against the sanitiser in `actors/tests`.)

use serde_json::Value;
use veranda_tests::{demo_site_copy, spawn_app_with_site};

use crate::forms::submit::{contact_values, full_payload, post};
use veranda_tests::crumb;

const PAYLOADS: &[&str] = &[
    "<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>",
    "<IMG SRC=JaVaScRiPt:alert('XSS')>",
    "<IMG SRC=/ onerror=\"alert(1)\"></img>",
    "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">x</a>",
    "<a href=\"jav&#x09;ascript:alert('XSS');\">x</a>",
    "<svg/onload=alert('XSS')>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
    "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">x</DIV>",
    "<details open ontoggle=alert(1)>x</details>",
    "<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>",
];

#[actix_rt::test]
async fn post_submit_html_comes_back_without_anything_that_runs() {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("pages/contact.toml");
    let text = std::fs::read_to_string(&path).expect("contact page");
    let start = text.find("postSubmitHtml = ").expect("the contact form has post-submit HTML");
    let end = start + text[start..].find('\n').expect("one line");
    let html = format!("<p>Thanks! <a href=\"tel:+15550142\">Call us</a></p>{}", PAYLOADS.concat());
    let line = format!("postSubmitHtml = {}", toml::Value::String(html));
    std::fs::write(&path, format!("{}{line}{}", &text[..start], &text[end..])).expect("written");

    let app = spawn_app_with_site(dir.path()).await;
    let crumb = crumb(&app).await;
    let body = full_payload(&app, &crumb, "contact", contact_values()).await;
    let res = post(&app, "/api/form/SaveFormSubmission", &crumb, &body).await;
    assert_eq!(res.status(), 200);
    let answer: Value = res.json().await.expect("JSON");
    let clean = answer["postSubmitHtml"].as_str().expect("post-submit HTML").to_lowercase();
    assert!(clean.contains("<a href=\"tel:+15550142\""), "allowed markup stays: {clean}");
    for banned in
        ["<script", "<svg", "<math", "<style", "<iframe", "onerror", "onload", "ontoggle", "javascript:", "style="]
    {
        assert!(!clean.contains(banned), "{banned} survived: {clean}");
    }
}
