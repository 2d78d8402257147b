//! `veranda check-site DIR`: every problem of a site directory, one per line: the
//! site's pages, collections and settings ([`Site::load`]) and its store rules
//! (`commerce.toml`, read by [`StoreRules::load`], the loader the server uses),
//! including a physical product the store has no shipping option for.

use std::path::Path;
use std::process::ExitCode;

use veranda_actors::commerce::rules::StoreRules;
use veranda_actors::site::{Site, SiteProblem};

/// Validates the site at `dir`; prints `file: field: message` lines and exits 1 when
/// there are problems, 0 when the site is clean.
pub fn run(dir: &Path) -> ExitCode {
    let site = Site::load(dir);
    let mut problems: Vec<SiteProblem> = match &site {
        Ok(_) => Vec::new(),
        Err(problems) => problems.0.clone(),
    };
    // Without the directory there is no commerce.toml to speak of.
    if dir.is_dir() {
        match (StoreRules::load(dir), &site) {
            (Err(rules), _) => problems.extend(rules),
            (Ok(rules), Ok(site)) => problems.extend(rules.unshipped(site)),
            (Ok(_), Err(_)) => {}
        }
    }
    match site {
        Ok(site) if problems.is_empty() => {
            println!("{}: ok ({} pages, {} collections)", dir.display(), site.pages.len(), site.collections.len());
            ExitCode::SUCCESS
        }
        _ => {
            for problem in &problems {
                println!("{problem}");
            }
            eprintln!("{}: {} problem(s)", dir.display(), problems.len());
            ExitCode::FAILURE
        }
    }
}
