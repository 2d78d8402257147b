//! Crash harness: the real `veranda` binary is SIGKILLed at a random moment while
//! visitors submit forms concurrently; after each restart, every submission that got a
//! 2xx must be in the owner's export. Ten rounds on one data directory.
//!
//! The binary is `$VERANDA_BIN`, else `veranda` in the test binary's target folder
//! (`cargo test --workspace` and `make test` build it; after changing the server, run
//! `cargo build -p veranda-server` before `cargo test -p veranda-tests` alone).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use veranda_tests::demo_site_without_captcha;
use veranda_tests::process::{crumb_of, get_in_session, random_below, store_owner_session, ServerProcess};

use super::submit::{contact_values, payload, KEY_PATH, SAVE_PATH};

const ROUNDS: usize = 10;
/// Concurrent visitors, each from its own loopback address (the rate limit is per address).
const VISITORS: u8 = 6;
const OWNER_SESSION: &str = "crash-harness-owner";
/// Saves one address may make to one form per minute (the server's limit).
const SAVES_PER_ADDRESS: u32 = 10;

/// A client sending from `ip`, so each gets its own rate-limit allowance.
fn client_from(ip: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder().local_address(IpAddr::V4(ip)).timeout(Duration::from_secs(5)).build().expect("builds")
}

/// One visitor: key, then save, again and again until told to stop, moving to the next
/// loopback address every [`SAVES_PER_ADDRESS`] saves (the per-address limit). Records
/// the subject of every submission answered 200.
async fn visit(
    address: String,
    crumb: String,
    visitor: u8,
    round: usize,
    stop: Arc<AtomicBool>,
    acked: Arc<Mutex<Vec<String>>>,
) {
    let mut client = client_from(Ipv4Addr::new(127, 10 + visitor, 0, 1));
    for i in 0u32.. {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if i > 0 && i % SAVES_PER_ADDRESS == 0 {
            let batch = i / SAVES_PER_ADDRESS;
            client = client_from(Ipv4Addr::new(127, 10 + visitor, (batch / 250) as u8, (batch % 250 + 1) as u8));
        }
        let post = |path: &str, body: Value| {
            client
                .post(format!("{address}{path}"))
                .header("cookie", format!("crumb={crumb}"))
                .header("X-CSRF-Token", crumb.as_str())
                .json(&body)
                .send()
        };
        let Ok(res) = post(KEY_PATH, json!(null)).await else { return };
        let Ok(body) = res.json::<Value>().await else { return };
        let Some(key) = body["key"].as_str() else { return };
        let subject = format!("crash-r{round}-v{visitor}-{i}");
        let mut values = contact_values();
        values["subject"] = json!(subject);
        let Ok(res) = post(SAVE_PATH, payload("contact", key, values)).await else { return };
        match res.status().as_u16() {
            200 => acked.lock().expect("not poisoned").push(subject),
            other => panic!("a save call answered {other}"),
        }
    }
}

/// The subjects of every stored contact submission, through the owner's export.
async fn exported_subjects(address: &str) -> Vec<String> {
    let export_path = "/api/form/submissions?formId=contact";
    let res = get_in_session(&reqwest::Client::new(), address, export_path, OWNER_SESSION).await;
    assert_eq!(res.status(), 200);
    let export: Value = res.json().await.expect("json");
    let rows = export["submissions"].as_array().cloned().unwrap_or_default();
    rows.iter().filter_map(|r| r["values"]["subject"].as_str().map(str::to_string)).collect()
}

#[actix_rt::test]
async fn every_acknowledged_submission_survives_sigkill_at_a_random_moment() {
    let site = demo_site_without_captcha();
    let data = tempfile::tempdir().expect("data dir");
    store_owner_session(data.path(), OWNER_SESSION).await;

    let acked = Arc::new(Mutex::new(Vec::new()));
    for round in 0..=ROUNDS {
        let server = ServerProcess::start_with_site(site.path(), data.path()).await;
        let stored = exported_subjects(&server.address).await;
        let missing: Vec<String> =
            acked.lock().expect("not poisoned").iter().filter(|s| !stored.contains(s)).cloned().collect();
        assert!(missing.is_empty(), "round {round}: acknowledged but lost after SIGKILL: {missing:?}");
        eprintln!(
            "round {round}: {} acknowledged so far, {} stored",
            acked.lock().expect("not poisoned").len(),
            stored.len()
        );
        if round == ROUNDS {
            break;
        }
        let crumb = crumb_of(&server.address).await;
        let stop = Arc::new(AtomicBool::new(false));
        let visitors: Vec<_> = (0..VISITORS)
            .map(|v| {
                let (address, crumb, stop, acked) =
                    (server.address.clone(), crumb.clone(), stop.clone(), acked.clone());
                actix_rt::spawn(visit(address, crumb, v, round, stop, acked))
            })
            .collect();
        server.kill_9_amid(Duration::from_millis(50 + random_below(250)), &stop, visitors).await;
    }
    let total = acked.lock().expect("not poisoned").len();
    assert!(total >= ROUNDS, "only {total} submissions were acknowledged in {ROUNDS} rounds");
}
