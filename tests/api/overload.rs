//! Overload: the real `veranda serve`, its store stalled (the test-only
//! `VERANDA_TEST_STORE_STALL_MS`: every store write waits [`STALL_MS`], one at a time),
//! is driven at ten times the capacity measured just before, on the write routes: form
//! submissions (key, then save), cart quantity changes, census page views
//! (`RecordHit`) and JavaScript error reports. It must:
//!
//! - answer only 2xx, 429 or 503, every 429 and 503 with `Retry-After`, and never hang
//!   (no request fails or times out); and shed: with more clients than the server's limit
//!   of state-changing requests in flight, some answers are 503 rather than an ever longer
//!   wait;
//! - keep its memory bounded: the largest RSS (`VmRSS` of `/proc/<pid>/status`) seen
//!   in the last third of the load is at most [`RSS_GROWTH_FACTOR`] times the largest seen
//!   in the first third, plus [`RSS_SLACK_BYTES`]. A server that queues without bound
//!   grows with every second of a constant overload, so its last third is well above its
//!   first; one with bounded queues has filled them early and stays level. The slack
//!   absorbs allocator noise and the bounded queues that fill more slowly (the telemetry
//!   writer's 4,096 jobs);
//! - answer every route normally (2xx) again within 5 s after the load stops.
//!
//! The load is bounded: [`OVERLOAD`] long, at most [`MAX_RATE`] operations per second,
//! at most [`MAX_IN_FLIGHT`] requests at once (a tick finding them all busy is skipped
//! and counted), all on 127.0.0.1. The rate limits of the forms and telemetry routes are
//! raised in the server's configuration so the store, not the limiter, is what saturates
//! (429s remain acceptable answers).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Stdio};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::Semaphore;
use veranda_server::overload::MAX_WRITES_IN_FLIGHT;
use veranda_tests::process::{crumb_of, free_port, serve_command};
use veranda_tests::{demo_site_copy, eventually};

use crate::forms::submit::{contact_values, payload, KEY_PATH, SAVE_PATH};

/// Milliseconds every store write is held.
const STALL_MS: u64 = 4;
/// How long the capacity is measured, with [`CAPACITY_CLIENTS`] clients in a closed loop.
const CAPACITY_WINDOW: Duration = Duration::from_millis(1500);
const CAPACITY_CLIENTS: usize = 4;
/// How long the overload lasts.
const OVERLOAD: Duration = Duration::from_secs(4);
/// The overload's rate, as a multiple of the measured capacity.
const OVERLOAD_FACTOR: f64 = 10.0;
/// The most operations per second sent, whatever the capacity (keeps the test bounded).
const MAX_RATE: f64 = 4000.0;
/// The most requests in flight at once: the load's concurrent clients, more than the
/// server handles at once ([`MAX_WRITES_IN_FLIGHT`]), so its limit is reached.
const MAX_IN_FLIGHT: usize = MAX_WRITES_IN_FLIGHT + 256;
/// How often operations are started (each tick starts the ones due).
const DISPATCH_TICK: Duration = Duration::from_millis(5);
/// How often RSS is sampled during the overload.
const RSS_SAMPLE: Duration = Duration::from_millis(50);
/// RSS criterion: the last third's peak at most this factor times the first third's...
const RSS_GROWTH_FACTOR: f64 = 1.5;
/// ... plus this much.
const RSS_SLACK_BYTES: u64 = 32 * 1024 * 1024;
/// How soon after the load every route must answer normally again.
const RECOVERY: Duration = Duration::from_secs(5);
/// The longest any one request may take before it counts as a hang.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// `veranda serve` with a stalled store; SIGKILLed when dropped.
struct StalledServer {
    child: Child,
    address: String,
    log: std::path::PathBuf,
}

