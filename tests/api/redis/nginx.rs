//! `config/nginx-three-instances.conf`, the three-instances example of `docs/redis.md`,
//! is a configuration nginx accepts (`nginx -t`). Needs `nginx` on the `PATH` (Debian's
//! `nginx` package); without it the test says so loudly and passes without checking.

use std::process::Command;

use veranda_tests::repo_root;

#[test]
fn the_three_instances_nginx_config_passes_nginx_t() {
    let Ok(version) = Command::new("nginx").arg("-v").output() else {
        eprintln!("\n!!!!!!!!\n!!! nginx not installed: the nginx config test is SKIPPED\n!!!!!!!!\n");
        return;
    };
    assert!(version.status.success());
    let config = repo_root().join("config/nginx-three-instances.conf");
    let text = std::fs::read_to_string(&config).expect("the config exists");
    for port in ["8081", "8082", "8083"] {
        assert!(text.contains(&format!("127.0.0.1:{port}")), "an instance on {port}");
    }
    let prefix = tempfile::tempdir().expect("a temp dir");
    std::fs::create_dir_all(prefix.path().join("logs")).expect("a logs dir");
    let output = Command::new("nginx")
        .arg("-t")
        .arg("-p")
        .arg(prefix.path())
        .arg("-c")
        .arg(&config)
        .args(["-e", "stderr", "-g", "error_log stderr;"])
        .output()
        .expect("nginx runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && said.contains("test is successful"), "nginx -t: {said}");
}
