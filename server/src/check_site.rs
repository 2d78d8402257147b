//! `veranda check-site DIR`: every problem of a site directory, one per line.

use std::path::Path;
use std::process::ExitCode;

use veranda_actors::site::Site;

/// Validates the site at `dir`; prints `file: field: message` lines and exits 1 when
/// there are problems, 0 when the site is clean.
pub fn run(dir: &Path) -> ExitCode {
    match Site::load(dir) {
        Ok(site) => {
            println!("{}: ok ({} pages, {} collections)", dir.display(), site.pages.len(), site.collections.len());
            ExitCode::SUCCESS
        }
        Err(problems) => {
            for problem in &problems.0 {
                println!("{problem}");
            }
            eprintln!("{}: {} problem(s)", dir.display(), problems.0.len());
            ExitCode::FAILURE
        }
    }
}
