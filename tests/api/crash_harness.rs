//! One crash harness across every durable writer: form submissions, cart changes, orders
//! and content edits are written concurrently, each writer at a fixed rate and each write
//! with its own id, while the real `veranda serve` is SIGKILLed at a random moment. After
//! every restart on the same data directory the store must have reopened cleanly (the
//! server becomes ready and answers from it) and every write that was acknowledged with a
//! 2xx must be there:
//!
//! - submissions, by subject, in the owner's export (`/api/form/submissions`);
//! - carts, through the cart API: the quantity of the last acknowledged change, or of the
//!   change in flight at the kill (it may or may not have landed);
//! - orders, at `/commerce/orders/{id}` (the offline provider's confirmation page);
//! - content edits, as the edited page's title (last acknowledged or in flight, per page),
//!   and in the edits stream's history: same epoch, and its head moved on by at least the
//!   number of edits acknowledged in the round.
//!
//! Rounds: `VERANDA_CRASH_ROUNDS`, default 10 (CI, well under two minutes on two cores).
//! A manual run of 100 rounds:
//!
//! ```sh
//! cargo build -p veranda-server --bin veranda
//! VERANDA_CRASH_ROUNDS=100 cargo test -p veranda-tests --test api crash_harness -- --nocapture
//! ```
//!
//! Telemetry loss within the flush window is covered by `telemetry::crash` (it needs the
//! server idle for a whole window before the kill, which a random kill moment rarely gives).
//!
//! The binary is `$VERANDA_BIN`, else `veranda` in the test binary's target folder,
//! brought up to date first.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::time::MissedTickBehavior;
use veranda_actors::accounts::SESSION_COOKIE;
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_tests::demo_site_without_captcha;
use veranda_tests::process::{crumb_of, crumb_with, get_in_session, random_below, store_owner_session, ServerProcess};

use crate::forms::submit::{contact_values, payload, KEY_PATH, SAVE_PATH};

/// Rounds when `VERANDA_CRASH_ROUNDS` is unset.
const DEFAULT_ROUNDS: usize = 10;
/// Each writer's pace: one write per tick.
const TICK: Duration = Duration::from_millis(25);
/// Concurrent form visitors, each from its own loopback addresses.
const VISITORS: u8 = 2;
/// Concurrent shoppers (cart changes, then an order).
const SHOPPERS: usize = 2;
/// Quantity changes a shopper makes before checking out.
const CHANGES_PER_ORDER: u32 = 4;
/// Pages whose settings the editors change, one editor each: (page id, path).
const EDITED_PAGES: [(&str, &str); 2] =
    [("af4c62082b549d924d8ead37", "/about"), ("5003d64d6efc9c40d25b377e", "/calendar")];
/// Saves one address makes before moving on (the server allows 10 per minute per address).
const SAVES_PER_ADDRESS: u32 = 10;
const OWNER_SESSION: &str = "crash-harness-all-writers";

fn rounds() -> usize {
    match std::env::var("VERANDA_CRASH_ROUNDS") {
        Ok(value) => value.trim().parse().expect("VERANDA_CRASH_ROUNDS is a whole number"),
        Err(_) => DEFAULT_ROUNDS,
    }
}

/// What the writers were told, across rounds.
#[derive(Default)]
struct Ledger {
    /// Subjects of submissions answered 2xx.
    submissions: Vec<String>,
    /// Per cart: the quantity last acknowledged, and the one in flight.
    carts: HashMap<String, (u32, Option<u32>)>,
    /// Confirmation paths of placed orders.
    orders: Vec<String>,
    /// Per edited page: the title last acknowledged, and the one in flight.
    titles: HashMap<&'static str, (Option<String>, Option<String>)>,
    /// Edits acknowledged in the current round.
    edits_this_round: u64,
    /// Edits acknowledged in all rounds.
    edits: u64,
}

type Shared = Arc<Mutex<Ledger>>;

fn lock(ledger: &Shared) -> MutexGuard<'_, Ledger> {
    ledger.lock().expect("not poisoned")
}

/// What every writer of a round gets.
struct Writer {
    address: String,
    crumb: String,
    /// The crumb bound to the owner's session, for edits.
    owner_crumb: String,
    round: usize,
    stop: Arc<AtomicBool>,
    ledger: Shared,
}

