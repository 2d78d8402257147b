//! The files an operator installs beside the binary: `config/veranda.service` passes
//! `systemd-analyze verify` and stays hardened (`systemd-analyze security` exposure at most
//! 2.0), and `config/nginx-tls.conf` passes `nginx -t` (both from Debian, see the Makefile's
//! system-deps).

use std::path::Path;
use std::process::Command;

use veranda_tests::process::veranda_binary;
use veranda_tests::repo_root;

/// `config/<name>` with each `(from, to)` replaced, written into `dir`.
fn copy_with(dir: &Path, name: &str, replace: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(repo_root().join("config").join(name)).expect("the file");
    for (from, to) in replace {
        assert!(text.contains(from), "{name} names {from}");
        text = text.replace(from, to);
    }
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

#[test]
fn the_systemd_unit_verifies_and_is_hardened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let binary = veranda_binary();
    let unit = copy_with(dir.path(), "veranda.service", &[("/usr/local/bin/veranda", &binary.display().to_string())]);
    let out = Command::new("systemd-analyze").arg("verify").arg(&unit).output().expect("systemd-analyze runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.trim().is_empty(), "{stderr}");

    // --threshold is the overall exposure times ten: at most 2.0 ("OK" is below 4).
    let out = Command::new("systemd-analyze")
        .args(["security", "--offline=true", "--threshold=20"])
        .arg(&unit)
        .output()
        .expect("systemd-analyze runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
}

#[test]
fn the_nginx_example_passes_nginx_t() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    let status = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=example.com", "-days", "1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl runs")
        .status;
    assert!(status.success());
    let site = copy_with(
        dir.path(),
        "nginx-tls.conf",
        &[
            ("/etc/letsencrypt/live/example.com/fullchain.pem", &cert.display().to_string()),
            ("/etc/letsencrypt/live/example.com/privkey.pem", &key.display().to_string()),
        ],
    );
    let main = dir.path().join("nginx.conf");
    let prefix = dir.path().display();
    std::fs::write(
        &main,
        format!(
            "pid {prefix}/nginx.pid;\nerror_log stderr;\nevents {{}}\nhttp {{\n  access_log off;\n  include {};\n}}\n",
            site.display()
        ),
    )
    .expect("written");
    let out = Command::new("nginx")
        .arg("-t")
        .arg("-p")
        .arg(dir.path())
        .arg("-c")
        .arg(&main)
        .args(["-e", "stderr"])
        .output()
        .expect("nginx runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("test is successful"), "{stderr}");
    assert!(!stderr.contains("[warn]"), "{stderr}");
}
