//! [`ServedSite`]: the site directory `veranda serve` loads. A site on disk wins: the
//! configured `site` when it exists, or any path set explicitly (a missing one is then
//! reported by the site loader, as before). Only when the default `config/sites/demo` is not
//! beside the working directory is the embedded demo written to a temporary folder and loaded
//! from there, through the same loader `veranda check-site` uses.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::{write_tree, DemoSite};
use crate::settings::DEFAULT_SITE;

/// The directory of the site to load, and the temporary copy behind it when it is the
/// embedded demo (removed when this is dropped, at shutdown).
#[derive(Debug)]
pub struct ServedSite {
    /// The directory the site loader reads.
    pub dir: PathBuf,
    /// The embedded demo written out; `None` for a site on disk.
    copy: Option<TempDir>,
}

/// The embedded demo could not be written to a temporary folder.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the built-in demo site to a temporary folder ({dir}): {source}")]
pub struct EmbeddedSiteError {
    /// The temporary folder, or the system's temporary directory when none was made.
    dir: String,
    /// Why.
    source: std::io::Error,
}

impl ServedSite {
    /// The site for the `site` setting, logged at start.
    pub fn choose(configured: &Path) -> Result<ServedSite, EmbeddedSiteError> {
        if configured.exists() || configured != Path::new(DEFAULT_SITE) {
            tracing::info!(site = %configured.display(), "serving the site from disk");
            return Ok(ServedSite { dir: configured.to_path_buf(), copy: None });
        }
        let copy = tempfile::Builder::new()
            .prefix("veranda-demo-")
            .tempdir()
            .map_err(|source| EmbeddedSiteError { dir: std::env::temp_dir().display().to_string(), source })?;
        let files = write_tree::<DemoSite>(copy.path())
            .map_err(|source| EmbeddedSiteError { dir: copy.path().display().to_string(), source })?;
        tracing::info!(
            copy = %copy.path().display(),
            files,
            "no site at {DEFAULT_SITE}: serving the demo site built into the binary"
        );
        Ok(ServedSite { dir: copy.path().to_path_buf(), copy: Some(copy) })
    }

    /// Whether this is the embedded demo.
    pub fn is_embedded(&self) -> bool {
        self.copy.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_on_disk_or_set_explicitly_is_used_as_it_is() {
        let dir = tempfile::tempdir().expect("temp dir");
        let chosen = ServedSite::choose(dir.path()).expect("chosen");
        assert_eq!(chosen.dir, dir.path());
        assert!(!chosen.is_embedded());

        let missing = dir.path().join("no-such-site");
        let chosen = ServedSite::choose(&missing).expect("chosen");
        assert_eq!(chosen.dir, missing, "an explicit path is never replaced by the demo");
        assert!(!chosen.is_embedded());
    }

    #[test]
    fn without_a_site_beside_the_working_directory_the_embedded_demo_loads() {
        // Tests run in server/, where there is no config/sites/demo.
        assert!(!Path::new(DEFAULT_SITE).exists());
        let chosen = ServedSite::choose(Path::new(DEFAULT_SITE)).expect("chosen");
        assert!(chosen.is_embedded());
        let site = veranda_actors::site::Site::load(&chosen.dir).expect("the embedded demo loads");
        assert_eq!(site.settings.website.title, "Veranda Café & Supply");
        let copy = chosen.dir.clone();
        drop(chosen);
        assert!(!copy.exists(), "the temporary copy is removed when the server stops");
    }
}
