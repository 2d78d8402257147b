//! The page cache: a published page rendered once per site edit and shown to every
//! visitor it is the same for, kept in each coding it is asked for.
//!
//! A page is the same for every visitor who is not signed in, has not unlocked it, and
//! closed the same announcement (or none): what differs per visitor (the crumb cookie,
//! the remembered `noredirect`) is in headers, added to each answer. So only those
//! visitors' views of public pages, collections and items are cached, keyed by
//! [`PageKey`]: the site's and the header's edit generations, the day (dates decide
//! what is upcoming), the url id and filters, the closed announcement and the logout
//! dialog. An edit makes new keys; the old entries age out.
//!
//! The cache holds at most `[pages] cache_mb` (bodies and their compressed codings
//! counted); the least recently used entry leaves first. Its requests (`hit`, `miss`,
//! `bypass`), held bytes and evictions are on `/metrics`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use actix_web::http::header::HeaderValue;
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use lru::LruCache;

use sha2::{Digest, Sha256};

use crate::compression::{Coding, Effort, Encoded};
use crate::ops::metrics::ServerMetric;

/// The entity tag of `body`, before a coding's suffix: the first 96 bits of its SHA-256.
pub fn entity_tag(body: &[u8]) -> String {
    Sha256::digest(body)[..12].iter().map(|b| format!("{b:02x}")).collect()
}

/// A body's `ETag` values, one per coding (the quoted [`entity_tag`] and the coding's
/// suffix), made once: a cached page keeps its own, so a hit formats and checks no tag.
#[derive(Debug, Clone)]
pub struct EntityTags {
    identity: HeaderValue,
    gzip: HeaderValue,
    brotli: HeaderValue,
}

impl EntityTags {
    /// The tags of `body`.
    pub fn of(body: &[u8]) -> EntityTags {
        let etag = entity_tag(body);
        // Hex digits, a suffix of letters and quotes: always a valid header value.
        let tag = |coding: Coding| {
            HeaderValue::from_str(&format!("\"{etag}{}\"", coding.etag_suffix()))
                .unwrap_or_else(|_| HeaderValue::from_static("\"\""))
        };
        EntityTags { identity: tag(Coding::Identity), gzip: tag(Coding::Gzip), brotli: tag(Coding::Brotli) }
    }

    /// The tag of the body in `coding`.
    pub fn get(&self, coding: Coding) -> &HeaderValue {
        match coding {
            Coding::Identity => &self.identity,
            Coding::Gzip => &self.gzip,
            Coding::Brotli => &self.brotli,
        }
    }
}

/// Why a request was or was not answered from the cache: the `result` label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// Answered from the cache.
    Hit,
    /// Rendered and kept.
    Miss,
    /// Rendered for this visitor alone (signed in, unlocked, a gated or unknown page).
    Bypass,
}

impl Lookup {
    /// Every label value.
    pub const ALL: [Lookup; 3] = [Lookup::Hit, Lookup::Miss, Lookup::Bypass];

    /// The label value.
    pub const fn label(self) -> &'static str {
        match self {
            Lookup::Hit => "hit",
            Lookup::Miss => "miss",
            Lookup::Bypass => "bypass",
        }
    }

    /// Counts one request. The three counters' handles are looked up once per thread.
    pub fn count(self) {
        thread_local! {
            static COUNTERS: [metrics::Counter; 3] = Lookup::ALL
                .map(|lookup| metrics::counter!(ServerMetric::PageCacheRequests.name(), "result" => lookup.label()));
        }
        COUNTERS.with(|counters| counters[self as usize].increment(1));
    }
}

/// What a cached page is the same for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PageKey {
    /// The site's edit generation.
    pub site: u64,
    /// The header and footer's edit generation.
    pub header_footer: u64,
    /// The day (UTC) it was rendered on.
    pub day: time::Date,
    /// The url id.
    pub url_id: String,
    /// The content filters.
    pub filters: BTreeMap<String, String>,
    /// The announcement the visitor closed, if any.
    pub dismissed_announcement: Option<String>,
    /// `/?logout=true`.
    pub logout_dialog: bool,
}

