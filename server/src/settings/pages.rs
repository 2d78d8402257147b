//! `[pages]` of `veranda.toml` (see `docs/pages.md`): how much memory the page cache may
//! hold, and where the fonts and comments a site names load from (see
//! `docs/site-format.md`): third-party hosts a page contacts only when its site names fonts
//! or a comment short name.

use serde::{Deserialize, Serialize};

/// The default of `[pages] cache_mb`.
pub const DEFAULT_PAGE_CACHE_MB: usize = 32;

/// The default of `[pages] google_fonts_url`: Google's font CSS API.
pub const DEFAULT_GOOGLE_FONTS_URL: &str = "https://fonts.googleapis.com/css";
/// The default of `[pages] typekit_url`: Adobe Fonts' kit stylesheets.
pub const DEFAULT_TYPEKIT_URL: &str = "https://use.typekit.net/{kit}.css";
/// The default of `[pages] comment_count_script_url`: Disqus's count script.
pub const DEFAULT_COMMENT_COUNT_SCRIPT_URL: &str = "https://{shortname}.disqus.com/count.js";
/// The default of `[pages] comment_thread_script_url`: Disqus's embed script.
pub const DEFAULT_COMMENT_THREAD_SCRIPT_URL: &str = "https://{shortname}.disqus.com/embed.js";

/// `[pages]` of `veranda.toml`: the page cache and the font and comment services.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PageSettings {
    /// Megabytes of rendered pages kept (bodies and their brotli and gzip codings); 0
    /// renders every page for every request.
    pub cache_mb: usize,
    /// The font stylesheet service of `website.googleFonts` (Google's CSS API, or a mirror
    /// answering it); empty loads no Google fonts.
    pub google_fonts_url: String,
    /// The stylesheet of a Typekit kit, `{kit}` standing for `website.typekitId`; empty
    /// loads no kit.
    pub typekit_url: String,
    /// The comment-count script, `{shortname}` standing for `comments.disqusShortname`;
    /// empty loads none.
    pub comment_count_script_url: String,
    /// The script that shows an item's comment thread, `{shortname}` as above; empty shows
    /// no thread (the count links then lead nowhere, so both are usually set together).
    pub comment_thread_script_url: String,
}

impl Default for PageSettings {
    fn default() -> Self {
        PageSettings {
            cache_mb: DEFAULT_PAGE_CACHE_MB,
            google_fonts_url: DEFAULT_GOOGLE_FONTS_URL.to_string(),
            typekit_url: DEFAULT_TYPEKIT_URL.to_string(),
            comment_count_script_url: DEFAULT_COMMENT_COUNT_SCRIPT_URL.to_string(),
            comment_thread_script_url: DEFAULT_COMMENT_THREAD_SCRIPT_URL.to_string(),
        }
    }
}

impl PageSettings {
    /// The bound in bytes.
    pub fn cache_bytes(&self) -> usize {
        self.cache_mb.saturating_mul(1 << 20)
    }
}
