//! Checks a `Cargo.lock` against a local copy of the RustSec advisory database, offline.
//!
//! # Layout
//! - [`Policy`]: the checked-in `audit.toml`, each accepted advisory with the reason it is accepted.
//! - [`audit`]: every vulnerability, and every unmaintained or unsound warning, sorted into findings (which fail
//!   the audit) and accepted ones; acceptances that no longer match anything are reported so they get removed.
//! - [`open_database`] and [`read_lockfile`]: loading the two inputs with errors that name the path.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use rustsec::advisory::Informational;
use rustsec::database::Query;
use rustsec::{Database, Lockfile, Vulnerability};
use serde::Deserialize;

/// What can stop the audit before it judges anything.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("advisory database not found at {0} (expected a copy of the RustSec advisory-db with a `crates` folder; pass --db DIR)")]
    MissingDatabase(PathBuf),
    #[error("advisory database at {path} could not be read: {source}")]
    Database { path: PathBuf, source: rustsec::Error },
    #[error("lockfile {path} could not be read: {source}")]
    Lockfile { path: PathBuf, source: rustsec::cargo_lock::Error },
    #[error("policy {path} could not be read: {message}")]
    Policy { path: PathBuf, message: String },
}

/// One advisory the project has decided to live with.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Acceptance {
    /// The advisory id, e.g. `RUSTSEC-2024-0384`.
    pub id: String,
    /// The crate it is about; an acceptance covers only that crate.
    #[serde(rename = "crate")]
    pub krate: String,
    /// Why the project accepts it; required and never empty, so every acceptance can be argued with.
    pub reason: String,
}

/// The checked-in `audit.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Accepted advisories; anything else the database reports fails the audit.
    #[serde(default)]
    pub accept: Vec<Acceptance>,
}

impl Policy {
    /// Parses a policy, refusing an acceptance without a reason.
    pub fn parse(text: &str) -> Result<Self, String> {
        let policy: Self = toml::from_str(text).map_err(|e| e.to_string())?;
        if let Some(bare) = policy.accept.iter().find(|a| a.reason.trim().is_empty()) {
            return Err(format!("the acceptance of {} ({}) has no reason", bare.id, bare.krate));
        }
        Ok(policy)
    }

    /// Reads a policy file; a missing file is an empty policy (nothing accepted).
    pub fn load(path: &Path) -> Result<Self, AuditError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(AuditError::Policy { path: path.to_owned(), message: e.to_string() }),
        };
        Self::parse(&text).map_err(|message| AuditError::Policy { path: path.to_owned(), message })
    }

    fn accepts(&self, id: &str, krate: &str) -> Option<&Acceptance> {
        self.accept.iter().find(|a| a.id == id && a.krate == krate)
    }
}

/// What kind of advisory a finding comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Vulnerability,
    Unmaintained,
    Unsound,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Vulnerability => "vulnerability",
            Self::Unmaintained => "unmaintained",
            Self::Unsound => "unsound",
        })
    }
}

/// One advisory that matches one locked package.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub id: String,
    pub krate: String,
    pub version: String,
    pub kind: Kind,
    pub title: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} ({}): {}", self.id, self.krate, self.version, self.kind, self.title)
    }
}

/// The audit's verdict.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Advisories not accepted by the policy: each fails the audit.
    pub findings: Vec<Finding>,
    /// Advisories the policy accepts, with the reason given.
    pub accepted: Vec<(Finding, String)>,
    /// Acceptances that matched nothing (the crate was upgraded or removed): worth deleting.
    pub unused: Vec<Acceptance>,
}

impl Outcome {
    /// Whether the lockfile passes.
    pub fn passed(&self) -> bool {
        self.findings.is_empty()
    }
}

/// Opens the advisory database at `path` without any network access.
pub fn open_database(path: &Path) -> Result<Database, AuditError> {
    if !path.join("crates").is_dir() {
        return Err(AuditError::MissingDatabase(path.to_owned()));
    }
    Database::open(path).map_err(|source| AuditError::Database { path: path.to_owned(), source })
}

/// Reads a `Cargo.lock`.
pub fn read_lockfile(path: &Path) -> Result<Lockfile, AuditError> {
    Lockfile::load(path).map_err(|source| AuditError::Lockfile { path: path.to_owned(), source })
}

fn finding(v: &Vulnerability, kind: Kind) -> Finding {
    Finding {
        id: v.advisory.id.to_string(),
        krate: v.package.name.to_string(),
        version: v.package.version.to_string(),
        kind,
        title: v.advisory.title.clone(),
    }
}

/// Sorts every advisory that matches a locked package into findings and accepted ones.
pub fn audit(db: &Database, lockfile: &Lockfile, policy: &Policy) -> Outcome {
    let vulnerabilities =
        db.query_vulnerabilities(lockfile, &Query::crate_scope()).into_iter().map(|v| finding(&v, Kind::Vulnerability));
    let warnings = db
        .query_vulnerabilities(lockfile, &Query::crate_scope().informational(true))
        .into_iter()
        .filter_map(|v| match v.advisory.informational {
            Some(Informational::Unmaintained) => Some(finding(&v, Kind::Unmaintained)),
            Some(Informational::Unsound) => Some(finding(&v, Kind::Unsound)),
            _ => None,
        });
    let all: BTreeSet<Finding> = vulnerabilities.chain(warnings).collect();

    let mut outcome = Outcome::default();
    let mut used = BTreeSet::new();
    for found in all {
        match policy.accepts(&found.id, &found.krate) {
            Some(acceptance) => {
                used.insert((acceptance.id.clone(), acceptance.krate.clone()));
                outcome.accepted.push((found, acceptance.reason.clone()));
            }
            None => outcome.findings.push(found),
        }
    }
    outcome.unused =
        policy.accept.iter().filter(|a| !used.contains(&(a.id.clone(), a.krate.clone()))).cloned().collect();
    outcome
}

#[cfg(test)]
mod tests;
