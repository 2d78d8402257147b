//! [`StartupError`]: why the server could not start, naming the file, field or address
//! at fault.

use veranda_actors::site::SiteProblems;
use veranda_actors::store::StoreError;

use super::commerce::CommerceStartError;
use crate::assets::AssetsError;
use crate::security::crumb_source::CrumbKeyError;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The site directory has problems.
    #[error("{0}")]
    Site(#[from] SiteProblems),
    /// The store could not be opened.
    #[error("{path}: cannot open the data directory: {source}")]
    Store {
        /// The data directory.
        path: String,
        /// What the store said.
        source: StoreError,
    },
    /// The demo site built into the binary could not be written out.
    #[error("{0}")]
    EmbeddedSite(#[from] crate::embedded::site::EmbeddedSiteError),
    /// The built client could not be read.
    #[error("{0}")]
    Assets(#[from] AssetsError),
    /// A listener could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// Why it could not be bound.
        source: std::io::Error,
    },
    /// Redis (`--redis-url`) cannot be reached, or could lose acknowledged writes.
    #[error("cannot use Redis at {url}: {reason}")]
    Redis {
        /// The URL, any password hidden.
        url: String,
        /// Why, a sentence for the operator.
        reason: String,
    },
    /// The crumb key could not be read or kept.
    #[error("{0}")]
    CrumbKey(#[from] CrumbKeyError),
    /// The store's `commerce.toml` has problems, or Redis cannot keep carts and orders.
    #[error("{0}")]
    Commerce(#[from] CommerceStartError),
}
