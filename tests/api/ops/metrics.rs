//! The ops listener's `/metrics`: request metrics labelled by route pattern, the store's
//! metrics, valid Prometheus text, and never on the public listener.

use std::io::Write;
use std::process::{Command, Stdio};

use veranda_actors::site::{Navigation, Site, SiteSettings};
use veranda_actors::store::Tree;
use veranda_server::assets::Assets;
use veranda_tests::{spawn_site, TestApp};

/// A site with settings only: no pages, no collections.
fn empty_site(dir: &std::path::Path) -> Site {
    let settings: SiteSettings = serde_json::from_value(serde_json::json!({
        "website": { "id": "abcdefghijklmnopqrstuvwx", "title": "Metrics", "baseUrl": "http://127.0.0.1" }
    }))
    .expect("minimal site settings");
    Site { dir: dir.to_path_buf(), settings, navigation: Navigation::default(), pages: vec![], collections: vec![] }
}

/// A running server on port 0 with an empty site and no client build; the folder of
/// the site lives as long as the server.
async fn spawn_app() -> (TestApp, tempfile::TempDir) {
    let site_dir = tempfile::tempdir().expect("a site dir");
    let app = spawn_site(empty_site(site_dir.path()), Assets::default(), |_| {}).await;
    (app, site_dir)
}

/// The ops listener's `/metrics` text, checked for status and content type.
async fn scrape(app: &TestApp) -> String {
    let response = app.get_ops("/metrics").await;
    assert_eq!(response.status().as_u16(), 200);
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "content type {content_type}");
    response.text().await.expect("metrics body")
}

/// The lines of `body` for metric `name` (samples only, no comments).
fn samples<'a>(body: &'a str, name: &str) -> Vec<&'a str> {
    body.lines().filter(|l| !l.starts_with('#') && l.starts_with(name)).collect()
}

