//! The in-memory tables a visitor fills are bounded per client address and in total: one
//! address flooding the performance collector's page loads, the error cap's page loads,
//! the visitor sessions or the cart actors leaves each table at its bound (a gauge on
//! `/metrics`), counts the evictions, and a visitor from another address is served as
//! before. Each test runs the real binary (its own metrics) behind a trusted proxy, so
//! `X-Forwarded-For` names the client address.

use std::time::Duration;

use serde_json::{json, Value};
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_actors::telemetry::cookie::VisitorId;
use veranda_actors::telemetry::stored::{session_key, VisitState};
use veranda_tests::metrics::{sample, scrape, scraped};
use veranda_tests::process::ServerProcess;
use veranda_tests::telemetry::{error_record, send_error_records};
use veranda_tests::{cookie_value, demo_site_dir, eventually};

/// The address flooding the tables.
const FLOODER: &str = "203.0.113.7";
/// A visitor from another address.
const NEIGHBOUR: &str = "198.51.100.20";
/// The demo's house blend.
const BLEND_SKU: &str = "VER-HB-12OZ";

/// A server on the demo site trusting 127.0.0.1 as its proxy, with `env` besides.
async fn server(data: &std::path::Path, env: &[(&str, &str)]) -> ServerProcess {
    let mut all = vec![("VERANDA_SECURITY", r#"{trusted_proxies = ["127.0.0.1"]}"#)];
    all.extend_from_slice(env);
    ServerProcess::start_with_env(&demo_site_dir(), data, &all).await
}

/// The size of `table` and its evictions for `reason`, from one scrape.
async fn table(server: &ServerProcess, table: &str, reason: &str) -> (Option<f64>, Option<f64>) {
    let text = scrape(&server.ops_address).await;
    let entries = sample(&text, "veranda_memory_table_entries", &[("table", table)]);
    let evicted = sample(&text, "veranda_memory_table_evictions_total", &[("table", table), ("reason", reason)]);
    (entries, evicted)
}

/// Waits until `table` holds `entries` after `evicted` evictions for `reason`.
async fn table_settles(server: &ServerProcess, name: &str, reason: &str, entries: f64, evicted: f64) {
    let what = format!("{name}: {entries} entries after {evicted} {reason} evictions");
    eventually(Duration::from_secs(5), &what, || async {
        (table(server, name, reason).await == (Some(entries), Some(evicted))).then_some(())
    })
    .await;
}

/// Every table's gauge and eviction counters are exported at zero from start-up.
async fn exported_at_zero(server: &ServerProcess) {
    for name in ["perf_page_loads", "error_page_loads", "visitor_sessions", "cart_actors"] {
        for reason in ["per_address", "total"] {
            assert_eq!(table(server, name, reason).await, (Some(0.0), Some(0.0)), "{name} {reason} at start-up");
        }
    }
}

/// A client behind the trusted proxy at `from`, holding `cookies`.
fn post(server: &ServerProcess, path: &str, from: &str, cookies: &str) -> reqwest::RequestBuilder {
    let req = reqwest::Client::new().post(format!("{}{path}", server.address)).header("x-forwarded-for", from);
    if cookies.is_empty() {
        req
    } else {
        req.header("cookie", cookies)
    }
}

/// Performance records of the page load `id`, as the loader sends them.
fn perf(id: &str, name: &str) -> Value {
    json!([{ "pageLoadId": id, "name": name, "value": 1200, "pagePath": "/about" }])
}

/// The LCP observations of `/about` so far.
async fn lcp_count(server: &ServerProcess) -> Option<f64> {
    scraped(&server.ops_address, "veranda_webvitals_lcp_seconds_count", &[("path", "/about")]).await
}

#[actix_rt::test]
async fn made_up_page_loads_of_one_address_leave_the_performance_collector_at_its_bound() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let env = [("VERANDA_TELEMETRY", "{perf_page_loads = 50, perf_page_loads_per_address = 10, shards = 1}")];
    let server = server(data.path(), &env).await;
    exported_at_zero(&server).await;
    let records = "/api/1/performance/records";
    let res = post(&server, records, NEIGHBOUR, "").json(&perf("neighbour-load", "LCP")).send().await.expect("sent");
    assert_eq!(res.status(), 202);
    // The series is exported at zero from start-up: wait for the LCP itself.
    let counted = eventually(Duration::from_secs(5), "the neighbour's LCP", || async {
        lcp_count(&server).await.filter(|count| *count >= 1.0)
    })
    .await;
    assert_eq!(counted, 1.0, "one page load's LCP counts once");

    for send in 0..30 {
        let body: Vec<Value> = (0..10)
            .map(|n| json!({ "pageLoadId": format!("made-up-{send}-{n}"), "name": "custom", "value": 1 }))
            .collect();
        let res = post(&server, records, FLOODER, "").json(&body).send().await.expect("sent");
        assert_eq!(res.status(), 202, "a send of made-up page loads is accepted");
    }
    table_settles(&server, "perf_page_loads", "per_address", 11.0, 290.0).await;

    // The neighbour's page load is still remembered: its second LCP is not counted again.
    let res = post(&server, records, NEIGHBOUR, "").json(&perf("neighbour-load", "LCP")).send().await.expect("sent");
    assert_eq!(res.status(), 202);
    let res = post(&server, records, NEIGHBOUR, "").json(&perf("next-load", "LCP")).send().await.expect("sent");
    assert_eq!(res.status(), 202);
    let what = "the neighbour's next page load counted";
    eventually(Duration::from_secs(5), what, || async {
        (lcp_count(&server).await == Some(counted + 1.0)).then_some(())
    })
    .await;
    table_settles(&server, "perf_page_loads", "per_address", 12.0, 290.0).await;
    server.stop();
}

/// Sends one error report of the page load `load` from `from`; the status.
async fn send_error(server: &ServerProcess, crumb: &str, from: &str, load: &str) -> u16 {
    send_error_records(&server.address, crumb, Some(from), &json!([error_record("boom", load)])).await
}

#[actix_rt::test]
async fn made_up_page_loads_of_one_address_forget_only_its_own_error_caps() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let limits = "{errors_per_page_load = 2, error_page_loads = 50, error_page_loads_per_address = 5}";
    let server = server(data.path(), &[("VERANDA_TELEMETRY", limits)]).await;
    exported_at_zero(&server).await;
    let page = reqwest::get(format!("{}/", server.address)).await.expect("a page");
    let crumb = cookie_value(&page, "crumb").expect("pages hand out a crumb");
    assert_eq!(send_error(&server, &crumb, NEIGHBOUR, "neighbour-load").await, 202);
    assert_eq!(send_error(&server, &crumb, NEIGHBOUR, "neighbour-load").await, 202);

    for n in 0..40 {
        assert_eq!(send_error(&server, &crumb, FLOODER, &format!("made-up-{n}")).await, 202, "a fresh page load");
    }
    table_settles(&server, "error_page_loads", "per_address", 6.0, 35.0).await;
    assert_eq!(
        send_error(&server, &crumb, NEIGHBOUR, "neighbour-load").await,
        429,
        "the neighbour's page load is still capped: the flood did not make the server forget it"
    );
    assert_eq!(send_error(&server, &crumb, NEIGHBOUR, "next-load").await, 202, "the neighbour is served");
    server.stop();
}

