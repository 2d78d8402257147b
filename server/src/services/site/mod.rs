//! [`LiveSite`]: the one way to read the site. The site directory is loaded once and
//! stays the published source; content edited through the edit APIs is kept as an
//! overlay ([`ContentOverlay`], one document in the settings tree, written before an
//! edit is acknowledged). The edited site, the loaded site with the overlay applied, is
//! what visitors are shown, listed in the sitemap and sold.
//!
//! ## Layout
//!
//! - `overlay`: the overlay and how it applies to the loaded site.

mod overlay;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use veranda_actors::site::Site;
use veranda_actors::store::{Store, StoreError, Swap, Tree};

pub use overlay::{CollectionSettings, ContentOverlay, PageSettings};

/// Settings-tree key of the content overlay.
pub const CONTENT_KEY: &[u8] = b"edits/content";
/// How many times an edit is applied to the stored overlay before giving up, when other
/// instances keep storing theirs in between.
pub const EDIT_ATTEMPTS: u32 = 12;

/// The site as visitors see it: the loaded site with the content overlay applied.
pub struct LiveSite {
    /// Where the overlay is kept.
    store: Arc<dyn Store>,
    /// The site as loaded from its directory.
    base: Arc<Site>,
    /// The overlay; its lock also orders concurrent edits.
    overlay: tokio::sync::Mutex<ContentOverlay>,
    /// The edited site visitors see (swapped whole on each edit). A poisoned lock still
    /// holds a whole snapshot (the swap is one assignment), so it is read through, never
    /// replaced by the unedited site.
    current: RwLock<Arc<Site>>,
    /// Counts the edited sites shown: a new value whenever `current` changes.
    generation: AtomicU64,
}

impl LiveSite {
    /// The loaded site with the stored overlay applied. An unreadable overlay is logged
    /// and ignored (the site directory is shown as is).
    pub fn load(store: Arc<dyn Store>, base: Site) -> LiveSite {
        let base = Arc::new(base);
        let overlay = stored_overlay(store.as_ref()).unwrap_or_else(|error| {
            tracing::error!(%error, "cannot read the stored content edits; showing the site directory as is");
            None
        });
        let overlay = overlay.unwrap_or_default();
        let current = if overlay == ContentOverlay::default() { base.clone() } else { Arc::new(overlay.apply(&base)) };
        LiveSite {
            store,
            base,
            overlay: tokio::sync::Mutex::new(overlay),
            current: RwLock::new(current),
            generation: AtomicU64::new(0),
        }
    }

    /// Shows the overlay as stored now: edits made through another instance sharing the
    /// store. An overlay that cannot be read leaves the site as it is.
    pub async fn reload(&self) {
        let mut overlay = self.overlay.lock().await;
        match stored_overlay(self.store.as_ref()) {
            Ok(Some(stored)) if stored != *overlay => {
                self.show(Arc::new(stored.apply(&self.base)));
                *overlay = stored;
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "cannot read the stored content edits; the site is shown as it was"),
        }
    }

    /// The edited site, as visitors see it now: a snapshot that later edits leave as is.
    pub fn current(&self) -> Arc<Site> {
        self.current.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Which edited site is shown: changes whenever the site does, so what was made from
    /// an earlier one (a cached page) is told apart.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Shows `site` from now on.
    fn show(&self, site: Arc<Site>) {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        *current = site;
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// Runs `change` on the overlay against the edited site; when it succeeds, stores the
    /// overlay (on disk before this resolves) and shows the result. `change`'s error is
    /// handed back with nothing changed.
    ///
    /// Instances sharing the store may edit at the same moment: the change is applied to
    /// the overlay as stored now and swapped in only if nobody stored another one
    /// meanwhile ([`Store::compare_and_swap`]); otherwise it is applied again to the one
    /// stored now, after a short random pause, at most [`EDIT_ATTEMPTS`] times, so no
    /// concurrent edit is lost. When every attempt met another edit, nothing is changed
    /// and the error is [`StoreError::Unavailable`] (503, try again).
    pub async fn edit<T, E: From<StoreError>>(
        &self,
        mut change: impl FnMut(&mut ContentOverlay, &Site) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut overlay = self.overlay.lock().await;
        for attempt in 0..EDIT_ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(Duration::from_millis(rand::random_range(1..=32))).await;
            }
            let stored = self.store.get(Tree::Settings, CONTENT_KEY)?;
            // Another instance sharing the store may have edited since: start from the stored overlay.
            let mut next = match stored.as_deref().map(serde_json::from_slice::<ContentOverlay>) {
                Some(Ok(stored)) => stored,
                Some(Err(error)) => {
                    tracing::warn!(%error, "the stored content edits are unreadable; editing this instance's copy");
                    overlay.clone()
                }
                None => overlay.clone(),
            };
            let site = if next == *overlay { self.current() } else { Arc::new(next.apply(&self.base)) };
            let answer = change(&mut next, &site)?;
            let bytes = serde_json::to_vec(&next).map_err(|e| StoreError::Backend(e.to_string()))?;
            match self.store.compare_and_swap(Tree::Settings, CONTENT_KEY, stored.as_deref(), &bytes).await? {
                Swap::Swapped => {
                    self.show(Arc::new(next.apply(&self.base)));
                    *overlay = next;
                    return Ok(answer);
                }
                Swap::Conflict(_) => tracing::debug!(attempt, "the content edits changed meanwhile; editing again"),
            }
        }
        Err(StoreError::Unavailable(format!(
            "the content edits were changed through another instance {EDIT_ATTEMPTS} times in a row"
        ))
        .into())
    }
}

/// The overlay stored now, if any; the error says why it cannot be read.
fn stored_overlay(store: &dyn Store) -> Result<Option<ContentOverlay>, String> {
    match store.get(Tree::Settings, CONTENT_KEY) {
        Ok(Some(bytes)) => serde_json::from_slice(&bytes).map(Some).map_err(|e| format!("unreadable: {e}")),
        Ok(None) => Ok(None),
        Err(error) => Err(error.to_string()),
    }
}
