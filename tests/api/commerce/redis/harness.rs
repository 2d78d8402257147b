//! The harness of the Redis tests: a real `redis-server`, `veranda serve` instances
//! sharing it, and a door (crumb and cart cookie) into each.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use veranda_tests::demo_site_copy;
use veranda_tests::eventually;
use veranda_tests::process::{crumb_of, free_port, serve_command, spawn_ready};

/// Whether `redis-server` can be run; says loudly when not.
pub(crate) fn redis_installed() -> bool {
    let ok = Command::new("redis-server").arg("--version").output().is_ok_and(|o| o.status.success())
        && Command::new("redis-cli").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("\n!!!!!!!!\n!!! redis-server/redis-cli not installed: the Redis tests are SKIPPED\n!!!!!!!!\n");
    }
    ok
}

/// A `redis-server` on a free 127.0.0.1 port with its files in a temp dir; killed when
/// dropped.
pub(crate) struct Redis {
    pub(super) child: Child,
    pub(super) port: u16,
    pub(super) _dir: tempfile::TempDir,
}

impl Redis {
    /// A started one, or `None` when `redis-server` is not installed (the test then skips).
    pub(crate) async fn if_installed() -> Option<Redis> {
        if !redis_installed() {
            return None;
        }
        Some(Redis::start().await)
    }

    /// Starts it and waits (at most 20 s) until it answers `PING`.
    pub(crate) async fn start() -> Redis {
        let dir = tempfile::tempdir().expect("a temp dir");
        let port = free_port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes"])
            .args(["--appendfsync", "always"])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        let redis = Redis { child, port, _dir: dir };
        eventually(Duration::from_secs(20), "redis-server to answer PING", || async { redis.cli(&["PING"]) == "PONG" })
            .await;
        redis
    }

    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Runs one `redis-cli` command; its trimmed output.
    pub(crate) fn cli(&self, args: &[&str]) -> String {
        let out = Command::new("redis-cli").args(["-h", "127.0.0.1", "-p", &self.port.to_string()]).args(args).output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default()
    }

    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One `veranda serve` with `--redis-url`, its own data dir; killed when dropped.
pub(crate) struct Instance {
    pub(crate) child: Child,
    pub(crate) address: String,
    pub(crate) _data: tempfile::TempDir,
    /// Its standard error, shown when it never becomes ready.
    pub(crate) log: tempfile::NamedTempFile,
}

impl Instance {
    /// The `veranda serve` command for `site` and `redis_url` on free ports.
    pub(crate) fn command(site: &Path, data: &Path, redis_url: &str) -> (Command, u16, u16) {
        let (port, ops_port) = (free_port(), free_port());
        (Instance::command_on(site, data, redis_url, port, ops_port), port, ops_port)
    }

    /// The `veranda serve` command for `site` and `redis_url` on `port` and `ops_port`.
    fn command_on(site: &Path, data: &Path, redis_url: &str, port: u16, ops_port: u16) -> Command {
        let mut command = serve_command(site, data, port, ops_port);
        command.args(["--redis-url", redis_url]);
        // Every test client comes from 127.0.0.1: it may check out as often as the tests need.
        command.env("VERANDA_COMMERCE", "{checkout_burst = 1000}");
        command
    }

    /// Starts it and waits (at most 60 s) until `/health/ready` answers 200.
    pub(crate) async fn start(site: &Path, redis_url: &str) -> Instance {
        Instance::start_with_env(site, redis_url, &[]).await
    }

    /// [`Instance::start`] with the `VERANDA_*` variables of `env` set.
    pub(crate) async fn start_with_env(site: &Path, redis_url: &str, env: &[(&str, &str)]) -> Instance {
        let data = tempfile::tempdir().expect("a data dir");
        let what = "veranda with --redis-url to become ready";
        let (child, log, port, _) = spawn_ready(Duration::from_secs(60), what, |port, ops_port| {
            let mut command = Instance::command_on(site, data.path(), redis_url, port, ops_port);
            command.envs(env.iter().copied());
            command
        })
        .await;
        Instance { child, address: format!("http://127.0.0.1:{port}"), _data: data, log }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .expect("builds")
}

/// The cart cookie a response sets.
pub(super) fn cart_cookie(res: &reqwest::Response) -> Option<String> {
    veranda_tests::cookie_value(res, "cart")
}

/// One shopper's way into one instance: its address and crumb.
#[derive(Clone)]
pub(super) struct Door {
    pub(super) address: String,
    pub(super) crumb: String,
}

impl Door {
    /// Each instance has its own data dir, so its own crumb key.
    pub(super) async fn of(instance: &Instance) -> Door {
        Door { address: instance.address.clone(), crumb: crumb_of(&instance.address).await }
    }

