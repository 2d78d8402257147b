//! The `veranda` binary: `check-site`, start-up refusals, and graceful shutdown.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn veranda() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_veranda"));
    cmd.current_dir(repo_root()).env_remove("RUST_LOG");
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("VERANDA_")) {
        cmd.env_remove(key);
    }
    cmd
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

#[test]
fn check_site_accepts_the_demo_site() {
    let out = veranda().args(["check-site", "config/sites/demo"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn check_site_names_every_problem_with_file_and_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("pages")).expect("mkdir");
    std::fs::write(
        dir.path().join("site.toml"),
        "[website]\nid = \"NOT-AN-ID\"\ntitle = \"x\"\nbaseUrl = \"http://127.0.0.1\"\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("pages/home.toml"), "title = \"Home\"\nurl = \"/\"\n[[blocks]]\nkind = \"nope\"\n")
        .expect("write");
    let out = veranda().arg("check-site").arg(dir.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l.starts_with("site.toml: website.id: ")), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("pages/home.toml: ")), "{stdout}");
}

/// A copy of the demo site with `commerce.toml` holding `rules`.
fn demo_with_rules(rules: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut copy = Command::new("cp");
    copy.arg("-r").arg("config/sites/demo/.").arg(dir.path()).current_dir(repo_root());
    assert!(copy.status().expect("cp runs").success());
    std::fs::write(dir.path().join("commerce.toml"), rules).expect("write");
    dir
}

#[test]
fn check_site_checks_commerce_toml_with_file_and_field() {
    let good = demo_with_rules(
        "[[shipping]]\nid = \"post\"\nname = \"Post\"\ncostCents = 450\n\n\
         [[coupons]]\ncode = \"TEN\"\ndiscount = { kind = \"percent\", amount = 10 }\n",
    );
    let out = veranda().arg("check-site").arg(good.path()).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));

    let bad = demo_with_rules(
        "[[shipping]]\nid = \"post\"\ncostCents = \"cheap\"\n\n\
         [[coupons]]\ncode = \"TEN\"\ndiscount = { kind = \"percent\", amount = 250 }\n\n\
         [[taxes]]\nname = \"VAT\"\ncountry = \"Germany\"\nrateMilliPercent = 19000\n",
    );
    let out = veranda().arg("check-site").arg(bad.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for field in ["shipping[0].costCents", "coupons[0].discount.amount", "taxes[0].country"] {
        assert!(stdout.lines().any(|l| l.starts_with(&format!("commerce.toml: {field}: "))), "{field}: {stdout}");
    }

    let broken = demo_with_rules("[[shipping]\n");
    let out = veranda().arg("check-site").arg(broken.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("commerce.toml: TOML syntax error at line 1"), "{stdout}");

    // The server reads the file with the same loader and refuses to start on it.
    let data = tempfile::tempdir().expect("temp dir");
    let mut child = veranda()
        .args(["serve", "--listen", &format!("127.0.0.1:{}", free_port())])
        .args(["--ops-listen", &format!("127.0.0.1:{}", free_port())])
        .arg("--site")
        .arg(bad.path())
        .arg("--data-dir")
        .arg(data.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("serve kept running with a broken commerce.toml");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("reads");
    assert!(!status.success());
    assert!(stderr.contains("commerce.toml: coupons[0].discount.amount"), "{stderr}");
}

#[test]
fn check_site_refuses_physical_products_without_a_shipping_option() {
    let dir = demo_with_rules("");
    std::fs::remove_file(dir.path().join("commerce.toml")).expect("remove");
    let out = veranda().arg("check-site").arg(dir.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.contains("'Enamel porch mug'")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.starts_with("commerce.toml: shipping: "), "{line}");

    // Goods that are not shipped need no option.
    let digital = demo_with_rules("");
    std::fs::remove_file(digital.path().join("commerce.toml")).expect("remove");
    for entry in std::fs::read_dir(digital.path().join("collections/shop/items")).expect("items") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("reads");
        if text.contains("productType = \"physical\"") {
            std::fs::remove_file(&path).expect("remove");
        }
    }
    let out = veranda().arg("check-site").arg(digital.path()).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("commerce.toml: shipping"), "{stdout}");
}

#[test]
fn check_site_on_a_missing_directory_fails_clearly() {
    let out = veranda().args(["check-site", "/nonexistent/site"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("site.toml"));
}

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

#[test]
fn sigterm_stops_the_server_gracefully_and_flushes_the_store() {
    let data = tempfile::tempdir().expect("temp dir");
    let (port, ops_port) = (free_port(), free_port());
    let mut child = veranda()
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--ops-listen", &format!("127.0.0.1:{ops_port}")])
        .arg("--data-dir")
        .arg(data.path())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready(ops_port) {
        assert!(Instant::now() < deadline, "the server did not become ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(status.success());
    let stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
    let lines: Vec<String> = stderr.lines().map_while(Result::ok).collect();
    let exit = child.wait().expect("exits");
    assert!(exit.success(), "exit {exit:?}: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("store flushed")), "{lines:?}");
}

/// Whether `/health/ready` on the ops port answers 200.
fn ready(ops_port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", ops_port)) else { return false };
    let _ = stream.write_all(b"GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200")
}
