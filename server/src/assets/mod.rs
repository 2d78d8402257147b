//! Built client assets: reads Vite's manifest (`dist/.vite/manifest.json`) to find the
//! content-hashed loader and dashboard files, and serves `dist/assets/*` with long cache
//! headers. The build is read from `assets_dir` on disk, or from the copy built into the
//! binary when the default `client/dist` is not beside the working directory
//! ([`Assets::choose`]). A missing build is not an error (pages then have no scripts); a
//! manifest that is present but unreadable is.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::HttpResponse;
use serde::Deserialize;

use crate::compression::{self, compressible, Coding, KeptFiles};
use crate::edge::NoStore;
use crate::embedded::ClientBuild;
use crate::settings::DEFAULT_ASSETS_DIR;
/// Where Vite writes its manifest, relative to the build folder.
pub const MANIFEST_PATH: &str = ".vite/manifest.json";
/// The build's sub-folder of hashed files, served under `/assets/`.
const ASSETS_FOLDER: &str = "assets";
/// Entry name of the script every published page links.
const LOADER_ENTRY: &str = "loader";
/// Entry name of the configuration area's script.
const DASHBOARD_ENTRY: &str = "dashboard";
/// Hashed file names never change content: caches may keep them for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Where the built client's files are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssetSource {
    /// The folder Vite built into (`client/dist`, or the `assets_dir` setting).
    Disk(PathBuf),
    /// The build carried by the binary ([`ClientBuild`]).
    Embedded,
}

impl Default for AssetSource {
    /// No folder: every asset is missing.
    fn default() -> Self {
        AssetSource::Disk(PathBuf::new())
    }
}

/// The built client, as the server needs it.
#[derive(Debug, Clone, Default)]
pub struct Assets {
    /// Where the files are read from.
    pub source: AssetSource,
    /// URL of the loader entry script, when built.
    pub loader_js: Option<String>,
    /// Stylesheets of the loader entry.
    pub loader_css: Vec<String>,
    /// URL of the dashboard entry script, when built.
    pub dashboard_js: Option<String>,
    /// Stylesheets of the dashboard entry.
    pub dashboard_css: Vec<String>,
    /// Built files in their brotli and gzip codings, made on first request.
    pub kept: KeptFiles,
}

/// Why a present manifest could not be used.
#[derive(Debug, thiserror::Error)]
pub enum AssetsError {
    /// The manifest exists but could not be read.
    #[error("{path}: cannot read the client manifest: {source}")]
    Read { path: String, source: std::io::Error },
    /// The manifest is not the JSON Vite writes.
    #[error("{path}: the client manifest is not valid: {source}")]
    Parse { path: String, source: serde_json::Error },
    /// A required entry is missing.
    #[error("{path}: the client manifest has no `{entry}` entry; rebuild the client")]
    MissingEntry { path: String, entry: &'static str },
    /// A file named by the manifest is not a plain name under `assets/`.
    #[error("{path}: the client manifest names `{file}`, which is not a file under assets/")]
    BadFile { path: String, file: String },
}

/// One chunk of Vite's manifest (only the fields the server reads).
#[derive(Debug, Deserialize)]
struct Chunk {
    /// Output file, relative to the build folder (`assets/loader-abc123.js`).
    file: String,
    /// The entry's name from the build input.
    #[serde(default)]
    name: Option<String>,
    /// Whether the chunk is an entry of the build input.
    #[serde(default, rename = "isEntry")]
    is_entry: bool,
    /// Stylesheets the chunk needs, relative to the build folder.
    #[serde(default)]
    css: Vec<String>,
    /// Manifest keys of the chunks it imports statically.
    #[serde(default)]
    imports: Vec<String>,
}

/// Vite's manifest: chunks by source path or internal key.
type Manifest = HashMap<String, Chunk>;

impl Assets {
    /// The client for the `assets_dir` setting, logged at start: `dir` when it exists or is
    /// not the default `client/dist`; otherwise the build carried by the binary.
    pub fn choose(dir: &Path) -> Result<Assets, AssetsError> {
        if dir.exists() || dir != Path::new(DEFAULT_ASSETS_DIR) {
            tracing::info!(assets = %dir.display(), "serving the client from disk");
            return Assets::load(dir);
        }
        tracing::info!("no client at {DEFAULT_ASSETS_DIR}: serving the client built into the binary");
        Assets::embedded()
    }