impl PageKey {
    /// The bytes the key itself takes, counted with its entry.
    fn bytes(&self) -> usize {
        self.url_id.len()
            + self.filters.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>()
            + self.dismissed_announcement.as_ref().map_or(0, String::len)
    }
}

/// A rendered page.
#[derive(Debug)]
pub struct CachedPage {
    /// Its status (200, or 403/404 for the pages that say so).
    pub status: StatusCode,
    /// The body's entity tags.
    pub tags: EntityTags,
    /// The body in each coding made so far.
    pub body: Encoded,
}

impl CachedPage {
    /// A page rendered as `html`.
    pub fn new(status: StatusCode, html: String) -> CachedPage {
        let tags = EntityTags::of(html.as_bytes());
        CachedPage { status, tags, body: Encoded::new(Bytes::from(html), Effort::Kept) }
    }
}

/// The entries and the bytes they hold.
struct Entries {
    /// Pages by key, least recently used first out.
    pages: LruCache<PageKey, Arc<CachedPage>>,
    /// Bytes held by the pages (bodies, codings, keys).
    held: usize,
}

/// Rendered pages, bounded in bytes.
pub struct PageCache {
    /// The entries.
    entries: Mutex<Entries>,
    /// Most bytes held; 0 turns the cache off.
    max_bytes: usize,
}

impl PageCache {
    /// An empty cache of at most `max_bytes`; exports its metrics at zero.
    pub fn new(max_bytes: usize) -> PageCache {
        for lookup in Lookup::ALL {
            metrics::counter!(ServerMetric::PageCacheRequests.name(), "result" => lookup.label()).absolute(0);
        }
        metrics::counter!(ServerMetric::PageCacheEvictions.name()).absolute(0);
        metrics::gauge!(ServerMetric::PageCacheBytes.name()).set(0.0);
        PageCache { entries: Mutex::new(Entries { pages: LruCache::unbounded(), held: 0 }), max_bytes }
    }

    /// Whether pages are kept at all.
    pub fn enabled(&self) -> bool {
        self.max_bytes > 0
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        // Every change leaves the entries and their count consistent: a poisoned lock still holds them.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The page kept for `key`, now the most recently used.
    pub fn get(&self, key: &PageKey) -> Option<Arc<CachedPage>> {
        self.lock().pages.get(key).cloned()
    }

    /// Keeps `page` for `key` (replacing what was there) and returns it. A page larger
    /// than the whole cache is returned without being kept.
    pub fn insert(&self, key: PageKey, page: CachedPage) -> Arc<CachedPage> {
        let page = Arc::new(page);
        let bytes = key.bytes() + page.body.held_bytes();
        if bytes > self.max_bytes {
            return page;
        }
        let mut entries = self.lock();
        let key_bytes = key.bytes();
        if let Some(old) = entries.pages.put(key, page.clone()) {
            entries.held -= (key_bytes + old.body.held_bytes()).min(entries.held);
        }
        entries.held += bytes;
        self.evict(&mut entries);
        page
    }

    /// The body of `page` (kept under `key`) in `coding`, making and counting that
    /// coding the first time it is asked for.
    pub fn body(&self, key: &PageKey, page: &Arc<CachedPage>, coding: Coding) -> (Bytes, Coding) {
        let (body, coding, made) = page.body.body_made(coding);
        if made > 0 {
            let mut entries = self.lock();
            // Counted only while the entry is kept: one that left was counted whole when it did.
            if entries.pages.peek(key).is_some_and(|kept| Arc::ptr_eq(kept, page)) {
                entries.held += made;
                self.evict(&mut entries);
            }
        }
        (body, coding)
    }

    /// Drops least recently used pages until the cache holds at most its bound.
    fn evict(&self, entries: &mut Entries) {
        while entries.held > self.max_bytes {
            let Some((key, page)) = entries.pages.pop_lru() else { break };
            entries.held -= (key.bytes() + page.body.held_bytes()).min(entries.held);
            metrics::counter!(ServerMetric::PageCacheEvictions.name()).increment(1);
        }
        metrics::gauge!(ServerMetric::PageCacheBytes.name()).set(entries.held as f64);
    }

    /// Bytes held now.
    pub fn held_bytes(&self) -> usize {
        self.lock().held
    }

    /// Pages kept now.
    pub fn len(&self) -> usize {
        self.lock().pages.len()
    }

    /// Whether no page is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(url_id: &str, site: u64) -> PageKey {
        PageKey {
            site,
            header_footer: 0,
            day: time::Date::from_calendar_date(2026, time::Month::November, 26).unwrap_or(time::Date::MIN),
            url_id: url_id.into(),
            filters: BTreeMap::new(),
            dismissed_announcement: None,
            logout_dialog: false,
        }
    }

