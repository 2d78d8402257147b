//! `GET /api/commerce/fullstory/getId`: the visitor's analytics id when they may be
//! identified, else the spec's mock id, which no recording uses.

use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site};

const PATH: &str = "/api/commerce/fullstory/getId";
/// The mock id of spec 001 §7 as the session-recording loader knows it.
const MOCK: &str = "00000000000000000000000000000000";

async fn id(app: &veranda_tests::TestApp, cookie: &str) -> String {
    let res = app.get_with(PATH, &[("Cookie", cookie)]).await;
    assert_eq!(res.status(), 200, "{cookie}");
    assert_eq!(res.headers()["content-type"], "application/json", "{cookie}");
    assert!(res.headers()["cache-control"].to_str().is_ok_and(|v| v.contains("no-store")));
    assert!(res.headers().get("set-cookie").is_none(), "{cookie}: nothing is set");
    res.json::<String>().await.expect("a JSON string")
}

#[actix_rt::test]
async fn under_the_demo_sites_restrictive_policy_only_consent_reveals_the_id() {
    let app = spawn_app().await;
    let analytics = "SS_ANALYTICS_ID=2b9f4c1e-0d3a-4e5f-8a7b-6c5d4e3f2a1b";
    assert_eq!(id(&app, &format!("ss_cookieAllowed=true; {analytics}")).await, "2b9f4c1e-0d3a-4e5f-8a7b-6c5d4e3f2a1b");
    assert_eq!(id(&app, analytics).await, MOCK, "no consent, no id");
    assert_eq!(id(&app, &format!("ss_cookieAllowed=false; {analytics}")).await, MOCK);
    assert_eq!(id(&app, "ss_cookieAllowed=true").await, MOCK, "no analytics id yet");
    assert_eq!(id(&app, "ss_cookieAllowed=true; SS_ANALYTICS_ID=<script>").await, MOCK, "a malformed id");
    let post = app.client.post(format!("{}{PATH}", app.address)).send().await.expect("answered");
    assert_eq!(post.status(), 405);
}

#[actix_rt::test]
async fn without_a_restrictive_policy_the_id_needs_no_consent() {
    let site = demo_site_copy(|t| {
        t["cookieBanner"]["isRestrictiveCookiePolicyEnabled"] = toml::Value::Boolean(false);
    });
    let app = spawn_app_with_site(site.path()).await;
    assert_eq!(id(&app, "SS_ANALYTICS_ID=a-1").await, "a-1");
    assert_eq!(id(&app, "").await, MOCK);
}