impl StalledServer {
    async fn start(site: &Path, data: &Path) -> StalledServer {
        let config = data.join("overload.toml");
        std::fs::write(
            &config,
            "[forms]\nsubmissions_per_minute = 100000000\nkeys_per_minute = 100000000\n\n\
             [telemetry]\nrate_per_second = 100000000\nrate_burst = 100000000\n",
        )
        .expect("config written");
        let log = data.join("server.log");
        let log_file = std::fs::File::create(&log).expect("log file");
        let (port, ops_port) = (free_port(), free_port());
        let child = serve_command(site, &data.join("store"), port, ops_port)
            .env("VERANDA_TEST_STORE_STALL_MS", STALL_MS.to_string())
            .arg("--config")
            .arg(&config)
            .stdout(log_file.try_clone().expect("log handle"))
            .stderr(log_file)
            .stdin(Stdio::null())
            .spawn()
            .expect("the server starts");
        let server = StalledServer { child, address: format!("http://127.0.0.1:{port}"), log };
        let probe = reqwest::Client::new();
        eventually(Duration::from_secs(30), "the server to become ready", || async {
            let ready = probe.get(format!("http://127.0.0.1:{ops_port}/health/ready")).send().await;
            ready.is_ok_and(|r| r.status() == 200).then_some(()).ok_or_else(|| server.log_text())
        })
        .await;
        server
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The server's resident set size in bytes.
    fn rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("/proc status");
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("a VmRSS line");
        let kib: u64 = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("VmRSS in kB");
        kib * 1024
    }
}

impl Drop for StalledServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The write routes driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    Form,
    Cart,
    Hit,
    Errors,
}

const OPS: [Op; 4] = [Op::Form, Op::Cart, Op::Hit, Op::Errors];

/// What the load needs to send requests.
struct Target {
    client: reqwest::Client,
    address: String,
    crumb: String,
    /// Carts to change, used in turn.
    carts: Vec<String>,
    /// Numbers requests (unique page loads, cart turns).
    counter: AtomicU64,
}

/// One answer: the status and whether it carried `Retry-After`; `None` for a request
/// that failed (a reset, a refused connection or a timeout).
type Answer = Option<(u16, bool)>;

fn answer_of(res: Result<reqwest::Response, reqwest::Error>) -> (Answer, Option<reqwest::Response>) {
    match res {
        Ok(res) => (Some((res.status().as_u16(), res.headers().contains_key("retry-after"))), Some(res)),
        Err(_) => (None, None),
    }
}

impl Target {
    fn next(&self) -> u64 {
        self.counter.fetch_add(1, Ordering::Relaxed)
    }

    fn crumbed(&self, request: reqwest::RequestBuilder, extra_cookie: &str) -> reqwest::RequestBuilder {
        request.header("cookie", format!("crumb={}{extra_cookie}", self.crumb)).header("X-CSRF-Token", &self.crumb)
    }

    /// Runs one operation; returns the answer of each request it sent.
    async fn run(&self, op: Op) -> Vec<(Op, Answer)> {
        let n = self.next();
        match op {
            Op::Form => {
                let key = self.crumbed(self.client.post(format!("{}{KEY_PATH}", self.address)), "").json(&json!(null));
                let (answer, res) = answer_of(key.send().await);
                let key = match res {
                    Some(res) if res.status() == 200 => {
                        res.json::<Value>().await.ok().and_then(|b| b["key"].as_str().map(str::to_string))
                    }
                    _ => None,
                };
                let Some(key) = key else { return vec![(op, answer)] };
                let mut values = contact_values();
                values["subject"] = json!(format!("overload-{n}"));
                let save = self
                    .crumbed(self.client.post(format!("{}{SAVE_PATH}", self.address)), "")
                    .json(&payload("contact", &key, values));
                vec![(op, answer), (op, answer_of(save.send().await).0)]
            }
            Op::Cart => {
                let cart = &self.carts[n as usize % self.carts.len()];
                let change = self
                    .crumbed(
                        self.client.put(format!("{}/api/commerce/cart/entries/VER-GUIDE-PDF", self.address)),
                        &format!("; cart={cart}"),
                    )
                    .json(&json!({ "quantity": 1 + n % 5 }));
                vec![(op, answer_of(change.send().await).0)]
            }
            Op::Hit => {
                let data = json!({ "url": format!("/about?n={n}"), "title": "About" }).to_string();
                let hit = self
                    .client
                    .post(format!("{}/api/census/RecordHit", self.address))
                    .header("cookie", "ss_cookieAllowed=true")
                    .form(&[("event", "pageView"), ("data", &data)]);
                vec![(op, answer_of(hit.send().await).0)]
            }
            Op::Errors => {
                let report = json!([{ "event": "error", "timestamp": 1, "data": {
                    "url": "https://example.com/about", "message": format!("overload {}", n % 50),
                    "file": "https://example.com/a.js", "line": 1, "column": 1,
                    "pageLoadId": format!("overload-load-{n}") } }]);
                let errors = self
                    .crumbed(self.client.post(format!("{}/api/events/RecordJavascriptErrors", self.address)), "")
                    .json(&report);
                vec![(op, answer_of(errors.send().await).0)]
            }
        }
    }
}

