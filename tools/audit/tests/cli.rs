//! The `veranda-audit` binary as `make rust-test` runs it: its exit codes (0 clean, 1 a
//! finding, 2 an input it cannot use) and what it prints, on a database, lockfile and policy
//! written for each test. (Having this test also makes `cargo test --workspace --no-run` build
//! the binary, which `make rust-test` then runs on the real lockfile.)

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// One vulnerability: `leaky` below 1.2.0.
const ADVISORY: &str = "```toml\n[advisory]\nid = \"RUSTSEC-2099-0001\"\npackage = \"leaky\"\n\
date = \"2099-01-01\"\n\n[versions]\npatched = [\">= 1.2.0\"]\n```\n\n# leaky does something bad\n\nDescription.\n";

/// A folder with `db/` (the one advisory), `Cargo.lock` naming `leaky` at `version`, and an
/// empty `audit.toml`.
fn inputs(version: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let crates = dir.path().join("db/crates/leaky");
    fs::create_dir_all(&crates).expect("temp dir is writable");
    fs::write(crates.join("RUSTSEC-2099-0001.md"), ADVISORY).expect("temp dir is writable");
    let lock = format!(
        "version = 3\n\n[[package]]\nname = \"leaky\"\nversion = \"{version}\"\n\
         source = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
    );
    fs::write(dir.path().join("Cargo.lock"), lock).expect("temp dir is writable");
    fs::write(dir.path().join("audit.toml"), "").expect("temp dir is writable");
    dir
}

fn audit(dir: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_veranda-audit")).args(args).current_dir(dir).output().expect("veranda-audit runs")
}

/// The three inputs of `inputs`, as flags.
fn flags(dir: &Path) -> [std::ffi::OsString; 6] {
    let path = |name: &str| dir.join(name).into_os_string();
    ["--db".into(), path("db"), "--lockfile".into(), path("Cargo.lock"), "--policy".into(), path("audit.toml")]
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_clean_lockfile_exits_0_and_counts_what_it_read() {
    let dir = inputs("1.2.0");
    let out = audit(dir.path(), &flags(dir.path()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "audit: 1 packages, 0 advisories found, 0 accepted\n");
}

#[test]
fn a_vulnerable_version_exits_1_and_names_the_advisory() {
    let dir = inputs("1.1.0");
    let out = audit(dir.path(), &flags(dir.path()));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("FOUND     RUSTSEC-2099-0001 leaky 1.1.0 (vulnerability): leaky does something bad\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("audit: 1 packages, 1 advisories found, 0 accepted\n"), "{stdout}");
}

#[test]
fn a_missing_database_or_an_unknown_flag_exits_2_with_the_reason() {
    let dir = inputs("1.2.0");
    let out = audit(dir.path(), &["--db", "no-such-db"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("advisory database not found at no-such-db"), "{stderr}");

    let out = audit(dir.path(), &["--dbb", "db"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("veranda-audit: unknown argument --dbb"), "{stderr}");
    assert!(stderr.contains("usage: veranda-audit [--db DIR] [--lockfile FILE] [--policy FILE]"), "{stderr}");
}
