//! The forms' captcha: ALTCHA challenges, solved here with the ALTCHA library as a page
//! would, accepted once; tampered, wrong, expired and reused proofs refused; reCAPTCHA
//! without a key is 'ReCaptcha has not been set up!'.

use base64::Engine;
use serde_json::{json, Value};
use veranda_actors::forms::captcha::Altcha;
use veranda_actors::store::Tree;
use veranda_tests::{crumb, demo_site_copy, spawn_app, spawn_app_with_site, TestApp};

use super::submit::{
    captcha_proof, contact_values, full_payload, key, payload, post, solve, CHALLENGE_PATH, SAVE_PATH,
};

const INVALID: &str = "The CAPTCHA answer could not be verified. Please complete the CAPTCHA again.";
const EXPIRED: &str = "The CAPTCHA has expired. Please complete the CAPTCHA again.";
const REUSED: &str = "This CAPTCHA has already been used. Please complete the CAPTCHA again.";

/// POSTs the contact form with a fresh key and `proof` as its `captchaKey`.
async fn submit_with(app: &TestApp, crumb: &str, proof: &str) -> reqwest::Response {
    let key = key(app, crumb).await;
    let mut body = payload("contact", &key, contact_values());
    body["captchaKey"] = json!(proof);
    post(app, SAVE_PATH, crumb, &body).await
}

async fn error_of(res: reqwest::Response) -> (u16, String) {
    let status = res.status().as_u16();
    let body: Value = res.json().await.expect("json");
    (status, body["error"].as_str().unwrap_or_default().to_string())
}

/// Decodes a `captchaKey`, lets `edit` change the payload, encodes it again.
fn tamper(proof: &str, edit: impl FnOnce(&mut Value)) -> String {
    let engine = base64::engine::general_purpose::STANDARD;
    let mut payload: Value = serde_json::from_slice(&engine.decode(proof).expect("base64")).expect("json");
    edit(&mut payload);
    engine.encode(payload.to_string())
}

#[actix_rt::test]
async fn a_challenge_is_an_uncached_sha256_altcha_challenge_with_an_expiry() {
    let app = spawn_app().await;
    let res = app.get(CHALLENGE_PATH).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let body: Value = res.json().await.expect("json");
    let keys: Vec<&str> = body.as_object().expect("object").keys().map(String::as_str).collect();
    assert_eq!(keys, ["algorithm", "challenge", "maxnumber", "salt", "signature"]);
    assert_eq!(body["algorithm"], "SHA-256");
    assert_eq!(body["challenge"].as_str().map(str::len), Some(64));
    assert_eq!(body["signature"].as_str().map(str::len), Some(64));
    assert!((1_000..=100_000).contains(&body["maxnumber"].as_u64().expect("a number")), "{body}");
    assert!(body["salt"].as_str().expect("salt").contains("?expires="), "{body}");
    let posted = app.client.post(format!("{}{CHALLENGE_PATH}", app.address)).send().await.expect("answered");
    assert_eq!(posted.status(), 405);
}

#[actix_rt::test]
async fn a_solved_challenge_is_accepted_once() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    let proof = captcha_proof(&app).await;
    assert_eq!(submit_with(&app, &crumb, &proof).await.status(), 200);
    assert_eq!(error_of(submit_with(&app, &crumb, &proof).await).await, (400, REUSED.to_string()));
}

#[actix_rt::test]
async fn tampered_signatures_and_wrong_numbers_are_refused_and_leave_the_key_usable() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    let proof = captcha_proof(&app).await;
    let forged = tamper(&proof, |p| p["signature"] = json!("0".repeat(64)));
    let wrong = tamper(&proof, |p| p["number"] = json!(p["number"].as_u64().expect("number") + 1));
    for bad in [forged.as_str(), wrong.as_str(), "not base64 at all", "e30="] {
        assert_eq!(error_of(submit_with(&app, &crumb, bad).await).await, (400, INVALID.to_string()), "{bad}");
    }

    let mut body = full_payload(&app, &crumb, "contact", contact_values()).await;
    let good = body["captchaKey"].clone();
    body["captchaKey"] = json!(forged);
    assert_eq!(post(&app, SAVE_PATH, &crumb, &body).await.status(), 400);
    body["captchaKey"] = good;
    assert_eq!(post(&app, SAVE_PATH, &crumb, &body).await.status(), 200, "a refused captcha does not spend the key");
}

#[actix_rt::test]
async fn an_expired_challenge_is_refused() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    let stored = app.store.get(Tree::Settings, b"altcha_key").expect("readable").expect("the server keeps its key");
    let key: [u8; 32] = stored.try_into().expect("32 bytes");
    let an_hour_ago =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs() - 3600;
    let challenge = Altcha::new(&key).challenge_expiring(an_hour_ago as i64).expect("issued");
    let proof = solve(&challenge);
    assert_eq!(error_of(submit_with(&app, &crumb, &proof).await).await, (400, EXPIRED.to_string()));
}

#[actix_rt::test]
async fn a_challenge_from_another_server_is_refused() {
    let app = spawn_app().await;
    let crumb = crumb(&app).await;
    let challenge = Altcha::new(&[9; 32]).challenge(i64::MAX / 2).expect("issued");
    assert_eq!(error_of(submit_with(&app, &crumb, &solve(&challenge)).await).await, (400, INVALID.to_string()));
}

#[actix_rt::test]
async fn more_than_sixty_challenges_a_minute_are_limited() {
    let app = spawn_app().await;
    for _ in 0..60 {
        assert_eq!(app.get(CHALLENGE_PATH).await.status(), 200);
    }
    let res = app.get(CHALLENGE_PATH).await;
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"].to_str().expect("ascii").parse().expect("seconds");
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(res.headers()["cache-control"], "no-store");
}

#[actix_rt::test]
async fn a_site_asking_for_recaptcha_without_a_key_is_not_set_up() {
    let with_key = |key: Option<&str>| {
        demo_site_copy(|site| {
            let mut captcha = toml::Table::new();
            captcha.insert("provider".into(), "recaptcha".into());
            if let Some(key) = key {
                captcha.insert("siteKey".into(), key.into());
            }
            site.insert("captcha".into(), captcha.into());
        })
    };
    // With a site key but no verification secret on the server, it cannot be checked either.
    for dir in [with_key(None), with_key(Some("site-key"))] {
        let app = spawn_app_with_site(dir.path()).await;
        let crumb = crumb(&app).await;
        let res = submit_with(&app, &crumb, "a-recaptcha-token").await;
        assert_eq!(error_of(res).await, (400, "ReCaptcha has not been set up!".to_string()));
    }
}
