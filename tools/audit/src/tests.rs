//! The audit judged on a small database and lockfile written for each test.

use std::fs;
use std::path::Path;
use std::str::FromStr;

use super::*;

const REGISTRY: &str = "registry+https://github.com/rust-lang/crates.io-index";

fn advisory(db: &Path, krate: &str, id: &str, extra: &str, patched: &str) {
    let dir = db.join("crates").join(krate);
    fs::create_dir_all(&dir).expect("temp dir is writable");
    let text = format!(
        "```toml\n[advisory]\nid = \"{id}\"\npackage = \"{krate}\"\ndate = \"2099-01-01\"\n{extra}\n\n\
         [versions]\npatched = [\"{patched}\"]\n```\n\n# {krate} does something bad\n\nDescription.\n"
    );
    fs::write(dir.join(format!("{id}.md")), text).expect("temp dir is writable");
}

fn lockfile(packages: &[(&str, &str)]) -> Lockfile {
    let mut text = String::from("version = 3\n");
    for (name, version) in packages {
        text.push_str(&format!("\n[[package]]\nname = \"{name}\"\nversion = \"{version}\"\nsource = \"{REGISTRY}\"\n"));
    }
    Lockfile::from_str(&text).expect("the test lockfile parses")
}

fn database() -> (tempfile::TempDir, Database) {
    let dir = tempfile::tempdir().expect("temp dir");
    advisory(dir.path(), "leaky", "RUSTSEC-2099-0001", "", ">= 1.2.0");
    advisory(dir.path(), "abandoned", "RUSTSEC-2099-0002", "informational = \"unmaintained\"", ">= 9.0.0");
    advisory(dir.path(), "shaky", "RUSTSEC-2099-0003", "informational = \"unsound\"", ">= 2.0.0");
    advisory(dir.path(), "chatty", "RUSTSEC-2099-0004", "informational = \"notice\"", ">= 9.0.0");
    let db = open_database(dir.path()).expect("the test database opens");
    (dir, db)
}

#[test]
fn a_vulnerable_version_is_a_finding_with_id_crate_version_and_title() {
    let (_dir, db) = database();
    let outcome = audit(&db, &lockfile(&[("leaky", "1.1.0")]), &Policy::default());
    assert!(!outcome.passed());
    assert_eq!(
        outcome.findings[0].to_string(),
        "RUSTSEC-2099-0001 leaky 1.1.0 (vulnerability): leaky does something bad"
    );
}

#[test]
fn a_patched_version_passes() {
    let (_dir, db) = database();
    let outcome = audit(&db, &lockfile(&[("leaky", "1.2.0")]), &Policy::default());
    assert!(outcome.passed(), "{:?}", outcome.findings);
}

#[test]
fn unmaintained_and_unsound_warnings_fail_but_notices_do_not() {
    let (_dir, db) = database();
    let lock = lockfile(&[("abandoned", "1.0.0"), ("shaky", "1.0.0"), ("chatty", "1.0.0")]);
    let outcome = audit(&db, &lock, &Policy::default());
    let found: Vec<(&str, Kind)> = outcome.findings.iter().map(|f| (f.id.as_str(), f.kind)).collect();
    assert_eq!(found, vec![("RUSTSEC-2099-0002", Kind::Unmaintained), ("RUSTSEC-2099-0003", Kind::Unsound)]);
}

#[test]
fn an_accepted_advisory_passes_and_keeps_its_reason() {
    let (_dir, db) = database();
    let policy = Policy::parse(
        "[[accept]]\nid = \"RUSTSEC-2099-0001\"\ncrate = \"leaky\"\nreason = \"only reached with trusted input\"\n",
    )
    .expect("policy parses");
    let outcome = audit(&db, &lockfile(&[("leaky", "1.1.0")]), &policy);
    assert!(outcome.passed(), "{:?}", outcome.findings);
    assert_eq!(outcome.accepted.len(), 1);
    assert_eq!(outcome.accepted[0].1, "only reached with trusted input");
    assert!(outcome.unused.is_empty());
}

#[test]
fn an_acceptance_covers_only_its_own_crate() {
    let (_dir, db) = database();
    let policy = Policy::parse("[[accept]]\nid = \"RUSTSEC-2099-0001\"\ncrate = \"other\"\nreason = \"x\"\n")
        .expect("policy parses");
    let outcome = audit(&db, &lockfile(&[("leaky", "1.1.0")]), &policy);
    assert!(!outcome.passed());
    assert_eq!(outcome.unused.len(), 1);
}

#[test]
fn an_acceptance_without_a_reason_is_refused() {
    let err = Policy::parse("[[accept]]\nid = \"RUSTSEC-2099-0001\"\ncrate = \"leaky\"\nreason = \"  \"\n")
        .expect_err("a bare acceptance is refused");
    assert!(err.contains("has no reason"), "{err}");
    assert!(Policy::parse("[[accept]]\nid = \"RUSTSEC-2099-0001\"\ncrate = \"leaky\"\n").is_err());
}

#[test]
fn a_missing_database_path_gives_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no-such-db");
    let Err(err) = open_database(&missing) else { panic!("a missing database fails") };
    let message = err.to_string();
    assert!(message.contains("advisory database not found at") && message.contains("no-such-db"), "{message}");
}

#[test]
fn the_checked_in_policy_parses_and_every_acceptance_has_a_reason() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../audit.toml");
    let policy = Policy::load(&path).expect("audit.toml parses");
    assert!(policy.accept.iter().all(|a| !a.reason.trim().is_empty()));
}
