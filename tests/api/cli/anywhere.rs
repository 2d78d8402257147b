//! One binary is the product: `veranda serve` run in an empty directory (no configuration, no
//! site, no client beside it) serves the demo site and its scripts from the binary itself.

use std::time::Duration;

use veranda_tests::process::{spawn_ready, veranda_command, Spawned};

#[actix_rt::test]
async fn serve_in_an_empty_directory_serves_the_demo_and_its_scripts_from_the_binary() {
    let cwd = tempfile::tempdir().expect("temp dir");
    let what = "the server to become ready";
    let (child, log, port, _) = spawn_ready(Duration::from_secs(30), what, |port, ops_port| {
        let mut command = veranda_command();
        command.current_dir(cwd.path()).args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--ops-listen",
            &format!("127.0.0.1:{ops_port}"),
        ]);
        command
    })
    .await;
    let mut server = Spawned(child);

    let client = reqwest::Client::new();
    let home = client.get(format!("http://127.0.0.1:{port}/")).send().await.expect("answered");
    assert_eq!(home.status(), 200);
    let html = home.text().await.expect("a page");
    assert!(html.contains("<title>Home · Veranda Café &amp; Supply</title>"), "{html}");
    let script = html
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with(".js"))
        .unwrap_or_else(|| panic!("the page links a built script: {html}"))
        .to_string();
    let res = client.get(format!("http://127.0.0.1:{port}{script}")).send().await.expect("answered");
    assert_eq!(res.status(), 200, "{script}");
    let content_type = res.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(content_type.contains("javascript"), "{script}: {content_type}");
    assert_eq!(
        res.headers().get("cache-control").and_then(|v| v.to_str().ok()),
        Some("public, max-age=31536000, immutable")
    );
    let image = client.get(format!("http://127.0.0.1:{port}/images/porch.png")).send().await.expect("answered");
    assert_eq!(image.status(), 200, "the demo's media come along");

    let logged = std::fs::read_to_string(log.path()).expect("the log");
    assert!(logged.contains("serving the demo site built into the binary"), "{logged}");
    assert!(logged.contains("serving the client built into the binary"), "{logged}");
    let copy = logged
        .split_whitespace()
        .find_map(|w| w.strip_prefix("copy="))
        .unwrap_or_else(|| panic!("the demo's temporary copy is logged: {logged}"))
        .to_string();
    assert!(std::path::Path::new(&copy).join("site.toml").is_file(), "{copy}");

    let pid = server.0.id().to_string();
    assert!(std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs").success());
    let status = server.exit_within(Duration::from_secs(30), "the server to stop").await;
    assert!(status.success(), "{status:?}");
    assert!(!std::path::Path::new(&copy).exists(), "the temporary copy is removed at stop: {copy}");
    assert!(cwd.path().join("data").is_dir(), "the store is the default data dir beside the working directory");
}
