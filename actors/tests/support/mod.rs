//! What the site-loading tests share: a minimal site written to a temporary directory,
//! and loading it.
#![allow(dead_code)]

use std::path::Path;

use veranda_actors::site::Site;

/// Writes a minimal valid site with one page holding `blocks` (TOML) and the `extra` files
/// into a temporary directory.
pub fn site_with(blocks: &str, extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a file has a parent")).expect("create folders");
        std::fs::write(full, text).expect("write file");
    };
    write(
        "site.toml",
        "[website]\nid = \"0123456789abcdef01234567\"\ntitle = \"Test\"\nbaseUrl = \"https://example.com\"\n",
    );
    write("pages/home.toml", &format!("id = \"aaaaaaaaaaaaaaaaaaaaaa01\"\nurl = \"/\"\ntitle = \"Home\"\n{blocks}"));
    for (path, text) in extra {
        write(path, text);
    }
    dir
}

/// The site in `dir`, which must load.
pub fn load(dir: &Path) -> Site {
    match Site::load(dir) {
        Ok(site) => site,
        Err(problems) => panic!("{problems}"),
    }
}
