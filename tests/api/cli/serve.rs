//! `veranda serve`: start-up refusals with clear messages, a graceful stop on SIGTERM, and
//! the process settings it makes for itself.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use veranda_tests::process::{free_port, veranda_command as veranda, ServerProcess, Spawned};
use veranda_tests::wait::until_ready;

#[test]
fn serve_refuses_a_broken_site_with_a_clear_message() {
    let data = tempfile::tempdir().expect("temp dir");
    let out = veranda()
        .args(["serve", "--site", "/nonexistent/site", "--listen", "127.0.0.1:0", "--ops-listen", "127.0.0.1:0"])
        .arg("--data-dir")
        .arg(data.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot start") && stderr.contains("site.toml"), "{stderr}");
}

#[test]
fn serve_refuses_a_missing_config_file() {
    let out = veranda().args(["serve", "--config", "/nonexistent/veranda.toml"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/veranda.toml"));
}

#[actix_rt::test]
async fn sigterm_stops_the_server_gracefully_and_flushes_the_store() {
    let data = tempfile::tempdir().expect("temp dir");
    let (port, ops_port) = (free_port(), free_port());
    let mut server = Spawned(
        veranda()
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--ops-listen", &format!("127.0.0.1:{ops_port}")])
            .arg("--data-dir")
            .arg(data.path())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts"),
    );
    let child = &mut server.0;
    let ready = format!("http://127.0.0.1:{ops_port}/health/ready");
    until_ready(&ready, Duration::from_secs(30), "the server to become ready").await;
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(status.success());
    let stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
    let lines: Vec<String> = stderr.lines().map_while(Result::ok).collect();
    let exit = child.wait().expect("exits");
    assert!(exit.success(), "exit {exit:?}: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("store flushed")), "{lines:?}");
}

/// The server turns transparent huge pages off for itself (`src/main.rs`): the kernel says
/// so in the process's status (`THP_enabled`, Linux 5.0 and later).
#[cfg(target_os = "linux")]
#[actix_rt::test]
async fn the_server_runs_without_transparent_huge_pages() {
    let data = tempfile::tempdir().expect("temp dir");
    let server = ServerProcess::start(data.path()).await;
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).expect("the process's status");
    let thp = status.lines().find_map(|line| line.strip_prefix("THP_enabled:")).map(str::trim);
    assert_eq!(thp, Some("0"), "{status}");
    server.stop();
}
