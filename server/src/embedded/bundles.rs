//! The embedded folders ([`ClientBuild`], [`DemoSite`], [`StarterSite`]) and [`write_tree`],
//! which writes one out to a directory.

use std::path::{Component, Path};

use rust_embed::Embed;

/// The built client (`client/dist`, Vite's output). A fresh clone has no build yet: the
/// binary then carries no client and the server says so at start (`allow_missing`).
#[derive(Embed)]
#[folder = "../client/dist/"]
#[allow_missing = true]
pub struct ClientBuild;

/// The demo site (`config/sites/demo`), served when no site is on disk.
#[derive(Embed)]
#[folder = "../config/sites/demo/"]
pub struct DemoSite;

/// The starter site `veranda init` writes (`config/starter`).
#[derive(Embed)]
#[folder = "../config/starter/"]
pub struct StarterSite;

/// Writes every file of the embedded folder `E` under `dir` (creating folders) and returns how
/// many were written. Paths come from the build, never from a request; one that is not a plain
/// relative path is skipped all the same.
pub fn write_tree<E: Embed>(dir: &Path) -> std::io::Result<usize> {
    let mut written = 0;
    for name in E::iter() {
        let relative = Path::new(name.as_ref());
        if !relative.components().all(|c| matches!(c, Component::Normal(_))) {
            continue;
        }
        let Some(file) = E::get(&name) else { continue };
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, &file.data)?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_site_is_written_out_whole() {
        let dir = tempfile::tempdir().expect("temp dir");
        let written = write_tree::<DemoSite>(dir.path()).expect("written");
        let on_disk = walk(Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo").as_path());
        assert_eq!(written, on_disk.len());
        for name in on_disk {
            let original = Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo").join(&name);
            let copy = std::fs::read(dir.path().join(&name)).expect("the copy has the file");
            assert_eq!(copy, std::fs::read(original).expect("the original"), "{name}");
        }
    }

    /// Every file under `root`, as paths relative to it.
    fn walk(root: &Path) -> Vec<String> {
        let mut files = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Ok(relative) = path.strip_prefix(root) {
                    files.push(relative.to_string_lossy().into_owned());
                }
            }
        }
        files
    }
}
