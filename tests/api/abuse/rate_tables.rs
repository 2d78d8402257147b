//! Every per-address rate-limit table is bounded and forgets the least recently seen
//! address when full: a flood of distinct client addresses (sent through a trusted proxy)
//! never gets a fresh address refused, an address the table still remembers stays limited,
//! and each table's size gauge on `/metrics` never goes above its setting. Against the
//! real binary (a process of its own, so no other test moves the gauges).

use std::future::Future;

use serde_json::json;
use veranda_tests::metrics::scraped;
use veranda_tests::process::{crumb_of, ServerProcess};
use veranda_tests::{demo_site_dir, TestApp};

/// Each table's size, set small through the settings.
const SIZE: usize = 4;
/// Distinct addresses sent in each flood, many more than the tables hold.
const FLOOD: usize = 40;

/// The client address a request speaks for: through the trusted proxy on 127.0.0.1.
fn forwarded(n: usize) -> String {
    format!("203.0.{}.{}", n / 250, n % 250 + 1)
}

/// The value of `metric{table="<table>"}` on `/metrics` (None when absent).
async fn table_sample(server: &ServerProcess, metric: &str, table: &str) -> Option<f64> {
    scraped(&server.ops_address, metric, &[("table", table)]).await
}

async fn entries(server: &ServerProcess, table: &str) -> f64 {
    table_sample(server, "veranda_rate_limiter_entries", table).await.unwrap_or(f64::NAN)
}

/// Drives `ask` (a request as the client address it is given; the status and
/// `Retry-After`) for the `table`: one address until it is refused, then a flood of fresh
/// addresses, asking as the first one again after each. Every fresh address is admitted,
/// the remembered one stays refused, and the table's gauge never exceeds [`SIZE`].
async fn flood<F, Fut>(server: &ServerProcess, table: &str, remembered_stays_limited: bool, ask: F)
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = (u16, Option<String>)>,
{
    let remembered = "198.51.100.7".to_string();
    let refused_before = table_sample(server, "veranda_rate_limited_total", table).await;
    assert_eq!(refused_before, Some(0.0), "{table}: the refusals are exported at zero");
    let mut asked = 0;
    while ask(remembered.clone()).await.0 != 429 {
        asked += 1;
        assert!(asked < 100, "{table}: the first address is limited at last");
    }
    for n in 0..FLOOD {
        let (status, _) = ask(forwarded(n)).await;
        assert_ne!(status, 429, "{table}: fresh address {n} is never refused");
        let (status, retry_after) = ask(remembered.clone()).await;
        if remembered_stays_limited {
            assert_eq!(status, 429, "{table}: the remembered address is still limited after {n} others");
            let secs: u64 = retry_after.expect("Retry-After").parse().expect("seconds");
            assert!(secs >= 1, "{table}: {secs}");
        }
        if n % 10 == 9 {
            let size = entries(server, table).await;
            assert!(size <= SIZE as f64, "{table}: {size} entries, more than {SIZE}");
        }
    }
    assert_eq!(entries(server, table).await, SIZE as f64, "{table}: the table is full, not over");
    let refused = table_sample(server, "veranda_rate_limited_total", table).await.unwrap_or(0.0);
    assert!(refused >= 1.0, "{table}: refusals are counted: {refused}");
}

async fn status_of(res: reqwest::Response) -> (u16, Option<String>) {
    let retry_after = res.headers().get("retry-after").map(|v| v.to_str().expect("ascii").to_string());
    (res.status().as_u16(), retry_after)
}

#[actix_rt::test]
async fn floods_of_addresses_never_refuse_a_fresh_one_and_the_tables_stay_within_their_size() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let size = SIZE.to_string();
    let forms = format!(
        "{{submissions_per_minute = 1, keys_per_minute = 1, challenges_per_minute = 1, limited_addresses = {size}}}"
    );
    let telemetry = format!("{{rate_per_second = 1, rate_burst = 1, limited_addresses = {size}}}");
    // Place search goes to a closed port: an admitted search is a 502, a limited one a 429.
    let maps = format!(
        "{{server_key = \"not-a-real-key\", places_upstream = \"http://127.0.0.1:9\", places_per_minute = 1, \
         limited_addresses = {size}}}"
    );
    let commerce = format!("{{limited_addresses = {size}}}");
    let env = [
        ("VERANDA_SECURITY", "{trusted_proxies = [\"127.0.0.1\"]}"),
        ("VERANDA_FORMS", forms.as_str()),
        ("VERANDA_TELEMETRY", telemetry.as_str()),
        ("VERANDA_MAPS", maps.as_str()),
        ("VERANDA_COMMERCE", commerce.as_str()),
    ];
    let server = ServerProcess::start_with_env(&demo_site_dir(), data.path(), &env).await;
    for table in
        ["telemetry", "telemetry_bytes", "places", "checkout", "form_submissions", "form_keys", "form_challenges"]
    {
        assert_eq!(entries(&server, table).await, 0.0, "{table}: its size is exported at zero");
    }
    let client = reqwest::Client::new();
    let crumb = crumb_of(&server.address).await;
    let address = &server.address;

    flood(&server, "form_keys", true, |ip| {
        let req = TestApp::with_crumb(client.post(format!("{address}/api/form/FormSubmissionKey")), &crumb);
        async move { status_of(req.header("x-forwarded-for", ip).json(&json!(null)).send().await.expect("answered")).await }
    })
    .await;

    flood(&server, "form_challenges", true, |ip| {
        let req = client.get(format!("{address}/api/form/captcha/challenge")).header("x-forwarded-for", ip);
        async move { status_of(req.send().await.expect("answered")).await }
    })
    .await;

    let save = json!({
        "key": "no-key", "formId": "contact", "collectionId": null, "objectName": "60cf1b6dcc64273709bf1e5b",
        "isOverlayForm": false, "submitButtonText": "Send message", "form": "{}", "pageTitle": "Contact",
        "pageId": "d9c69c3fec4c048f374ed236", "contentSource": "c", "pagePath": "/contact",
        "pagePermissionTypeValue": 1
    });
    flood(&server, "form_submissions", true, |ip| {
        let req = TestApp::with_crumb(client.post(format!("{address}/api/form/SaveFormSubmission")), &crumb);
        let req = req.header("x-forwarded-for", ip).json(&save);
        async move { status_of(req.send().await.expect("answered")).await }
    })
    .await;

    flood(&server, "places", true, |ip| {
        let req = client.get(format!("{address}/api/google-maps/places/autocomplete?input=Linden"));
        let req = req.header("x-forwarded-for", ip);
        async move { status_of(req.send().await.expect("answered")).await }
    })
    .await;

    // One request a second: the remembered address may regain a token during the flood.
    flood(&server, "telemetry", false, |ip| {
        let req = client.post(format!("{address}/api/census/RecordHit")).header("x-forwarded-for", ip);
        let req = req.form(&[("event", "pageView"), ("data", r#"{"url":"/about"}"#)]);
        async move { status_of(req.send().await.expect("answered")).await }
    })
    .await;
}
