//! `veranda-audit [--db DIR] [--lockfile FILE] [--policy FILE]`: fails (exit 1) on every advisory in the local
//! RustSec database that matches `Cargo.lock` and is not accepted in `audit.toml`; exit 2 when an input is missing.

use std::path::PathBuf;
use std::process::ExitCode;

use veranda_audit::{audit, open_database, read_lockfile, AuditError, Policy};

struct Args {
    db: PathBuf,
    lockfile: PathBuf,
    policy: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        db: PathBuf::from("../shared/advisory-db"),
        lockfile: PathBuf::from("Cargo.lock"),
        policy: PathBuf::from("audit.toml"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let slot = match flag.as_str() {
            "--db" => &mut args.db,
            "--lockfile" => &mut args.lockfile,
            "--policy" => &mut args.policy,
            other => return Err(format!("unknown argument {other}")),
        };
        *slot = it.next().map(PathBuf::from).ok_or_else(|| format!("{flag} needs a value"))?;
    }
    Ok(args)
}

fn run(args: &Args) -> Result<bool, AuditError> {
    let db = open_database(&args.db)?;
    let lockfile = read_lockfile(&args.lockfile)?;
    let policy = Policy::load(&args.policy)?;
    let outcome = audit(&db, &lockfile, &policy);
    for (found, reason) in &outcome.accepted {
        println!("accepted  {found}\n          because: {reason}");
    }
    for unused in &outcome.unused {
        println!(
            "unused acceptance {} ({}) in {}: nothing matches it any more",
            unused.id,
            unused.krate,
            args.policy.display()
        );
    }
    for found in &outcome.findings {
        println!("FOUND     {found}");
    }
    println!(
        "audit: {} packages, {} advisories found, {} accepted",
        lockfile.packages.len(),
        outcome.findings.len(),
        outcome.accepted.len()
    );
    Ok(outcome.passed())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("veranda-audit: {message}");
            eprintln!("usage: veranda-audit [--db DIR] [--lockfile FILE] [--policy FILE]");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("veranda-audit: {e}");
            ExitCode::from(2)
        }
    }
}