/// A page view from `from` with `cookies` (consent to visitor cookies, and the visit
/// cookies when known); the `ss_cvr` and `ss_cvt` the answer sets.
async fn page_view(server: &ServerProcess, from: &str, cookies: &str) -> String {
    let data = json!({ "url": "https://example.com/about", "title": "t", "userAgent": "test", "websiteId": "w" });
    let res = post(server, "/api/census/RecordHit", from, &format!("ss_cookieAllowed=true{cookies}"))
        .form(&[("event", "pageView"), ("data", &data.to_string())])
        .send()
        .await
        .expect("sent");
    assert_eq!(res.status(), 204);
    let cvr = cookie_value(&res, "ss_cvr").expect("ss_cvr is set");
    let cvt = cookie_value(&res, "ss_cvt").expect("ss_cvt is set");
    format!("; ss_cvr={cvr}; ss_cvt={cvt}")
}

/// The `ss_cvr` of the cookies [`page_view`] returns.
fn cvr_of(cookies: &str) -> &str {
    cookies.split("ss_cvr=").nth(1).and_then(|v| v.split(';').next()).unwrap_or_default()
}

#[actix_rt::test]
async fn hits_without_a_visitor_cookie_from_one_address_end_its_oldest_sessions_and_lose_none() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let limits = "{visitor_sessions = 50, visitor_sessions_per_address = 5, shards = 1}";
    let server = server(data.path(), &[("VERANDA_TELEMETRY", limits)]).await;
    exported_at_zero(&server).await;
    let neighbour = page_view(&server, NEIGHBOUR, "").await;

    for _ in 0..30 {
        page_view(&server, FLOODER, "").await;
    }
    table_settles(&server, "visitor_sessions", "per_address", 6.0, 25.0).await;
    let again = page_view(&server, NEIGHBOUR, &neighbour).await;
    assert_eq!(cvr_of(&again), cvr_of(&neighbour), "the neighbour's visit goes on");
    server.stop();

    // Every session was written: the evicted ones were ended, not dropped.
    let store = SledStore::open(data.path()).expect("the store opens");
    let sessions = store.scan_prefix(Tree::VisitorSessions, b"", 1000).expect("scans");
    assert_eq!(sessions.len(), 31, "thirty sessions of the flooding address and the neighbour's");
    let id = cvr_of(&neighbour).split('|').next().expect("a visitor id");
    let key = session_key(&VisitorId::parse(id).expect("an id"));
    let (_, state) = sessions.iter().find(|(k, _)| *k == key).expect("the neighbour's session");
    let state = VisitState::from_bytes(state).expect("a session");
    assert_eq!(state.pages_this_visit, 2, "{state:?}");
}

