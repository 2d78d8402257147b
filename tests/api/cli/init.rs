//! `veranda init DIR`: a starter site that `check-site` accepts and `serve --site` renders; a
//! directory that already holds files is refused (exit 2) with a message naming it.

use std::process::Output;

use veranda_tests::process::{veranda_command as veranda, ServerProcess};

fn init(dir: &std::path::Path) -> Output {
    veranda().arg("init").arg(dir).output().expect("runs")
}

#[actix_rt::test]
async fn init_writes_a_starter_site_that_check_site_accepts_and_serve_renders() {
    let root = tempfile::tempdir().expect("temp dir");
    let site = root.path().join("my-site");
    let out = init(&site);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("veranda check-site"));

    let out = veranda().arg("check-site").arg(&site).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok (1 pages, 0 collections)"));

    let data = root.path().join("data");
    let server = ServerProcess::start_with_site(&site, &data).await;
    let res = reqwest::get(format!("{}/", server.address)).await.expect("answered");
    assert_eq!(res.status(), 200);
    let html = res.text().await.expect("a page");
    assert!(html.contains("<title>Home · My porch</title>"), "{html}");
    assert!(html.contains("Hello from the porch"), "{html}");
    assert!(html.contains("<form") && html.contains("Write to us"), "the page has its form: {html}");
    server.stop();
}

#[test]
fn init_refuses_a_directory_that_already_holds_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("index.html"), "mine").expect("write");
    let out = init(dir.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&dir.path().display().to_string()) && stderr.contains("not empty"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.path().join("index.html")).expect("kept"), "mine");
    assert!(!dir.path().join("site.toml").exists(), "nothing is written");
}
