//! `veranda init DIR`: writes the starter site (`config/starter`, built into the binary) into a
//! new or empty directory, with a website id of its own, so a new owner does not start by
//! copying the demo. The starter passes `veranda check-site` as written.

use std::path::Path;
use std::process::ExitCode;

use rand::Rng;

use crate::embedded::{write_tree, StarterSite};

/// The website id written in `config/starter/site.toml`; each `init` replaces it with a new one.
const STARTER_WEBSITE_ID: &str = "5a7e4000000000000000000a";
/// The characters of a website id (`[a-z0-9]{24}`, docs/site-format.md).
const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// Why no starter site was written.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// The directory already holds files: nothing of an owner's is ever overwritten.
    #[error("{0}: the directory is not empty; init writes only into a new or empty directory")]
    NotEmpty(String),
    /// The path is a file (or something else that is not a directory).
    #[error("{0}: exists and is not a directory")]
    NotADirectory(String),
    /// The directory or a file could not be written.
    #[error("{path}: cannot write the starter site: {source}")]
    Write {
        /// The directory.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Writes the starter site into `dir`; prints what to do next and exits 0, or prints why not
/// and exits 2.
pub fn run(dir: &Path) -> ExitCode {
    match init(dir) {
        Ok(files) => {
            let shown = dir.display();
            println!("{shown}: wrote a starter site ({files} files)");
            println!("check it:  veranda check-site {shown}");
            println!("serve it:  veranda serve --site {shown}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("veranda: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes the starter site into `dir` (created when missing) and returns how many files
/// were written.
pub fn init(dir: &Path) -> Result<usize, InitError> {
    let shown = || dir.display().to_string();
    let write = |source| InitError::Write { path: shown(), source };
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(InitError::NotEmpty(shown()));
            }
        }
        Err(_) if dir.exists() && !dir.is_dir() => return Err(InitError::NotADirectory(shown())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir_all(dir).map_err(write)?,
        Err(e) => return Err(write(e)),
    }
    let files = write_tree::<StarterSite>(dir).map_err(write)?;
    let settings = dir.join("site.toml");
    let text = std::fs::read_to_string(&settings).map_err(write)?;
    std::fs::write(&settings, text.replace(STARTER_WEBSITE_ID, &new_website_id())).map_err(write)?;
    Ok(files)
}

/// A fresh website id: 24 random lowercase letters and digits.
fn new_website_id() -> String {
    let mut rng = rand::rng();
    (0..24).map(|_| char::from(ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())])).collect()
}

#[cfg(test)]
mod tests {
    use veranda_actors::site::Site;

    use super::*;

    #[test]
    fn each_starter_site_gets_a_website_id_of_its_own() {
        let (a, b) = (tempfile::tempdir().expect("temp dir"), tempfile::tempdir().expect("temp dir"));
        init(a.path()).expect("written");
        init(b.path()).expect("written");
        let id = |dir: &Path| Site::load(dir).expect("the starter loads").settings.website.id;
        let (id_a, id_b) = (id(a.path()), id(b.path()));
        assert_ne!(id_a, STARTER_WEBSITE_ID);
        assert_ne!(id_a, id_b);
        assert!(id_a.len() == 24 && id_a.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()), "{id_a}");
    }

    #[test]
    fn the_starter_has_one_page_navigation_and_a_form() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("new/site");
        assert_eq!(init(&target).expect("written into a new directory"), 3);
        let site = Site::load(&target).expect("the starter loads");
        assert_eq!(site.pages.len(), 1);
        assert_eq!(site.pages[0].url, "/");
        assert!(!site.navigation.main.is_empty());
        let text = std::fs::read_to_string(target.join("pages/home.toml")).expect("the page");
        assert!(text.contains("kind = \"form\""), "{text}");
    }

    #[test]
    fn a_file_or_a_non_empty_directory_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        let err = init(dir.path()).expect_err("not empty");
        assert!(matches!(err, InitError::NotEmpty(_)), "{err}");
        assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).expect("kept"), "mine");
        assert!(!dir.path().join("site.toml").exists());

        let err = init(&dir.path().join("notes.txt")).expect_err("a file");
        assert!(matches!(err, InitError::NotADirectory(_)), "{err}");
    }
}
