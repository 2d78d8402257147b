//! `[pages]` of `veranda.toml` (see `docs/pages.md`): how much memory the page cache may
//! hold.

use serde::{Deserialize, Serialize};

/// The default of `[pages] cache_mb`.
pub const DEFAULT_PAGE_CACHE_MB: usize = 32;

/// `[pages]` of `veranda.toml`: the page cache.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PageSettings {
    /// Megabytes of rendered pages kept (bodies and their brotli and gzip codings); 0
    /// renders every page for every request.
    pub cache_mb: usize,
}

impl Default for PageSettings {
    fn default() -> Self {
        PageSettings { cache_mb: DEFAULT_PAGE_CACHE_MB }
    }
}

impl PageSettings {
    /// The bound in bytes.
    pub fn cache_bytes(&self) -> usize {
        self.cache_mb.saturating_mul(1 << 20)
    }
}