impl Writer {
    fn ticker() -> tokio::time::Interval {
        let mut ticker = tokio::time::interval(TICK);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        ticker
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

fn client_from(ip: Option<Ipv4Addr>) -> reqwest::Client {
    let builder =
        reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(10));
    builder.local_address(ip.map(IpAddr::V4)).build().expect("builds")
}

/// Asserts a write's answer is a 2xx, or says what it was.
async fn expect_2xx(res: reqwest::Response, what: &str) -> reqwest::Response {
    if res.status().is_success() {
        return res;
    }
    let status = res.status();
    let body = res.text().await.unwrap_or_default();
    panic!("{what} answered {status}: {body}");
}

/// One visitor: a key and a save per tick, each save with its own subject.
async fn submit_forms(w: Writer, visitor: u8) {
    let mut ticker = Writer::ticker();
    let mut client = client_from(None);
    for i in 0u32.. {
        ticker.tick().await;
        if w.stopped() {
            return;
        }
        if i % SAVES_PER_ADDRESS == 0 {
            let batch = i / SAVES_PER_ADDRESS;
            let ip = Ipv4Addr::new(127, 20 + visitor, (w.round % 250) as u8, (batch % 250 + 1) as u8);
            client = client_from(Some(ip));
        }
        let post = |path: &str, body: Value| {
            client
                .post(format!("{}{path}", w.address))
                .header("cookie", format!("crumb={}", w.crumb))
                .header("X-CSRF-Token", w.crumb.as_str())
                .json(&body)
                .send()
        };
        let Ok(res) = post(KEY_PATH, json!(null)).await else { return };
        let Ok(body) = expect_2xx(res, "a submission key").await.json::<Value>().await else { return };
        let key = body["key"].as_str().expect("a key").to_string();
        let subject = format!("harness-r{}-v{visitor}-{i}", w.round);
        let mut values = contact_values();
        values["subject"] = json!(subject);
        let Ok(res) = post(SAVE_PATH, payload("contact", &key, values)).await else { return };
        expect_2xx(res, "a submission").await;
        lock(&w.ledger).submissions.push(subject);
    }
}

/// One shopper: a new cart, a quantity change per tick, then an order; again.
async fn shop(w: Writer) {
    let mut ticker = Writer::ticker();
    let client = client_from(None);
    let crumb = w.crumb.as_str();
    while !w.stopped() {
        ticker.tick().await;
        let sent = client
            .post(format!("{}/api/commerce/cart/entries", w.address))
            .header("cookie", format!("crumb={crumb}"))
            .header("X-CSRF-Token", crumb)
            .json(&json!({ "sku": "VER-GUIDE-PDF", "quantity": 1 }))
            .send()
            .await;
        let Ok(res) = sent else { return };
        let Ok(cart) = expect_2xx(res, "a new cart").await.json::<Value>().await else { return };
        let cart = cart["id"].as_str().expect("a cart id").to_string();
        lock(&w.ledger).carts.insert(cart.clone(), (1, None));
        let cookies = format!("crumb={crumb}; cart={cart}");
        for quantity in 2..2 + CHANGES_PER_ORDER {
            ticker.tick().await;
            if w.stopped() {
                return;
            }
            lock(&w.ledger).carts.entry(cart.clone()).and_modify(|e| e.1 = Some(quantity));
            let sent = client
                .put(format!("{}/api/commerce/cart/entries/VER-GUIDE-PDF", w.address))
                .header("cookie", &cookies)
                .header("X-CSRF-Token", crumb)
                .json(&json!({ "quantity": quantity }))
                .send()
                .await;
            let Ok(res) = sent else { return };
            expect_2xx(res, "a quantity change").await;
            lock(&w.ledger).carts.insert(cart.clone(), (quantity, None));
        }
        ticker.tick().await;
        if w.stopped() {
            return;
        }
        // A checkout in flight at the kill may have emptied the cart.
        lock(&w.ledger).carts.entry(cart.clone()).and_modify(|e| e.1 = Some(0));
        let form = [("crumb", crumb), ("email", "ada@example.com"), ("name", "Ada")];
        let sent = client.post(format!("{}/checkout", w.address)).header("cookie", &cookies).form(&form).send().await;
        let Ok(res) = sent else { return };
        assert_eq!(res.status(), 303, "a checkout: {:?}", res.text().await);
        let location = res.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        assert!(location.starts_with("/commerce/orders/"), "an order's confirmation: {location}");
        let mut ledger = lock(&w.ledger);
        ledger.orders.push(location);
        ledger.carts.remove(&cart);
    }
}

/// One editor: a new title for its page per tick.
async fn edit(w: Writer, editor: usize) {
    let (page, _) = EDITED_PAGES[editor];
    let mut ticker = Writer::ticker();
    let client = client_from(None);
    for i in 0u32.. {
        ticker.tick().await;
        if w.stopped() {
            return;
        }
        let title = format!("harness-r{}-e{editor}-{i}", w.round);
        lock(&w.ledger).titles.entry(page).or_default().1 = Some(title.clone());
        let sent = client
            .put(format!("{}/api/content/pages/{page}/settings", w.address))
            .header("cookie", format!("{SESSION_COOKIE}={OWNER_SESSION}; crumb={}", w.owner_crumb))
            .header("x-csrf-token", w.owner_crumb.as_str())
            .json(&json!({ "title": title }))
            .send()
            .await;
        let Ok(res) = sent else { return };
        expect_2xx(res, "a page settings edit").await;
        let mut ledger = lock(&w.ledger);
        ledger.titles.insert(page, (Some(title), None));
        ledger.edits_this_round += 1;
        ledger.edits += 1;
    }
}

/// `(epoch, head offset)` of the edits stream's history.
async fn edits_head(client: &reqwest::Client, address: &str) -> (String, u64) {
    let res = get_in_session(client, address, "/api/streams/edits/events?limit=1", OWNER_SESSION).await;
    assert_eq!(res.status(), 200, "the edits history");
    let body: Value = res.json().await.expect("json");
    (body["epoch"].as_str().expect("an epoch").to_string(), body["offset"].as_u64().expect("an offset"))
}

/// Checks everything acknowledged so far against the restarted server, and settles what
/// was in flight to what the server holds.
async fn check_acknowledged(address: &str, round: usize, ledger: &Shared, edits_before: Option<&(String, u64)>) {
    let client = reqwest::Client::new();

    let res = get_in_session(&client, address, "/api/form/submissions?formId=contact", OWNER_SESSION).await;
    assert_eq!(res.status(), 200, "the export");
    let export: Value = res.json().await.expect("json");
    let rows = export["submissions"].as_array().cloned().unwrap_or_default();
    let stored: std::collections::HashSet<&str> = rows.iter().filter_map(|r| r["values"]["subject"].as_str()).collect();
    let submissions = lock(ledger).submissions.clone();
    let missing: Vec<&String> = submissions.iter().filter(|s| !stored.contains(s.as_str())).collect();
    assert!(missing.is_empty(), "round {round}: submissions acknowledged but lost: {missing:?}");

    let carts = lock(ledger).carts.clone();
    for (cart, (quantity, in_flight)) in &carts {
        let res = client
            .get(format!("{address}/api/commerce/cart"))
            .header("cookie", format!("cart={cart}"))
            .send()
            .await
            .expect("answered");
        assert_eq!(res.status(), 200, "round {round}: cart {cart}");
        let body: Value = res.json().await.expect("json");
        let held = body["totalQuantity"].as_u64().and_then(|q| u32::try_from(q).ok()).unwrap_or(0);
        assert!(
            held == *quantity || Some(held) == *in_flight,
            "round {round}: cart {cart} holds {held}, acknowledged {quantity} (in flight {in_flight:?})"
        );
        lock(ledger).carts.insert(cart.clone(), (held, None));
    }

    let orders = lock(ledger).orders.clone();
    for order in &orders {
        let res = client.get(format!("{address}{order}")).send().await.expect("answered");
        assert_eq!(res.status(), 200, "round {round}: order {order} lost");
    }

    for (page, path) in EDITED_PAGES {
        let (acked, in_flight) = lock(ledger).titles.get(page).cloned().unwrap_or_default();
        if acked.is_none() && in_flight.is_none() {
            continue;
        }
        let html = client.get(format!("{address}{path}")).send().await.expect("answered").text().await.expect("HTML");
        // No title acknowledged yet: the page keeps the title it was published with.
        let shows = |t: &Option<String>| match t {
            Some(t) => html.contains(&format!("<title>{t} ·")),
            None => !html.contains("<title>harness-"),
        };
        assert!(shows(&acked) || shows(&in_flight), "round {round}: {path} shows neither {acked:?} nor {in_flight:?}");
        let held = if shows(&in_flight) { in_flight } else { acked };
        lock(ledger).titles.insert(page, (held, None));
    }

    let edits = std::mem::take(&mut lock(ledger).edits_this_round);
    let (epoch, head) = edits_head(&client, address).await;
    if let Some((epoch_before, head_before)) = edits_before.filter(|_| edits > 0) {
        assert_eq!(&epoch, epoch_before, "round {round}: the edits history was started over, losing its events");
        assert!(
            head >= head_before + edits,
            "round {round}: {edits} edits acknowledged, the history's head moved from {head_before} to {head}"
        );
    }
}

#[actix_rt::test]
async fn every_acknowledged_write_of_every_writer_survives_sigkill() {
    let started = Instant::now();
    let rounds = rounds();
    let site = demo_site_without_captcha();
    let data = tempfile::tempdir().expect("data dir");
    store_owner_session(data.path(), OWNER_SESSION).await;

    let ledger: Shared = Arc::default();
    let mut edits_before: Option<(String, u64)> = None;
    for round in 0..=rounds {
        // Every shopper comes from 127.0.0.1: the address may check out as often as they do.
        let unlimited = ("VERANDA_COMMERCE", "{checkout_burst = 100000}");
        let server = ServerProcess::start_with_env(site.path(), data.path(), &[unlimited]).await;
        check_acknowledged(&server.address, round, &ledger, edits_before.as_ref()).await;
        {
            let ledger = lock(&ledger);
            eprintln!(
                "round {round}: {} submissions, {} open carts, {} orders, {} edits acknowledged so far, all there",
                ledger.submissions.len(),
                ledger.carts.len(),
                ledger.orders.len(),
                ledger.edits
            );
        }
        if round == rounds {
            server.stop();
            break;
        }
        edits_before = Some(edits_head(&reqwest::Client::new(), &server.address).await);
        let crumb = crumb_of(&server.address).await;
        let owner_crumb = crumb_with(&server.address, Some(&format!("{SESSION_COOKIE}={OWNER_SESSION}"))).await;
        let stop = Arc::new(AtomicBool::new(false));
        let writer = || Writer {
            address: server.address.clone(),
            crumb: crumb.clone(),
            owner_crumb: owner_crumb.clone(),
            round,
            stop: stop.clone(),
            ledger: ledger.clone(),
        };
        let mut tasks = Vec::new();
        for v in 0..VISITORS {
            tasks.push(actix_rt::spawn(submit_forms(writer(), v)));
        }
        for _ in 0..SHOPPERS {
            tasks.push(actix_rt::spawn(shop(writer())));
        }
        for e in 0..EDITED_PAGES.len() {
            tasks.push(actix_rt::spawn(edit(writer(), e)));
        }
        server.kill_9_amid(Duration::from_millis(150 + random_below(450)), &stop, tasks).await;
    }

    // After a clean stop the database opens directly and holds every tree.
    let store = SledStore::open(data.path()).expect("the data dir reopens after the last round");
    let stored = store.scan_prefix(Tree::Submissions, b"", 100_000).expect("submissions scan").len();
    let ledger = lock(&ledger);
    assert!(stored >= ledger.submissions.len(), "{stored} submissions stored");
    assert!(ledger.submissions.len() >= rounds, "only {} submissions in {rounds} rounds", ledger.submissions.len());
    assert!(ledger.orders.len() >= rounds / 2, "only {} orders in {rounds} rounds", ledger.orders.len());
    assert!(ledger.edits >= rounds as u64, "only {} edits in {rounds} rounds", ledger.edits);
    eprintln!(
        "{rounds} rounds in {:.1} s: {} submissions, {} orders, {} edits, every acknowledged write kept",
        started.elapsed().as_secs_f64(),
        ledger.submissions.len(),
        ledger.orders.len(),
        ledger.edits
    );
}