    pub(super) fn cookies(&self, cart: Option<&str>) -> String {
        match cart {
            Some(cart) => format!("crumb={}; cart={cart}", self.crumb),
            None => format!("crumb={}", self.crumb),
        }
    }

    pub(super) async fn add(
        &self,
        client: &reqwest::Client,
        cart: Option<&str>,
        sku: &str,
        quantity: u32,
    ) -> reqwest::Response {
        client
            .post(format!("{}/api/commerce/cart/entries", self.address))
            .header("cookie", self.cookies(cart))
            .header("X-CSRF-Token", &self.crumb)
            .json(&json!({ "sku": sku, "quantity": quantity }))
            .send()
            .await
            .expect("answered")
    }

    /// `GET /api/commerce/cart` with `cart`, whatever it answers.
    pub(super) async fn read_cart(&self, client: &reqwest::Client, cart: &str) -> reqwest::Response {
        let url = format!("{}/api/commerce/cart", self.address);
        client.get(url).header("cookie", self.cookies(Some(cart))).send().await.expect("answered")
    }

    pub(super) async fn cart(&self, client: &reqwest::Client, cart: &str) -> Value {
        let res = self.read_cart(client, cart).await;
        assert_eq!(res.status(), 200);
        res.json().await.expect("a cart")
    }

    pub(super) async fn checkout(&self, client: &reqwest::Client, cart: &str) -> reqwest::Response {
        let form = [("crumb", self.crumb.as_str()), ("email", "ada@example.com"), ("name", "Ada")];
        client
            .post(format!("{}/checkout", self.address))
            .header("cookie", self.cookies(Some(cart)))
            .form(&form)
            .send()
            .await
            .expect("answered")
    }
}

pub(super) fn quantity_of(cart: &Value, sku: &str) -> u64 {
    let entries = cart["entries"].as_array().cloned().unwrap_or_default();
    entries.iter().filter(|e| e["sku"] == sku).filter_map(|e| e["quantity"].as_u64()).sum()
}

/// Both instances on one copy of the demo site (VER-LESSON has `stock` units).
pub(super) fn site_with_lesson_stock(stock: u32) -> tempfile::TempDir {
    let site = demo_site_copy(|_| {});
    let lesson = site.path().join("collections/shop/items/latte-art-lesson.toml");
    let text = std::fs::read_to_string(&lesson).expect("reads");
    assert!(text.contains("qtyInStock = 6"), "the demo lesson has 6 units");
    std::fs::write(&lesson, text.replace("qtyInStock = 6", &format!("qtyInStock = {stock}"))).expect("writes");
    site
}

/// One `redis-server` and two instances of the demo site (the lesson's stock set to
/// `stock`) sharing it, with a door into each.
pub(super) struct Pair {
    pub(super) redis: Redis,
    /// The site directory and the instances, kept until the pair is dropped.
    _site: tempfile::TempDir,
    _a: Instance,
    _b: Instance,
    pub(super) client: reqwest::Client,
    pub(super) doors: [Door; 2],
}

impl Pair {
    /// A started pair, or `None` when `redis-server` is not installed (the test then skips).
    pub async fn if_installed(stock: u32) -> Option<Pair> {
        if !redis_installed() {
            return None;
        }
        Some(Pair::start(stock).await)
    }

