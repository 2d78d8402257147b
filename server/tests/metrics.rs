//! The ops listener's `/metrics`: request metrics labelled by route pattern, the store's
//! metrics, valid Prometheus text, and never on the public listener.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use veranda_actors::site::{Navigation, Site, SiteSettings};
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_server::assets::Assets;
use veranda_server::settings::Settings;
use veranda_server::startup::Application;

/// A running server on port 0 with an empty site.
struct TestApp {
    /// `http://127.0.0.1:<port>` of the public listener.
    address: String,
    /// `http://127.0.0.1:<port>` of the ops listener.
    ops_address: String,
    /// The store the server writes to.
    store: Arc<dyn Store>,
    /// A client that follows no redirects.
    client: reqwest::Client,
    /// Keeps the data dir alive for the test's duration.
    _data_dir: tempfile::TempDir,
}

/// A site with settings only: no pages, no collections.
fn empty_site(dir: &std::path::Path) -> Site {
    let settings: SiteSettings = serde_json::from_value(serde_json::json!({
        "website": { "id": "abcdefghijklmnopqrstuvwx", "title": "Metrics", "baseUrl": "http://127.0.0.1" }
    }))
    .expect("minimal site settings");
    Site { dir: dir.to_path_buf(), settings, navigation: Navigation::default(), pages: vec![], collections: vec![] }
}

async fn spawn_app() -> TestApp {
    let data_dir = tempfile::tempdir().expect("a temporary data dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(&data_dir.path().join("db")).expect("store opens"));
    let settings = Settings {
        listen: "127.0.0.1:0".parse().expect("valid address"),
        ops_listen: "127.0.0.1:0".parse().expect("valid address"),
        site: data_dir.path().to_path_buf(),
        data_dir: data_dir.path().join("db"),
        ..Settings::default()
    };
    let app = Application::build_with(settings, empty_site(data_dir.path()), store.clone(), Assets::default())
        .await
        .expect("the app binds");
    let (port, ops_port) = (app.port(), app.ops_port());
    actix_rt::spawn(app.run_until_stopped());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client builds");
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        ops_address: format!("http://127.0.0.1:{ops_port}"),
        store,
        client,
        _data_dir: data_dir,
    }
}

impl TestApp {
    async fn get(&self, url: String) -> reqwest::Response {
        self.client.get(url).send().await.expect("request answered")
    }

    async fn scrape(&self) -> String {
        let response = self.get(format!("{}/metrics", self.ops_address)).await;
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(content_type.starts_with("text/plain; version=0.0.4"), "content type {content_type}");
        response.text().await.expect("metrics body")
    }
}

/// The lines of `body` for metric `name` (samples only, no comments).
fn samples<'a>(body: &'a str, name: &str) -> Vec<&'a str> {
    body.lines().filter(|l| !l.starts_with('#') && l.starts_with(name)).collect()
}

#[actix_web::test]
async fn metrics_on_the_ops_listener_count_requests_by_route_pattern() {
    let app = spawn_app().await;
    for path in ["/s/one.txt", "/s/two/three.txt", "/search?q=x", "/config/panel", "/no-such-page"] {
        app.get(format!("{}{path}", app.address)).await;
    }
    app.store.put(Tree::Carts, b"cart-1", b"{}").await.expect("durable put");
    app.store.put(Tree::Census, b"hit-1", b"{}").await.expect("telemetry put");

    let body = app.scrape().await;
    let requests = samples(&body, "veranda_http_requests_total{");
    let counted = |route: &str| {
        requests
            .iter()
            .filter(|l| l.contains(&format!("route=\"{route}\"")) && l.contains("method=\"GET\""))
            .map(|l| l.rsplit(' ').next().and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0))
            .sum::<f64>()
    };
    assert!(counted("/s/{path:.*}") >= 2.0, "file requests not counted by pattern:\n{body}");
    assert!(counted("/search") >= 1.0, "search not counted:\n{body}");
    assert!(counted("/config/{tail:.*}") >= 1.0, "config area not counted by pattern:\n{body}");
    assert!(counted("/{path:.*}") >= 1.0, "content links are not labelled by their catch-all pattern:\n{body}");
    for raw in ["one.txt", "three.txt", "no-such-page", "q=x"] {
        assert!(!body.contains(raw), "a raw path ({raw}) leaked into a label:\n{body}");
    }
    assert!(requests.iter().all(|l| l.contains("status=\"")), "requests without a status label");
    assert!(
        body.contains(
            "veranda_http_request_duration_seconds_bucket{method=\"GET\",route=\"/s/{path:.*}\",le=\"0.005\"}"
        ) || body.contains(
            "veranda_http_request_duration_seconds_bucket{route=\"/s/{path:.*}\",method=\"GET\",le=\"0.005\"}"
        ),
        "the duration histogram has no buckets for the file route:\n{body}"
    );
    assert_eq!(samples(&body, "veranda_http_requests_in_flight").len(), 1, "in-flight gauge missing:\n{body}");
    assert!(body.contains(&format!("veranda_build_info{{version=\"{}\"}} 1", env!("CARGO_PKG_VERSION"))));
    assert!(body.contains("# HELP veranda_http_requests_total "), "metrics are not described:\n{body}");

    assert!(body.contains("veranda_store_writes_total{tree=\"carts\",class=\"durable\"}"), "{body}");
    assert!(body.contains("veranda_store_writes_total{tree=\"census\",class=\"telemetry\"}"), "{body}");
    assert!(!samples(&body, "veranda_store_flushes_total").is_empty(), "flushes not counted:\n{body}");
    assert!(body.contains("veranda_store_flush_duration_seconds_bucket{le=\"0.001\"}"), "{body}");
    assert!(body.contains("# HELP veranda_store_flush_duration_seconds "), "{body}");
}

#[actix_web::test]
async fn metrics_are_not_served_on_the_public_listener() {
    let app = spawn_app().await;
    app.get(format!("{}/s/warm-up.txt", app.address)).await;
    let response = app.get(format!("{}/metrics", app.address)).await;
    assert_eq!(response.status().as_u16(), 404);
    let body = response.text().await.expect("body");
    assert!(!body.contains("veranda_http_requests_total"), "the public listener exposes metrics");
}

#[actix_web::test]
async fn health_probes_answer_on_the_ops_listener() {
    let app = spawn_app().await;
    let live = app.get(format!("{}/health/live", app.ops_address)).await;
    assert_eq!(live.status().as_u16(), 200);
    let ready = app.get(format!("{}/health/ready", app.ops_address)).await;
    assert_eq!(ready.status().as_u16(), 200);
}

#[actix_web::test]
async fn the_metrics_output_passes_promtool() {
    let app = spawn_app().await;
    for path in ["/s/a.txt", "/search?q=y", "/elsewhere"] {
        app.get(format!("{}{path}", app.address)).await;
    }
    app.store.put(Tree::Orders, b"order-1", b"{}").await.expect("durable put");
    let body = app.scrape().await;

    let Ok(mut promtool) = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("note: promtool is not on PATH (Debian package `prometheus`); the lint was skipped");
        return;
    };
    promtool.stdin.take().expect("piped stdin").write_all(body.as_bytes()).expect("write to promtool");
    let output = promtool.wait_with_output().expect("promtool ran");
    assert!(
        output.status.success(),
        "promtool check metrics failed:\n{}{}\n--- metrics ---\n{body}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
