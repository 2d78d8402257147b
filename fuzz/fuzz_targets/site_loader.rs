//! The site-format loader behind `veranda check-site`: one file of a copy of the demo
//! site is replaced by the fuzzer's bytes, then the whole directory is loaded.
//!
//! Input: a byte choosing the file (see [`FILES`]), then its new contents. Properties:
//! loading never panics; a refused site names at least one problem, each with a file
//! and a message; a loaded site resolves every page by its url.

#![no_main]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use veranda_actors::site::{Resolved, Site};

/// The files the fuzzer may replace, relative to the site directory.
const FILES: [&str; 10] = [
    "site.toml",
    "navigation.toml",
    "pages/home.toml",
    "pages/contact.toml",
    "pages/gallery-designs.toml",
    "collections/shop/collection.toml",
    "collections/shop/items/house-blend.toml",
    "collections/events/collection.toml",
    "collections/events/items/saturday-market.toml",
    "collections/blog/items/summer-garden.toml",
];

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("a temp directory");
    for entry in fs::read_dir(from).expect("the demo site lists") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("a demo file copies");
        }
    }
}

/// A private copy of the demo site for this process.
fn site_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("veranda-fuzz-site-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        copy_dir(&veranda_fuzz::demo_site_dir(), &dir);
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, contents)) = data.split_first() else { return };
    let dir = site_dir();
    let file = dir.join(FILES[usize::from(which) % FILES.len()]);
    let original = fs::read(&file).expect("the demo file is there");
    fs::write(&file, contents).expect("the file is written");
    let loaded = Site::load(dir);
    fs::write(&file, &original).expect("the file is restored");
    match loaded {
        Ok(site) => {
            for page in &site.pages {
                let found = site.resolve(&page.url);
                assert!(matches!(found, Some(Resolved::Page(p)) if p.id == page.id), "{} resolves", page.url);
            }
        }
        Err(problems) => {
            assert!(!problems.0.is_empty(), "a refused site names a problem");
            for problem in &problems.0 {
                assert!(!problem.file.is_empty() && !problem.message.is_empty(), "{problem:?}");
                let _ = problem.to_string();
            }
        }
    }
});