/// Answers counted by route and status.
#[derive(Default)]
struct Tally {
    /// (route, status) → count; status 0 is a failed request.
    statuses: BTreeMap<(Op, u16), u64>,
    /// 429 and 503 answers without `Retry-After`.
    missing_retry_after: u64,
    /// Operations not started because every client was busy.
    skipped: u64,
}

impl Tally {
    fn add(&mut self, answers: Vec<(Op, Answer)>) {
        for (op, answer) in answers {
            let (status, retry_after) = answer.unwrap_or((0, false));
            *self.statuses.entry((op, status)).or_default() += 1;
            if matches!(status, 429 | 503) && !retry_after {
                self.missing_retry_after += 1;
            }
        }
    }

    fn count(&self, keep: impl Fn(u16) -> bool) -> u64 {
        self.statuses.iter().filter(|((_, s), _)| keep(*s)).map(|(_, n)| n).sum()
    }
}

/// Completed operations per second with a few clients in a closed loop (an operation
/// counts when all its requests answered 2xx).
async fn capacity(target: &Rc<Target>) -> f64 {
    let started = Instant::now();
    let done = Rc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..CAPACITY_CLIENTS)
        .map(|c| {
            let (target, done) = (target.clone(), done.clone());
            actix_rt::spawn(async move {
                let mut i = c;
                while started.elapsed() < CAPACITY_WINDOW {
                    let answers = target.run(OPS[i % OPS.len()]).await;
                    if answers.iter().all(|(_, a)| a.is_some_and(|(s, _)| (200..300).contains(&s))) {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    i += 1;
                }
            })
        })
        .collect();
    for client in clients {
        client.await.expect("a capacity client finishes");
    }
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}

/// Starts operations at `rate` per second for [`OVERLOAD`], at most [`MAX_IN_FLIGHT`] at
/// once, sampling RSS; returns the tally and the RSS samples, once every request answered.
async fn overload(target: &Rc<Target>, server: &StalledServer, rate: f64) -> (Tally, Vec<(Duration, u64)>) {
    let tally = Rc::new(std::cell::RefCell::new(Tally::default()));
    let clients = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let mut samples = Vec::new();
    let mut last_sample = Duration::ZERO;
    let mut tasks = Vec::new();
    let started = Instant::now();
    let mut started_ops = 0u64;
    let mut ticker = tokio::time::interval(DISPATCH_TICK);
    while started.elapsed() < OVERLOAD {
        ticker.tick().await;
        let elapsed = started.elapsed();
        if elapsed - last_sample >= RSS_SAMPLE || samples.is_empty() {
            samples.push((elapsed, server.rss()));
            last_sample = elapsed;
        }
        let due = (elapsed.as_secs_f64() * rate) as u64;
        while started_ops < due {
            let op = OPS[(started_ops % OPS.len() as u64) as usize];
            started_ops += 1;
            let Ok(permit) = clients.clone().try_acquire_owned() else {
                tally.borrow_mut().skipped += 1;
                continue;
            };
            let (target, tally) = (target.clone(), tally.clone());
            tasks.push(actix_rt::spawn(async move {
                let answers = target.run(op).await;
                tally.borrow_mut().add(answers);
                drop(permit);
            }));
        }
    }
    for task in tasks {
        task.await.expect("a load request finishes");
    }
    let tally = Rc::try_unwrap(tally).ok().expect("every task finished").into_inner();
    (tally, samples)
}