    fn page(text: &str, repeat: usize) -> CachedPage {
        CachedPage::new(StatusCode::OK, text.repeat(repeat))
    }

    #[test]
    fn a_page_is_kept_per_key_and_a_new_edit_generation_misses() {
        let cache = PageCache::new(1 << 20);
        cache.insert(key("/about", 1), page("<p>about</p>", 10));
        assert_eq!(cache.get(&key("/about", 1)).map(|p| p.body.identity().len()), Some(120));
        assert!(cache.get(&key("/about", 2)).is_none(), "an edit makes a new key");
        assert!(cache.get(&key("/menu", 1)).is_none());
    }

    #[test]
    fn bodies_and_codings_are_counted_and_the_least_recently_used_leaves_first() {
        // Room for about three pages of 2,000 bytes with their keys.
        let cache = PageCache::new(6_200);
        for url in ["/a", "/b", "/c"] {
            cache.insert(key(url, 1), page("x", 2_000));
        }
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.held_bytes(), 3 * (2_000 + 2));
        cache.get(&key("/a", 1));
        cache.insert(key("/d", 1), page("y", 2_000));
        assert!(cache.get(&key("/b", 1)).is_none(), "the least recently used left");
        assert!(cache.get(&key("/a", 1)).is_some(), "a recently used page stays");

        let kept = cache.get(&key("/a", 1)).expect("kept");
        let before = cache.held_bytes();
        let (gz, coding) = cache.body(&key("/a", 1), &kept, Coding::Gzip);
        assert_eq!(coding, Coding::Gzip);
        assert_eq!(cache.held_bytes(), before + gz.len(), "a coding made is counted once");
        cache.body(&key("/a", 1), &kept, Coding::Gzip);
        assert_eq!(cache.held_bytes(), before + gz.len());
        assert!(cache.held_bytes() <= 6_200);
    }

    #[test]
    fn a_page_larger_than_the_cache_is_answered_but_not_kept_and_zero_turns_it_off() {
        let cache = PageCache::new(1_000);
        let answered = cache.insert(key("/big", 1), page("z", 5_000));
        assert_eq!(answered.body.identity().len(), 5_000);
        assert!(cache.is_empty());
        assert!(!PageCache::new(0).enabled());
    }

    #[test]
    fn replacing_a_key_does_not_count_it_twice() {
        let cache = PageCache::new(1 << 20);
        cache.insert(key("/a", 1), page("x", 1_000));
        cache.insert(key("/a", 1), page("x", 1_000));
        assert_eq!(cache.held_bytes(), 1_000 + 2);
    }

    #[test]
    fn a_coding_made_for_an_entry_that_left_is_not_counted() {
        let cache = PageCache::new(2_500);
        let first = cache.insert(key("/a", 1), page("x", 2_000));
        cache.insert(key("/b", 1), page("y", 2_000));
        assert!(cache.get(&key("/a", 1)).is_none());
        let held = cache.held_bytes();
        cache.body(&key("/a", 1), &first, Coding::Brotli);
        assert_eq!(cache.held_bytes(), held);
    }
}
