//! reCAPTCHA checked on the server when `[forms] recaptcha_secret` is set: tokens are
//! posted with the secret to the siteverify URL (here a local mock on 127.0.0.1) and the
//! provider's answer decides; a refused, slow or unreachable check refuses the
//! submission with the captcha error, never a hang.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};
use veranda_tests::{crumb, demo_site_copy, serve_stand_in, spawn_app_configured, TestApp};

use super::submit::{contact_values, key, payload, post, SAVE_PATH};

const SECRET: &str = "the-secret";
const REFUSED: &str = "The CAPTCHA could not be verified. Please complete the CAPTCHA again.";

/// Form fields each call to the mock carried.
type Calls = Arc<Mutex<Vec<Vec<(String, String)>>>>;

/// A siteverify mock: `good-token` with the right secret succeeds, `slow-token` answers
/// after 5 s, `broken-token` gets a 500, anything else `{"success": false}`.
async fn siteverify_mock() -> (String, Calls) {
    let calls: Calls = Arc::default();
    let seen = calls.clone();
    let url = serve_stand_in("/recaptcha/api/siteverify", move || {
        let seen = seen.clone();
        web::post().to(move |form: web::Form<Vec<(String, String)>>| {
            let seen = seen.clone();
            async move {
                let fields = form.into_inner();
                seen.lock().expect("calls").push(fields.clone());
                let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
                match field("response").as_deref() {
                    Some("slow-token") => {
                        tokio::time::sleep(Duration::from_secs(5)).await;
                        HttpResponse::Ok().json(json!({ "success": true }))
                    }
                    Some("broken-token") => HttpResponse::InternalServerError().finish(),
                    Some("good-token") if field("secret").as_deref() == Some(SECRET) => {
                        HttpResponse::Ok().json(json!({ "success": true, "hostname": "localhost" }))
                    }
                    _ => {
                        HttpResponse::Ok().json(json!({ "success": false, "error-codes": ["invalid-input-response"] }))
                    }
                }
            }
        })
    });
    (url, calls)
}

/// The demo site asking for reCAPTCHA with a site key, served with `secret` and `url`.
async fn recaptcha_app(secret: Option<&str>, url: &str) -> (TestApp, tempfile::TempDir) {
    let dir = demo_site_copy(|site| {
        let mut captcha = toml::Table::new();
        captcha.insert("provider".into(), "recaptcha".into());
        captcha.insert("siteKey".into(), "site-key".into());
        site.insert("captcha".into(), captcha.into());
    });
    let (secret, url) = (secret.map(str::to_string), url.to_string());
    let app = spawn_app_configured(dir.path(), move |settings| {
        settings.forms.recaptcha_secret = secret;
        settings.forms.recaptcha_verify_url = url;
        settings.forms.recaptcha_timeout_ms = 500;
    })
    .await;
    (app, dir)
}

/// Submits the contact form with `token` as its `captchaKey`; the status and error.
async fn submit(app: &TestApp, token: &str) -> (u16, Value) {
    let crumb = crumb(app).await;
    let key = key(app, &crumb).await;
    let mut body = payload("contact", &key, contact_values());
    body["captchaKey"] = json!(token);
    let res = post(app, SAVE_PATH, &crumb, &body).await;
    (res.status().as_u16(), res.json().await.expect("json"))
}

#[actix_rt::test]
async fn a_token_the_provider_accepts_saves_the_submission_and_the_secret_is_sent() {
    let (url, calls) = siteverify_mock().await;
    let (app, _dir) = recaptcha_app(Some(SECRET), &url).await;
    let (status, body) = submit(&app, "good-token").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true);
    let calls = calls.lock().expect("calls").clone();
    assert_eq!(calls.len(), 1);
    let field = |name: &str| calls[0].iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(field("secret").as_deref(), Some(SECRET));
    assert_eq!(field("response").as_deref(), Some("good-token"));
    assert_eq!(field("remoteip").as_deref(), Some("127.0.0.1"));
}

#[actix_rt::test]
async fn a_token_the_provider_refuses_gets_the_captcha_error() {
    let (url, _calls) = siteverify_mock().await;
    let (app, _dir) = recaptcha_app(Some(SECRET), &url).await;
    for token in ["bad-token", "broken-token"] {
        let (status, body) = submit(&app, token).await;
        assert_eq!((status, body["error"].as_str()), (400, Some(REFUSED)), "{token}: {body}");
    }
    // The wrong secret is refused by the provider, so by the server too.
    let (app, _dir) = recaptcha_app(Some("another-secret"), &url).await;
    let (status, body) = submit(&app, "good-token").await;
    assert_eq!((status, body["error"].as_str()), (400, Some(REFUSED)), "{body}");
}

#[actix_rt::test]
async fn a_slow_or_unreachable_provider_refuses_quickly_instead_of_hanging() {
    let (url, _calls) = siteverify_mock().await;
    let (app, _dir) = recaptcha_app(Some(SECRET), &url).await;
    let started = Instant::now();
    let (status, body) = submit(&app, "slow-token").await;
    assert_eq!((status, body["error"].as_str()), (400, Some(REFUSED)), "{body}");
    assert!(started.elapsed() < Duration::from_secs(4), "the 500 ms timeout bounds the check");

    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("address").port();
    drop(closed);
    let (app, _dir) = recaptcha_app(Some(SECRET), &format!("http://127.0.0.1:{port}/siteverify")).await;
    let (status, body) = submit(&app, "good-token").await;
    assert_eq!((status, body["error"].as_str()), (400, Some(REFUSED)), "{body}");
}

#[actix_rt::test]
async fn without_a_secret_recaptcha_is_not_set_up_and_the_provider_is_not_asked() {
    let (url, calls) = siteverify_mock().await;
    for secret in [None, Some("  ")] {
        let (app, _dir) = recaptcha_app(secret, &url).await;
        let (status, body) = submit(&app, "good-token").await;
        assert_eq!((status, body["error"].as_str()), (400, Some("ReCaptcha has not been set up!")), "{body}");
    }
    assert!(calls.lock().expect("calls").is_empty());
}
