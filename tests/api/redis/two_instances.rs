//! Two `veranda serve` processes on one `redis-server` (append-only, fsync always) and
//! one site, as behind a load balancer: a visitor signed in on A stays signed in on B; a
//! form saved on A is in B's export; a page or header edited on A renders so on B; edits
//! of different items made at the same moment through A and B all stay; an error
//! reported on A reaches a dashboard subscribed on B; and SIGKILL of A amid a stream of
//! submissions loses none that A acknowledged (B serves every one).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use veranda_actors::accounts::{create_account, Account, AccountRole, Email, Password, SESSION_COOKIE};
use veranda_actors::site::Site;
use veranda_actors::store::redis_store::RedisSettings;
use veranda_actors::store::{RedisStore, Store, Tree};
use veranda_server::services::site::{ContentOverlay, CONTENT_KEY};
use veranda_tests::accounts::SESSION_PATH;
use veranda_tests::process::crumb_of;
use veranda_tests::telemetry::{error_record, send_error_records};
use veranda_tests::{cookie_value, demo_site_without_captcha, eventually};

use crate::commerce::redis::harness::{Instance, Redis};
use crate::forms::submit::{contact_values, payload, KEY_PATH, SAVE_PATH};
use crate::streams::{next_json, Socket};

/// The demo's About page.
const ABOUT: &str = "af4c62082b549d924d8ead37";
const EXPORT_PATH: &str = "/api/form/submissions?formId=contact";

fn client_from(ip: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(ip))
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(5))
        .build()
        .expect("builds")
}

/// Saves a contact form with `subject` through the server at `address`; the status
/// (`None` when the server did not answer).
async fn submit(client: &reqwest::Client, address: &str, crumb: &str, subject: &str) -> Option<u16> {
    let post = |path: &str, body: Value| {
        client
            .post(format!("{address}{path}"))
            .header("cookie", format!("crumb={crumb}"))
            .header("X-CSRF-Token", crumb)
            .json(&body)
            .send()
    };
    let body: Value = post(KEY_PATH, json!(null)).await.ok()?.json().await.ok()?;
    let key = body["key"].as_str()?.to_string();
    let mut values = contact_values();
    values["subject"] = json!(subject);
    Some(post(SAVE_PATH, payload("contact", &key, values)).await.ok()?.status().as_u16())
}

/// The subjects of the contact submissions in the export of the server at `address`.
async fn exported(client: &reqwest::Client, address: &str, cookie: &str) -> Vec<String> {
    let res = client.get(format!("{address}{EXPORT_PATH}")).header("cookie", cookie).send().await.expect("answered");
    assert_eq!(res.status(), 200, "the export through {address}");
    let export: Value = res.json().await.expect("json");
    let rows = export["submissions"].as_array().cloned().unwrap_or_default();
    rows.iter().filter_map(|r| r["values"]["subject"].as_str().map(str::to_string)).collect()
}

/// The HTML of `path` on the server at `address`.
async fn page(client: &reqwest::Client, address: &str, path: &str) -> String {
    client.get(format!("{address}{path}")).send().await.expect("answered").text().await.unwrap_or_default()
}

/// Opens the errors stream of the server at `address` as its own dashboard page.
async fn watch_errors(address: &str, cookie: &str) -> Socket {
    let url = format!("{}/api/streams/errors", address.replace("http://", "ws://"));
    let mut request = url.into_client_request().expect("a websocket request");
    request.headers_mut().insert("cookie", cookie.parse().expect("a header value"));
    request.headers_mut().insert("origin", address.parse().expect("a header value"));
    tokio_tungstenite::connect_async(request).await.expect("the stream opens").0
}