    /// Reads Vite's manifest in `dir`; a missing build gives pages without scripts.
    pub fn load(dir: &Path) -> Result<Assets, AssetsError> {
        let manifest_path = dir.join(MANIFEST_PATH);
        let path = manifest_path.display().to_string();
        let source = AssetSource::Disk(dir.to_path_buf());
        match std::fs::read_to_string(&manifest_path) {
            Ok(text) => Assets::from_manifest(&text, &path, source),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                tracing::warn!(manifest = %path, "no built client: pages are served without scripts (run `npm run build` in client/)");
                Ok(Assets { source, ..Assets::default() })
            }
            Err(source) => Err(AssetsError::Read { path, source }),
        }
    }

    /// Reads the manifest of the build carried by the binary; a binary built before the
    /// client gives pages without scripts.
    pub fn embedded() -> Result<Assets, AssetsError> {
        let path = format!("(built-in client) {MANIFEST_PATH}");
        match ClientBuild::get(MANIFEST_PATH) {
            Some(file) => {
                let text = String::from_utf8_lossy(&file.data);
                Assets::from_manifest(&text, &path, AssetSource::Embedded)
            }
            None => {
                tracing::warn!("this binary was built without the client: pages are served without scripts (build client/ first, then the binary)");
                Ok(Assets { source: AssetSource::Embedded, ..Assets::default() })
            }
        }
    }

    /// The entries of the manifest `text` (read from `path`, named in errors).
    fn from_manifest(text: &str, path: &str, source: AssetSource) -> Result<Assets, AssetsError> {
        let manifest: Manifest =
            serde_json::from_str(text).map_err(|source| AssetsError::Parse { path: path.to_string(), source })?;
        let (loader_js, loader_css) = entry(&manifest, LOADER_ENTRY, path)?;
        let (dashboard_js, dashboard_css) = entry(&manifest, DASHBOARD_ENTRY, path)?;
        Ok(Assets {
            source,
            loader_js: Some(loader_js),
            loader_css,
            dashboard_js: Some(dashboard_js),
            dashboard_css,
            kept: KeptFiles::default(),
        })
    }
}

/// The URL of entry `name` and of every stylesheet it needs (its own and its static imports').
fn entry(manifest: &Manifest, name: &'static str, path: &str) -> Result<(String, Vec<String>), AssetsError> {
    let chunk = manifest
        .values()
        .find(|c| c.is_entry && c.name.as_deref() == Some(name))
        .ok_or(AssetsError::MissingEntry { path: path.to_string(), entry: name })?;
    let mut css = Vec::new();
    let mut seen = Vec::new();
    collect_css(manifest, chunk, &mut seen, &mut css);
    let css = css.into_iter().map(|f| url(&f, path)).collect::<Result<Vec<_>, _>>()?;
    Ok((url(&chunk.file, path)?, css))
}

/// Adds `chunk`'s stylesheets, then those of its imports, each once.
fn collect_css<'m>(manifest: &'m Manifest, chunk: &'m Chunk, seen: &mut Vec<&'m str>, css: &mut Vec<String>) {
    for file in &chunk.css {
        if !css.contains(file) {
            css.push(file.clone());
        }
    }
    for key in &chunk.imports {
        if seen.contains(&key.as_str()) {
            continue;
        }
        seen.push(key);
        if let Some(imported) = manifest.get(key) {
            collect_css(manifest, imported, seen, css);
        }
    }
}

/// `/assets/<name>` for a manifest file `assets/<name>`; anything else is refused.
fn url(file: &str, path: &str) -> Result<String, AssetsError> {
    file.strip_prefix("assets/")
        .and_then(|name| AssetName::parse(name).ok())
        .map(|name| format!("/{ASSETS_FOLDER}/{}", name.0))
        .ok_or_else(|| AssetsError::BadFile { path: path.to_string(), file: file.to_string() })
}