/// Polls each route until it answers 2xx; returns how long that took, or the last
/// answers seen once [`RECOVERY`] has passed.
async fn recovered(target: &Target, since: Instant) -> Result<Duration, Vec<(Op, Answer)>> {
    let mut pending: Vec<Op> = OPS.to_vec();
    let mut last = Vec::new();
    while !pending.is_empty() {
        if since.elapsed() > RECOVERY {
            return Err(last);
        }
        let mut still = Vec::new();
        for op in pending {
            let answers = target.run(op).await;
            if !answers.iter().all(|(_, a)| a.is_some_and(|(s, _)| (200..300).contains(&s))) {
                still.push(op);
                last.extend(answers);
            }
        }
        pending = still;
        if !pending.is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    Ok(since.elapsed())
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

#[actix_rt::test]
async fn a_stalled_store_under_ten_times_its_capacity_sheds_load_and_recovers() {
    let site = demo_site_copy(|_| {});
    let contact = site.path().join("pages/contact.toml");
    let text = std::fs::read_to_string(&contact).expect("contact page");
    std::fs::write(&contact, text.replacen("captcha = true", "captcha = false", 1)).expect("written");
    let data = tempfile::tempdir().expect("data dir");
    let server = StalledServer::start(site.path(), data.path()).await;
    assert!(server.log_text().contains("TEST-ONLY"), "a stalled store is announced loudly: {}", server.log_text());

    let client = reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .pool_max_idle_per_host(MAX_IN_FLIGHT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("builds");
    let crumb = crumb_of(&server.address).await;
    let mut carts = Vec::new();
    for _ in 0..8 {
        let res = client
            .post(format!("{}/api/commerce/cart/entries", server.address))
            .header("cookie", format!("crumb={crumb}"))
            .header("X-CSRF-Token", crumb.as_str())
            .json(&json!({ "sku": "VER-GUIDE-PDF", "quantity": 1 }))
            .send()
            .await
            .expect("answered");
        assert_eq!(res.status(), 200, "a cart");
        let body: Value = res.json().await.expect("json");
        carts.push(body["id"].as_str().expect("a cart id").to_string());
    }
    let target = Rc::new(Target { client, address: server.address.clone(), crumb, carts, counter: AtomicU64::new(0) });

    let capacity = capacity(&target).await;
    assert!(capacity > 0.0, "the stalled server completes some operations");
    let rate = (capacity * OVERLOAD_FACTOR).min(MAX_RATE);
    let (tally, samples) = overload(&target, &server, rate).await;
    let load_stopped = Instant::now();
    let recovery = recovered(&target, load_stopped).await;

    let third = OVERLOAD / 3;
    let peak = |keep: &dyn Fn(Duration) -> bool| samples.iter().filter(|(t, _)| keep(*t)).map(|(_, r)| *r).max();
    let first = peak(&|t| t < third).expect("RSS samples in the first third");
    let last = peak(&|t| t >= third * 2).expect("RSS samples in the last third");
    let shed = tally.count(|s| matches!(s, 429 | 503));
    let ok = tally.count(|s| (200..300).contains(&s));
    eprintln!(
        "overload: stall {STALL_MS} ms/write, capacity {capacity:.0} ops/s, driven at {rate:.0} ops/s for {:?} \
         with at most {MAX_IN_FLIGHT} in flight; {ok} answered 2xx, {shed} 429/503, {} skipped (all clients busy); \
         RSS peak {:.1} MiB first third, {:.1} MiB last third; recovery {recovery:?}",
        OVERLOAD,
        tally.skipped,
        mib(first),
        mib(last),
    );
    eprintln!("answers by route and status: {:?}", tally.statuses);

    let unexpected: Vec<_> =
        tally.statuses.iter().filter(|((_, s), _)| !((200..300).contains(s) || matches!(s, 429 | 503))).collect();
    assert!(unexpected.is_empty(), "only 2xx, 429 or 503 (0 = failed or timed out): {unexpected:?}");
    assert_eq!(tally.missing_retry_after, 0, "every 429 and 503 carries Retry-After");
    assert!(ok > 0, "some requests were served during the overload");
    assert!(shed > 0, "more clients than the server's limit of writes in flight, and nothing was shed");
    assert!(
        (last as f64) <= first as f64 * RSS_GROWTH_FACTOR + RSS_SLACK_BYTES as f64,
        "RSS kept growing: {:.1} MiB in the first third, {:.1} MiB in the last",
        mib(first),
        mib(last)
    );
    if let Err(last) = recovery {
        panic!("not every route answered 2xx within {RECOVERY:?} after the load stopped: {last:?}");
    }
}