#[actix_rt::test]
async fn two_instances_share_sessions_submissions_edits_errors_and_lose_nothing_acknowledged() {
    let Some(redis) = Redis::if_installed().await else { return };
    let site = demo_site_without_captcha();
    let mut a = Instance::start(site.path(), &redis.url()).await;
    let b = Instance::start(site.path(), &redis.url()).await;
    let client = client_from(Ipv4Addr::new(127, 0, 0, 1));

    // An owner account in the shared store, signed in through A.
    let store = RedisStore::connect(&redis.url(), &RedisSettings::default()).await.expect("connects");
    let email = Email::parse("owner@example.com").expect("valid");
    let roles = [AccountRole::parse("owner").expect("a role")];
    let account = Account::new(email, &Password::parse("porch swing").expect("valid"), &roles, 1_700_000_000);
    create_account(&store, &account.expect("hashes")).await.expect("stored");
    let crumb = crumb_of(&a.address).await;
    let res = client
        .post(format!("{}{SESSION_PATH}", a.address))
        .header("cookie", format!("crumb={crumb}"))
        .header("X-CSRF-Token", &crumb)
        .json(&json!({ "email": "owner@example.com", "password": "porch swing" }))
        .send()
        .await
        .expect("answered");
    assert!(res.status().is_success(), "signs in on A: {}", res.status());
    let session = cookie_value(&res, SESSION_COOKIE).expect("a session cookie");
    // Edits are checked against a crumb issued to the session.
    let res = client
        .get(format!("{}/?noredirect", a.address))
        .header("cookie", format!("{SESSION_COOKIE}={session}"))
        .send()
        .await
        .expect("answered");
    let session_crumb = cookie_value(&res, "crumb").expect("a crumb for the session");
    let cookie = format!("{SESSION_COOKIE}={session}; crumb={session_crumb}");

    // Signed in on B too; without the session B refuses the export.
    assert_eq!(exported(&client, &b.address, &cookie).await, Vec::<String>::new());
    let anonymous = client.get(format!("{}{EXPORT_PATH}", b.address)).send().await.expect("answered");
    assert!(anonymous.status().is_client_error(), "{}", anonymous.status());

    // A form saved on A is in B's export.
    assert_eq!(submit(&client, &a.address, &crumb, "saved on A").await, Some(200));
    assert_eq!(exported(&client, &b.address, &cookie).await, vec!["saved on A".to_string()]);

    // Edits on A render on B: a page's title (the content overlay) and the header.
    let put = |path: String, body: Value| {
        client
            .put(format!("{}{path}", a.address))
            .header("cookie", &cookie)
            .header("X-CSRF-Token", &session_crumb)
            .json(&body)
            .send()
    };
    let res =
        put(format!("/api/content/pages/{ABOUT}/settings"), json!({ "title": "Who we are" })).await.expect("answered");
    assert_eq!(res.status(), 200);
    let res = put("/api/site-header-footer".into(), json!({ "header": "Shared porch news", "footer": "F" }))
        .await
        .expect("answered");
    assert_eq!(res.status(), 200);
    eventually(Duration::from_secs(10), "B to show A's page edit", || async {
        page(&client, &b.address, "/about").await.contains("<title>Who we are")
    })
    .await;
    eventually(Duration::from_secs(10), "B to show A's header", || async {
        page(&client, &b.address, "/").await.contains("Shared porch news")
    })
    .await;

    // Edits of different items made at the same moment through A and B all stay.
    let loaded = Site::load(site.path()).expect("the site loads");
    let items: Vec<String> = loaded.collections.iter().flat_map(|c| c.items.iter().map(|i| i.id.clone())).collect();
    assert!(items.len() >= 8, "the demo has items to hide: {items:?}");
    let hides = items.iter().enumerate().map(|(n, id)| {
        let address = if n % 2 == 0 { &a.address } else { &b.address };
        client
            .put(format!("{address}/api/content/items/{id}/visibility"))
            .header("cookie", &cookie)
            .header("X-CSRF-Token", &session_crumb)
            .json(&json!({ "state": "draft" }))
            .send()
    });
    for answer in futures_util::future::join_all(hides).await {
        assert_eq!(answer.expect("answered").status(), 200, "an item hidden");
    }
    let stored = store.get(Tree::Settings, CONTENT_KEY).expect("reads").expect("the overlay is stored");
    let overlay: ContentOverlay = serde_json::from_slice(&stored).expect("an overlay");
    let kept: Vec<&String> = items.iter().filter(|id| overlay.item_states.contains_key(*id)).collect();
    assert_eq!(kept.len(), items.len(), "every hidden item is in the stored overlay: {kept:?}");
    assert!(overlay.pages.contains_key(ABOUT), "the earlier page edit stays too");

    // An error reported on A reaches the errors stream subscribed on B.
    let mut dashboard = watch_errors(&b.address, &cookie).await;
    assert_eq!(next_json(&mut dashboard).await["type"], "hello");
    let records = json!([error_record("porch-light-broke", "load-1")]);
    let status = send_error_records(&a.address, &crumb, None, &records).await;
    assert!((200..300).contains(&status), "the error ingest answered {status}");
    loop {
        let frame = next_json(&mut dashboard).await;
        if frame["type"] == "event" && frame.to_string().contains("porch-light-broke") {
            break;
        }
    }

    // SIGKILL of A amid submissions: every one A acknowledged is in B's export.
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(Mutex::new(Vec::<String>::new()));
    let visitors: Vec<_> = (0..4u8)
        .map(|v| {
            let (address, crumb, stop, acked) = (a.address.clone(), crumb.clone(), stop.clone(), acked.clone());
            actix_rt::spawn(async move {
                for i in 0u32.. {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    // A new address every few saves: the save limit is per address.
                    let client = client_from(Ipv4Addr::new(127, 20 + v, (i / 5 / 250) as u8, (i / 5 % 250 + 1) as u8));
                    let subject = format!("kill-{v}-{i}");
                    match submit(&client, &address, &crumb, &subject).await {
                        Some(200) => acked.lock().expect("not poisoned").push(subject),
                        Some(other) => panic!("a save answered {other}"),
                        None => return,
                    }
                }
            })
        })
        .collect();
    eventually(Duration::from_secs(20), "A to acknowledge some submissions", || async {
        acked.lock().expect("not poisoned").len() >= 20
    })
    .await;
    let _ = a.child.kill();
    let _ = a.child.wait();
    stop.store(true, Ordering::Relaxed);
    for visitor in visitors {
        let _ = visitor.await;
    }
    let acked = acked.lock().expect("not poisoned").clone();
    let stored = exported(&client, &b.address, &cookie).await;
    let missing: Vec<&String> = acked.iter().filter(|s| !stored.contains(s)).collect();
    assert!(missing.is_empty(), "acknowledged by A but not served by B after SIGKILL: {missing:?}");
    eprintln!("{} submissions acknowledged by A before SIGKILL, all served by B", acked.len());
}
