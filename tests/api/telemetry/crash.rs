//! The telemetry durability class (DESIGN.md): against the real `veranda` binary, page
//! views, error reports and performance records acknowledged more than the flush window
//! before a `kill -9` are all there when the server restarts on the same data dir.
//!
//! The binary is `$VERANDA_BIN` when set, else `target/<profile>/veranda`, built (or
//! brought up to date) with `cargo build -p veranda-server --bin veranda` first.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use veranda_actors::store::{SledStore, Store, Tree};
use veranda_actors::telemetry::records::TELEMETRY_LOSS_WINDOW;
use veranda_tests::{demo_site_dir, repo_root};

/// What the test waits past the loss window before the kill: room for the last flush's
/// own duration on a loaded machine.
const FLUSH_MARGIN: Duration = Duration::from_millis(500);
/// Page views, error reports and performance batches sent before the wait.
const WRITES: usize = 40;

/// The `veranda` binary, brought up to date unless `$VERANDA_BIN` names one.
fn veranda_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("VERANDA_BIN") {
        return PathBuf::from(bin);
    }
    let status = Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "veranda-server", "--bin", "veranda"])
        .current_dir(repo_root())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p veranda-server --bin veranda failed");
    // This test runs from target/<profile>/deps/; the binary is in target/<profile>/.
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>");
    profile_dir.join(format!("veranda{}", std::env::consts::EXE_SUFFIX))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// A `veranda serve` process on the demo site and `data`.
struct Server {
    child: Child,
    address: String,
    ops_address: String,
}

impl Server {
    async fn start(bin: &Path, data: &Path) -> Server {
        let (port, ops_port) = (free_port(), free_port());
        let mut command = Command::new(bin);
        command
            .arg("serve")
            .arg("--site")
            .arg(demo_site_dir())
            .arg("--data-dir")
            .arg(data)
            .args(["--listen", &format!("127.0.0.1:{port}"), "--ops-listen", &format!("127.0.0.1:{ops_port}")])
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("VERANDA_")) {
            command.env_remove(key);
        }
        let child = command.spawn().expect("veranda starts");
        let server = Server {
            child,
            address: format!("http://127.0.0.1:{port}"),
            ops_address: format!("http://127.0.0.1:{ops_port}"),
        };
        let client = reqwest::Client::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let ready = client.get(format!("{}/health/ready", server.ops_address)).send().await;
            if ready.is_ok_and(|r| r.status() == 200) {
                return server;
            }
            assert!(tokio::time::Instant::now() < deadline, "veranda did not become ready");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL: no shutdown hook, no final flush.
    fn kill_9(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// SIGTERM, and waits for a clean exit.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs").success());
        let status = self.child.wait().expect("reaped");
        assert!(status.success(), "a clean stop after the restart: {status:?}");
    }
}

/// Sends one page view, one error report and one performance batch marked `n`; returns
/// whether all three were acknowledged.
async fn ingest(client: &reqwest::Client, server: &Server, crumb: &str, n: usize) -> bool {
    let data = serde_json::json!({ "url": format!("/about?n={n}"), "title": format!("crash-{n}") }).to_string();
    let hit = client
        .post(format!("{}/api/census/RecordHit", server.address))
        .header("cookie", "ss_cookieAllowed=true")
        .form(&[("event", "pageView"), ("data", &data)])
        .send()
        .await;
    let error = serde_json::json!([{ "event": "error", "timestamp": 1, "data": { "url": "https://example.com/about",
        "message": format!("crash {n}"), "file": "https://example.com/a.js", "line": n, "column": 1,
        "pageLoadId": format!("crash-load-{n}") } }]);
    let error = client
        .post(format!("{}/api/events/RecordJavascriptErrors", server.address))
        .header("cookie", format!("crumb={crumb}"))
        .header("X-CSRF-Token", crumb)
        .json(&error)
        .send()
        .await;
    let perf = serde_json::json!([{ "pageLoadId": format!("crash-load-{n}"), "name": "LCP", "value": 1000 + n }]);
    let perf = client
        .post(format!("{}/api/1/performance/records", server.address))
        .header("content-type", "text/plain")
        .body(perf.to_string())
        .send()
        .await;
    let status = |r: Result<reqwest::Response, reqwest::Error>| r.map(|r| r.status().as_u16()).unwrap_or(0);
    (status(hit), status(error), status(perf)) == (204, 202, 202)
}

/// The JSON values of every record in `tree`.
fn values(store: &SledStore, tree: Tree) -> Vec<String> {
    let rows = store.scan_prefix(tree, b"", 100_000).expect("scans");
    rows.into_iter().map(|(_, v)| String::from_utf8_lossy(&v).into_owned()).collect()
}

#[actix_rt::test]
async fn telemetry_acknowledged_before_the_flush_window_survives_kill_9() {
    let bin = veranda_binary();
    let data = tempfile::tempdir().expect("a temporary data dir");
    let server = Server::start(&bin, data.path()).await;
    let client = reqwest::Client::new();
    let page = client.get(format!("{}/", server.address)).send().await.expect("a page");
    let crumb = super::set_cookie(&page, "crumb").expect("pages hand out a crumb");
    let mut acknowledged = Vec::new();
    for n in 0..WRITES {
        if ingest(&client, &server, &crumb, n).await {
            acknowledged.push(n);
        }
    }
    assert_eq!(acknowledged.len(), WRITES, "every write was acknowledged");
    tokio::time::sleep(TELEMETRY_LOSS_WINDOW + FLUSH_MARGIN).await;
    // Writes in flight at the kill: acknowledged or not, they may be lost.
    for n in WRITES..WRITES + 10 {
        ingest(&client, &server, &crumb, n).await;
    }
    server.kill_9();

    let restarted = Server::start(&bin, data.path()).await;
    restarted.stop();
    let store = SledStore::open(data.path()).expect("the data dir opens after the restart");
    let census = values(&store, Tree::Census);
    let errors = values(&store, Tree::Errors);
    let perf = values(&store, Tree::Perf);
    for n in acknowledged {
        assert!(census.iter().any(|v| v.contains(&format!("\"crash-{n}\""))), "page view {n} survived");
        assert!(errors.iter().any(|v| v.contains(&format!("\"crash {n}\""))), "error report {n} survived");
        assert!(perf.iter().any(|v| v.contains(&format!("\"crash-load-{n}\""))), "performance batch {n} survived");
    }
    let groups = store.scan_prefix(Tree::Errors, b"g/", 100_000).expect("scans");
    assert!(groups.len() >= WRITES, "each acknowledged error's group survived: {}", groups.len());
}