    pub async fn start(stock: u32) -> Pair {
        let redis = Redis::start().await;
        let site = site_with_lesson_stock(stock);
        let (a, b) =
            (Instance::start(site.path(), &redis.url()).await, Instance::start(site.path(), &redis.url()).await);
        let client = client();
        let doors = [Door::of(&a).await, Door::of(&b).await];
        Pair { redis, _site: site, _a: a, _b: b, client, doors }
    }
}

/// One instance over a site with `stock` units of the lesson, talking to the Redis at
/// `redis_url`, with a cart made through it.
pub(super) struct Single {
    /// The site directory, kept until the instance is dropped.
    _site: tempfile::TempDir,
    pub(super) instance: Instance,
    pub(super) client: reqwest::Client,
    pub(super) door: Door,
    pub(super) cart: String,
}

impl Single {
    /// Starts the instance and adds one `sku` to a new cart (answered 200 with a cart cookie).
    pub(super) async fn with_cart(redis_url: &str, stock: u32, sku: &str) -> Single {
        let site = site_with_lesson_stock(stock);
        let instance = Instance::start(site.path(), redis_url).await;
        let client = client();
        let door = Door::of(&instance).await;
        let res = door.add(&client, None, sku, 1).await;
        assert_eq!(res.status(), 200);
        let cart = cart_cookie(&res).expect("a cart cookie");
        Single { _site: site, instance, client, door, cart }
    }
}

/// A TCP proxy on 127.0.0.1 in front of Redis. Once [armed](Self::arm), it lets the
/// next command naming `veranda:orders` (the key every order is indexed under) reach
/// Redis and then, instead of passing Redis's array answer back, closes the
/// connection: the command ran, but its sender never hears so. Error and non-array
/// answers (`NOSCRIPT`, `SCRIPT LOAD`) pass through untouched.
pub(super) struct CuttingProxy {
    pub(super) port: u16,
    armed: Arc<AtomicBool>,
    cuts: Arc<AtomicUsize>,
}

impl CuttingProxy {
    /// Starts it in front of the Redis on `redis_port`.
    pub(super) async fn start(redis_port: u16) -> CuttingProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let port = listener.local_addr().expect("an address").port();
        let (armed, cuts) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
        let (armed_, cuts_) = (armed.clone(), cuts.clone());
        actix_rt::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(upstream) = tokio::net::TcpStream::connect(("127.0.0.1", redis_port)).await else { continue };
                let (armed, cuts) = (armed_.clone(), cuts_.clone());
                actix_rt::spawn(relay(client, upstream, armed, cuts));
            }
        });
        CuttingProxy { port, armed, cuts }
    }

    pub(super) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Cuts the answer of the next order-indexing command.
    pub(super) fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
    }

    /// How many answers were cut.
    pub(super) fn cuts(&self) -> usize {
        self.cuts.load(Ordering::SeqCst)
    }
}

/// Relays one connection both ways, cutting it as [`CuttingProxy`] says.
async fn relay(
    client: tokio::net::TcpStream,
    upstream: tokio::net::TcpStream,
    armed: Arc<AtomicBool>,
    cuts: Arc<AtomicUsize>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    const TRIGGER: &[u8] = b"veranda:orders";
    let (mut client_read, mut client_write) = client.into_split();
    let (mut upstream_read, mut upstream_write) = upstream.into_split();
    let cut_next = Arc::new(AtomicBool::new(false));
    let watching = cut_next.clone();
    let armed_up = armed.clone();
    actix_rt::spawn(async move {
        let mut buf = vec![0u8; 64 * 1024];
        let mut tail: Vec<u8> = Vec::new();
        loop {
            let n = match client_read.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            tail.extend_from_slice(&buf[..n]);
            if armed_up.load(Ordering::SeqCst) && tail.windows(TRIGGER.len()).any(|w| w == TRIGGER) {
                watching.store(true, Ordering::SeqCst);
            }
            let keep = tail.len().saturating_sub(TRIGGER.len());
            tail.drain(..keep);
            if upstream_write.write_all(&buf[..n]).await.is_err() {
                return;
            }
        }
    });
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match upstream_read.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if cut_next.load(Ordering::SeqCst) && buf[0] == b'*' && armed.swap(false, Ordering::SeqCst) {
            cuts.fetch_add(1, Ordering::SeqCst);
            let _ = client_write.shutdown().await;
            return;
        }
        if client_write.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}