#[actix_rt::test]
async fn sharded_visitor_sessions_keep_the_configured_bounds_and_count_every_shards_evictions() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let limits = "{visitor_sessions = 40, visitor_sessions_per_address = 4, shards = 4}";
    let server = server(data.path(), &[("VERANDA_TELEMETRY", limits)]).await;
    exported_at_zero(&server).await;

    for _ in 0..60 {
        page_view(&server, FLOODER, "").await;
    }
    // Four shards, each holding its share (one) of the address's four sessions: the
    // gauge adds the shards up, and every shard's evictions are counted.
    table_settles(&server, "visitor_sessions", "per_address", 4.0, 56.0).await;
    let live = eventually(Duration::from_secs(5), "four live sessions over the shards", || async {
        let live = scraped(&server.ops_address, "veranda_visitor_sessions_live", &[]).await;
        (live == Some(4.0)).then_some(live)
    })
    .await;
    assert_eq!(live, Some(4.0));
    server.stop();

    let store = SledStore::open(data.path()).expect("the store opens");
    let sessions = store.scan_prefix(Tree::VisitorSessions, b"", 1000).expect("scans");
    assert_eq!(sessions.len(), 60, "the ended sessions of every shard were written");
}

/// Adds one blend to the cart in `cookies` (a new cart when none); the cart cookie pair
/// and the cart.
async fn add_blend(server: &ServerProcess, crumb: &str, cart: &str) -> (String, Value) {
    let res = post(server, "/api/commerce/cart/entries", FLOODER, &format!("crumb={crumb}{cart}"))
        .header("X-CSRF-Token", crumb)
        .json(&json!({ "sku": BLEND_SKU, "quantity": 1 }))
        .send()
        .await
        .expect("sent");
    assert_eq!(res.status(), 200, "adding the blend");
    let cookie = cookie_value(&res, "cart").map(|id| format!("; cart={id}")).unwrap_or_else(|| cart.to_string());
    (cookie, res.json().await.expect("a cart"))
}

#[actix_rt::test]
async fn a_flood_of_new_carts_stops_the_least_recently_used_actors_and_loses_no_cart() {
    let data = tempfile::tempdir().expect("a temporary data dir");
    let server = server(data.path(), &[("VERANDA_COMMERCE", "{live_carts = 5}")]).await;
    exported_at_zero(&server).await;
    let page = reqwest::get(format!("{}/", server.address)).await.expect("a page");
    let crumb = cookie_value(&page, "crumb").expect("pages hand out a crumb");
    let (shopper, _) = add_blend(&server, &crumb, "").await;
    add_blend(&server, &crumb, &shopper).await;

    for _ in 0..30 {
        add_blend(&server, &crumb, "").await;
    }
    table_settles(&server, "cart_actors", "total", 5.0, 26.0).await;
    let (_, cart) = add_blend(&server, &crumb, &shopper).await;
    assert_eq!(cart["totalQuantity"], 3, "the stopped actor's cart comes back whole: {cart}");
    table_settles(&server, "cart_actors", "total", 5.0, 27.0).await;
    server.stop();
}