/// The name of one built file: a single segment of letters, digits, `-`, `_` and `.`,
/// not starting with a dot. Vite writes every hashed file flat under `assets/`.
#[derive(Debug, PartialEq, Eq)]
pub struct AssetName(String);

/// Why an asset name was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct UnsafeAssetName;

impl AssetName {
    /// Parses the percent-decoded tail of an `/assets/` URL.
    pub fn parse(decoded: &str) -> Result<AssetName, UnsafeAssetName> {
        let plain = !decoded.is_empty()
            && decoded.len() <= 255
            && !decoded.starts_with('.')
            && decoded.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if plain {
            Ok(AssetName(decoded.to_string()))
        } else {
            Err(UnsafeAssetName)
        }
    }
}

/// The response for the raw (still percent-encoded) tail of an `/assets/` URL: a built
/// asset from the build's `assets/` folder, cached for a year, in `coding` when it is
/// text (compressed once and kept in `kept`); 404 for anything else.
pub async fn respond(source: &AssetSource, kept: &KeptFiles, coding: Coding, raw: &str) -> HttpResponse {
    // Decode once, ourselves: `%2f`, `%2e` and `%5c` cannot sneak past the name check.
    let name = percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()
        .and_then(|decoded| AssetName::parse(&decoded).ok());
    let Some(name) = name else { return not_found() };
    if !compressible(&name.0) {
        return answer(&name, read(source, &name).await.map(|bytes| (bytes, Coding::Identity)), false);
    }
    let file = match kept.get(&name.0) {
        Some(file) => Some(file),
        None => read(source, &name).await.map(|bytes| kept.keep(&name.0, bytes)),
    };
    let Some(file) = file else { return not_found() };
    // Compressing a large script takes a while: off the request threads, once.
    let body = if file.is_made(coding) {
        Some(file.body(coding))
    } else {
        actix_web::web::block(move || file.body(coding)).await.ok()
    };
    answer(&name, body, true)
}

/// The bytes of the built file `name`, if there is one.
async fn read(source: &AssetSource, name: &AssetName) -> Option<Bytes> {
    match source {
        AssetSource::Disk(dir) => read_inside(&dir.join(ASSETS_FOLDER), name).await.map(Bytes::from),
        AssetSource::Embedded => ClientBuild::get(&format!("{ASSETS_FOLDER}/{}", name.0)).map(|file| match file.data {
            Cow::Borrowed(data) => Bytes::from_static(data),
            Cow::Owned(data) => Bytes::from(data),
        }),
    }
}

/// Answers with the file `name` in a coding, or 404; `varies` when other codings exist.
fn answer(name: &AssetName, body: Option<(Bytes, Coding)>, varies: bool) -> HttpResponse {
    let Some((bytes, coding)) = body else { return not_found() };
    let mime = mime_guess::from_path(&name.0).first_or_octet_stream();
    let mut builder = HttpResponse::Ok();
    builder
        .content_type(mime.as_ref())
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE)))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")));
    if varies {
        builder.insert_header((header::VARY, HeaderValue::from_static("Accept-Encoding")));
    }
    compression::mark(&mut builder, coding);
    builder.body(bytes)
}

/// A plain 404 for a missing asset (not the site's 404 page: scripts never show it).
fn not_found() -> HttpResponse {
    HttpResponse::build(StatusCode::NOT_FOUND)
        .content_type("text/plain; charset=utf-8")
        .no_store()
        .body("No such asset.")
}

/// Reads `root/name` only if, with symlinks resolved, it is a file inside `root`.
async fn read_inside(root: &Path, name: &AssetName) -> Option<Vec<u8>> {
    let root = tokio::fs::canonicalize(root).await.ok()?;
    let full = tokio::fs::canonicalize(root.join(&name.0)).await.ok()?;
    if !full.starts_with(&root) || !tokio::fs::metadata(&full).await.ok()?.is_file() {
        return None;
    }
    tokio::fs::read(&full).await.ok()
}

#[cfg(test)]
mod tests;