#[actix_rt::test]
async fn metrics_on_the_ops_listener_count_requests_by_route_pattern() {
    let (app, _site) = spawn_app().await;
    for path in ["/s/one.txt", "/s/two/three.txt", "/search?q=x", "/config/panel", "/no-such-page"] {
        app.get(path).await;
    }
    app.store.put(Tree::Carts, b"cart-1", b"{}").await.expect("durable put");
    app.store.put(Tree::Census, b"hit-1", b"{}").await.expect("telemetry put");

    let body = scrape(&app).await;
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

#[actix_rt::test]
async fn metrics_are_not_served_on_the_public_listener() {
    let (app, _site) = spawn_app().await;
    app.get("/s/warm-up.txt").await;
    let response = app.get("/metrics").await;
    assert_eq!(response.status().as_u16(), 404);
    let body = response.text().await.expect("body");
    assert!(!body.contains("veranda_http_requests_total"), "the public listener exposes metrics");
}

#[actix_rt::test]
async fn the_metrics_output_passes_promtool() {
    let (app, _site) = spawn_app().await;
    for path in ["/s/a.txt", "/search?q=y", "/elsewhere"] {
        app.get(path).await;
    }
    app.store.put(Tree::Orders, b"order-1", b"{}").await.expect("durable put");
    let body = scrape(&app).await;

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

#[actix_rt::test]
async fn the_retention_metrics_are_exported_from_start_up() {
    let (app, _site) = spawn_app().await;
    let body = scrape(&app).await;
    assert_eq!(samples(&body, "veranda_retention_last_sweep_timestamp_seconds").len(), 1, "{body}");
    for tree in ["census", "traces", "events", "errors", "perf", "visitor_sessions"] {
        let sample = format!("veranda_retention_removed_total{{tree=\"{tree}\"}}");
        assert_eq!(samples(&body, &sample).len(), 1, "{sample} in {body}");
    }
}

/// Series a fresh server exports before any request, each at zero: what the dashboards,
/// the alerts and the abuse bounds plot from the first scrape.
const AT_ZERO_FROM_START: [&str; 28] = [
    "veranda_http_requests_in_flight 0",
    "veranda_ingest_accepted_total{endpoint=\"record_hit\"} 0",
    "veranda_ingest_accepted_total{endpoint=\"perf_records\"} 0",
    "veranda_ingest_skipped_total{endpoint=\"record_hit\",reason=\"config_area\"} 0",
    "veranda_ingest_rejected_total{endpoint=\"javascript_errors\",reason=\"page_load_cap\"} 0",
    "veranda_ingest_rejected_total{endpoint=\"javascript_errors\",reason=\"crumb\"} 0",
    "veranda_ingest_rejected_total{endpoint=\"record_hit\",reason=\"rate_limited\"} 0",
    "veranda_ingest_rejected_total{endpoint=\"record_hit\",reason=\"byte_budget\"} 0",
    "veranda_ingest_busy_total{endpoint=\"record_hit\",queue=\"visitor_shards\"} 0",
    "veranda_ingest_busy_total{endpoint=\"javascript_errors\",queue=\"errors\"} 0",
    "veranda_ingest_waited_total{queue=\"writer\"} 0",
    "veranda_ingest_dropped_total{endpoint=\"perf_records\",reason=\"writer_busy\"} 0",
    "veranda_ingest_flush_duration_seconds_count{queue=\"errors\"} 0",
    "veranda_visitor_sessions_live 0",
    "veranda_error_groups 0",
    "veranda_streams_clients{stream=\"edits\"} 0",
    "veranda_streams_events_total{stream=\"errors\"} 0",
    "veranda_streams_resumes_total{stream=\"edits\",outcome=\"reset\"} 0",
    "veranda_streams_source_lagged_total 0",
    "veranda_retention_removed_total{tree=\"census\"} 0",
    "veranda_rate_limiter_entries{table=\"telemetry\"} 0",
    "veranda_memory_table_entries{table=\"visitor_sessions\"} 0",
    "veranda_telemetry_dropped_records_total{tree=\"errors\"} 0",
    "veranda_telemetry_drops_at_once_total 0",
    "veranda_form_keys_swept_total{kind=\"key\"} 0",
    "veranda_commerce_checkouts_refused_total{kind=\"cart\"} 0",
    "veranda_stats_keys_dropped_total{table=\"pages\"} 0",
    "veranda_stats_keys_dropped_total{table=\"referrers\"} 0",
];

#[actix_rt::test]
async fn a_fresh_server_exports_its_series_at_zero_before_any_request() {
    // A process of its own: the recorder of this test process has seen other tests' requests.
    let body = fresh_scrape(&[]).await;
    let lines: std::collections::BTreeSet<&str> = body.lines().collect();
    let missing: Vec<&str> = AT_ZERO_FROM_START.iter().copied().filter(|line| !lines.contains(line)).collect();
    assert!(missing.is_empty(), "not exported at zero: {missing:#?}\n--- metrics ---\n{body}");
}

/// The `/metrics` lines of a fresh server process on the demo site with the `VERANDA_*`
/// variables of `env`: a process of its own, since the recorder of this test process
/// holds what every server in it recorded (and the size limit of whichever started last).
async fn fresh_scrape(env: &[(&str, &str)]) -> String {
    let data = tempfile::tempdir().expect("a data dir");
    let site = veranda_tests::demo_site_dir();
    let server = veranda_tests::process::ServerProcess::start_with_env(&site, data.path(), env).await;
    veranda_tests::metrics::scrape(&server.ops_address).await
}

#[actix_rt::test]
async fn a_fresh_server_exports_its_telemetry_size_limit_in_bytes_from_start_up() {
    let body = fresh_scrape(&[]).await;
    // The default `[telemetry] max_stored_mb = 1024`, in bytes.
    let limit = "veranda_telemetry_stored_limit_bytes 1073741824";
    assert!(body.lines().any(|line| line == limit), "{limit} not exported:\n{body}");
}

#[actix_rt::test]
async fn a_server_without_a_telemetry_size_limit_exports_a_limit_of_zero() {
    let body = fresh_scrape(&[("VERANDA_TELEMETRY", "{max_stored_mb = 0}")]).await;
    let limit = "veranda_telemetry_stored_limit_bytes 0";
    assert!(body.lines().any(|line| line == limit), "{limit} not exported:\n{body}");
}

/// The value of the one sample of `name` (no labels) in `body`.
fn value_of(body: &str, name: &str) -> f64 {
    let line = samples(body, &format!("{name} ")).into_iter().next().unwrap_or_else(|| panic!("{name} in {body}"));
    line[name.len()..].trim().parse().unwrap_or_else(|_| panic!("a number in {line}"))
}

/// The number `field` of `/proc/PID/status` gives (`VmRSS:` in kB, `Threads:` a count).
fn status_number(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    let value = status.lines().find_map(|l| l.strip_prefix(field)).unwrap_or_else(|| panic!("{field} in {status}"));
    value.trim().trim_end_matches("kB").trim().parse().unwrap_or_else(|_| panic!("a number in {field}{value}"))
}

#[actix_rt::test]
async fn the_process_memory_cpu_threads_and_files_are_exported_as_the_kernel_counts_them() {
    // A process of its own, so that the figures are the server's and not the test runner's.
    let data = tempfile::tempdir().expect("a data dir");
    let server = veranda_tests::process::ServerProcess::start(data.path()).await;
    let body = veranda_tests::metrics::scrape(&server.ops_address).await;
    for (name, kind) in [
        ("process_resident_memory_bytes", "gauge"),
        ("process_virtual_memory_bytes", "gauge"),
        ("process_cpu_seconds_total", "counter"),
        ("process_threads", "gauge"),
        ("process_open_fds", "gauge"),
        ("process_max_fds", "gauge"),
        ("process_start_time_seconds", "gauge"),
    ] {
        assert!(body.contains(&format!("# TYPE {name} {kind}\n")), "{name} as a {kind} in {body}");
    }
    let resident = value_of(&body, "process_resident_memory_bytes");
    let kernel = status_number(server.pid(), "VmRSS:") * 1024.0;
    assert!(
        resident > 0.5 * kernel && resident < 2.0 * kernel,
        "resident {resident} B where the kernel says {kernel} B"
    );
    let threads = value_of(&body, "process_threads");
    let kernel_threads = status_number(server.pid(), "Threads:");
    assert!((threads - kernel_threads).abs() <= 4.0, "{threads} threads where the kernel says {kernel_threads}");
    let open = value_of(&body, "process_open_fds");
    let kernel_open = std::fs::read_dir(format!("/proc/{}/fd", server.pid())).expect("fd dir").count() as f64;
    assert!(open >= 3.0 && (open - kernel_open).abs() <= 8.0, "{open} open files where the kernel lists {kernel_open}");
    assert!(value_of(&body, "process_max_fds") >= open, "the limit is at least what is open");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs_f64();
    let started = value_of(&body, "process_start_time_seconds");
    assert!(started <= now + 1.0 && started > now - 120.0, "started at {started}, now {now}");
}
