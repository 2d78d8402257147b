//! The operators' dashboards and alert rules name only metrics the server exports.

use std::collections::BTreeSet;
use std::path::Path;

use veranda_actors::store::Tree;
use veranda_tests::{repo_root, spawn_app};

/// Every metric family named in the files under `dashboards/`: the server's own
/// (`veranda_*`) and its process's (`process_*`).
fn metric_names_in_dashboards() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut files = Vec::new();
    collect_files(&repo_root().join("dashboards"), &mut files);
    for file in files.iter().filter(|f| matches!(f.extension().and_then(|e| e.to_str()), Some("json" | "yml"))) {
        let text = std::fs::read_to_string(file).expect("dashboard readable");
        for prefix in ["veranda_", "process_"] {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(prefix) {
                let name: String = rest[at..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                rest = &rest[at + name.len().max(1)..];
                let family = ["_bucket", "_sum", "_count"]
                    .iter()
                    .find_map(|suffix| name.strip_suffix(suffix))
                    .unwrap_or(&name)
                    .to_string();
                names.insert(family);
            }
        }
    }
    names
}

fn collect_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("dashboards/ exists") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            collect_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[actix_rt::test]
async fn every_metric_in_the_dashboards_is_exported() {
    let names = metric_names_in_dashboards();
    assert!(names.len() >= 5, "the dashboards name metrics: {names:?}");
    for process in ["process_resident_memory_bytes", "process_open_fds", "process_max_fds"] {
        assert!(names.contains(process), "{process} is plotted or alerted on: {names:?}");
    }
    let app = spawn_app().await;
    for path in ["/", "/about", "/no-such-page"] {
        app.get(path).await;
    }
    app.store.put(Tree::Settings, b"dashboards-test", b"1").await.expect("a durable write");
    let scrape = app.get_ops("/metrics").await;
    let text = scrape.text().await.expect("body");
    for name in &names {
        assert!(text.contains(&format!("# TYPE {name} ")), "{name} is named in dashboards/ but not exported");
    }
}

#[test]
fn promtool_accepts_the_alert_rules() {
    promtool(&["check", "rules"], "dashboards/alerts/veranda.rules.yml");
}

/// The alerts' own unit tests (`dashboards/alerts/veranda.rules.test.yml`): each telemetry alert
/// fires on the series that should raise it, with its labels and text, and not on near misses.
#[test]
fn the_alert_rules_pass_their_promtool_unit_tests() {
    promtool(&["test", "rules"], "dashboards/alerts/veranda.rules.test.yml");
}

/// Runs `promtool ARGS FILE` (FILE from the repository's root) and asserts it succeeded;
/// without promtool, passes with a warning outside CI.
fn promtool(args: &[&str], file: &str) {
    let path = repo_root().join(file);
    match std::process::Command::new("promtool").args(args).arg(&path).output() {
        Ok(out) => assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(_) if std::env::var_os("CI").is_none() => eprintln!("promtool not installed; `make test` installs it"),
        Err(e) => panic!("promtool is required in CI: {e}"),
    }
}
