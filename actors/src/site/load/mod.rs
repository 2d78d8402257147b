//! Loading a site directory and checking every file and field.
//!
//! Loading runs in two passes. The first reads each file on its own: TOML syntax, fields,
//! ids, urls, files under `images/` and `files/`, product rules, and sanitises rich text.
//! It notes what blocks refer to elsewhere (collections, products). The second pass,
//! [`cross`], checks those references, url clashes and the navigation once everything is
//! read. Every problem is collected; the site loads only when there are none.
//!
//! - [`fields`]: field-by-field table reading and owner-readable error messages.
//! - [`rules`]: ids, urls, dates, file references, SKU generation.
//! - [`settings`]: `site.toml` and `navigation.toml`.
//! - [`pages`]: pages, collections and items.
//! - [`products`]: product rules and generated SKUs.
//! - [`blocks`]: blocks and their per-kind checks.
//! - [`cross`]: the second pass.

mod blocks;
mod cross;
mod fields;
mod pages;
mod products;
pub mod rules;
mod settings;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use self::fields::{syntax_message, Problems};
use super::content::CollectionKind;
use super::{Site, SiteProblems};
use crate::site::redirect::RedirectPolicy;

/// Reads the site at `dir`, collecting every problem rather than stopping at the first.
pub fn load(dir: PathBuf) -> Result<Site, SiteProblems> {
    let mut loader = Loader::new(&dir);
    if !dir.is_dir() {
        let message = format!("cannot be read: the site directory {} does not exist", dir.display());
        loader.problems.add("site.toml", "", message);
        return Err(SiteProblems(loader.problems.0));
    }
    let settings = loader.settings();
    let navigation = loader.navigation();
    let pages = loader.pages();
    let collections = loader.collections();
    loader.cross_check(settings.as_ref(), &navigation, &pages, &collections);
    match settings {
        Some(settings) if loader.problems.0.is_empty() => Ok(Site { dir, settings, navigation, pages, collections }),
        _ => Err(SiteProblems(loader.problems.0)),
    }
}

/// Something a block names elsewhere in the site, checked in the second pass.
#[derive(Debug)]
enum Reference {
    /// A collection by folder name, optionally of one kind.
    Collection { name: String, kind: Option<CollectionKind> },
    /// A product item as `collection/urlId`.
    Product(String),
}

/// Where a reference was made, and what it names.
#[derive(Debug)]
struct Noted {
    /// File of the block.
    file: String,
    /// Field path of the reference.
    field: String,
    /// What it names.
    reference: Reference,
}

/// The state of one load.
struct Loader {
    /// The site directory.
    dir: PathBuf,
    /// Every problem so far.
    problems: Problems,
    /// Ids claimed so far, with where they were first used.
    ids: HashMap<String, String>,
    /// Form ids claimed so far (forms and newsletters), with where.
    form_ids: HashMap<String, String>,
    /// SKUs claimed so far, with where.
    skus: HashMap<String, String>,
    /// Urls of pages, collections and items, with their file and field.
    urls: Vec<(String, String, String)>,
    /// References to check in the second pass.
    references: Vec<Noted>,
    /// Where forms may redirect, from `site.toml` (read before any page).
    redirects: RedirectPolicy,
    /// Which providers video blocks may embed, from `site.toml`.
    embeds: crate::site::embeds::EmbedAllowList,
}

impl Loader {
    fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            problems: Problems::default(),
            ids: HashMap::new(),
            form_ids: HashMap::new(),
            skus: HashMap::new(),
            urls: Vec::new(),
            references: Vec::new(),
            redirects: RedirectPolicy::default(),
            embeds: crate::site::embeds::EmbedAllowList::default(),
        }
    }

    /// Reads and parses `relative` as a TOML table; `None` (with a problem) when it
    /// cannot be read or is not valid TOML.
    fn read_table(&mut self, relative: &str) -> Option<toml::Table> {
        let text = match std::fs::read_to_string(self.dir.join(relative)) {
            Ok(text) => text,
            Err(error) => {
                self.problems.add(relative, "", format!("cannot be read: {error}"));
                return None;
            }
        };
        match toml::from_str::<toml::Table>(&text) {
            Ok(table) => Some(table),
            Err(error) => {
                self.problems.add(relative, "", syntax_message(&error, &text));
                None
            }
        }
    }

    /// The `.toml` files directly in `relative` (a folder), as (stem, relative path),
    /// sorted by name. A missing folder has none.
    fn toml_files(&mut self, relative: &str) -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = self
            .entries(relative)
            .into_iter()
            .filter(|(name, is_dir)| !is_dir && name.ends_with(".toml"))
            .map(|(name, _)| (name.trim_end_matches(".toml").to_string(), format!("{relative}/{name}")))
            .collect();
        files.sort();
        files
    }

    /// The entries of folder `relative` (name, is a directory), hidden ones left out.
    fn entries(&mut self, relative: &str) -> Vec<(String, bool)> {
        let path = self.dir.join(relative);
        if !path.exists() {
            return Vec::new();
        }
        let reader = match std::fs::read_dir(&path) {
            Ok(reader) => reader,
            Err(error) => {
                self.problems.add(relative, "", format!("cannot be listed: {error}"));
                return Vec::new();
            }
        };
        reader
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                (!name.starts_with('.')).then(|| (name, e.path().is_dir()))
            })
            .collect()
    }

    /// Claims `id` for the thing at `file`/`field`: reports a malformed or repeated id.
    fn claim_id(&mut self, file: &str, field: &str, id: &str) {
        if let Some(problem) = rules::id_problem(id) {
            self.problems.add(file, field, problem);
            return;
        }
        let here = format!("{file} {field}");
        if let Some(first) = self.ids.get(id) {
            let message = format!("id '{id}' is already used by {first}");
            self.problems.add(file, field, message);
        } else {
            self.ids.insert(id.to_string(), here);
        }
    }

    /// Reports a file reference under `folder/` that is not an existing file.
    fn check_file(&mut self, file: &str, field: &str, folder: &str, name: &str) {
        if let Some(problem) = rules::file_problem(&self.dir, folder, name) {
            self.problems.add(file, field, problem);
        }
    }

    /// Width and height of the image `name` in `images/`, read from its header, so pages
    /// can reserve the image's space before it loads; `None` when it cannot be read (a
    /// missing file is reported by [`Loader::check_file`]).
    fn image_size(&self, name: &str) -> Option<(u32, u32)> {
        if rules::file_problem(&self.dir, "images", name).is_some() {
            return None;
        }
        let path = self.dir.join("images").join(name);
        image::ImageReader::open(path).ok()?.with_guessed_format().ok()?.into_dimensions().ok()
    }

    /// Notes a reference for the second pass.
    fn note(&mut self, file: &str, field: &str, reference: Reference) {
        self.references.push(Noted { file: file.to_string(), field: field.to_string(), reference });
    }
}
