//! The site's password pages' locks, read once at start-up.

use std::collections::HashMap;

use veranda_actors::accounts::PasswordDigest;
use veranda_actors::site::{Access, Site};

/// A password page's lock: its hash as stored (signed into grants) and parsed.
pub struct PageLock {
    /// The PHC string from the site files.
    pub hash: String,
    /// The same, ready to verify against.
    pub digest: PasswordDigest,
}

/// The locks of the site's password pages, by page id, read once at start-up.
pub fn page_locks(site: &Site) -> HashMap<String, PageLock> {
    site.pages
        .iter()
        .filter(|p| p.access == Access::Password)
        .filter_map(|p| {
            let hash = p.password_hash.clone()?;
            let digest = serde_json::from_value::<PasswordDigest>(serde_json::Value::String(hash.clone())).ok()?;
            Some((p.id.clone(), PageLock { hash, digest }))
        })
        .collect()
}
