//! Gallery history deep links (spec 001 §2): a slide of a gallery with `historyEnabled`
//! has an address of its own, the page's path, a slash and the slide's key (its slide url,
//! else its slide id). The page router answers that address with the page, that slide
//! current; the gallery island writes it to browser history as the visitor moves.

use super::blocks::{BlockData, GalleryBlock, GallerySlide};
use super::content::Page;

impl GallerySlide {
    /// The key the slide's address ends with: its slide url, else its slide id. A key
    /// must be one path segment of unreserved characters (letters, digits, `-`, `_`, `.`,
    /// `~`); a slide without one has no address of its own.
    pub fn history_key(&self) -> Option<&str> {
        let key = match self.slide_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => url,
            _ => self.slide_id.trim(),
        };
        let unreserved = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~');
        (!key.is_empty() && key != "." && key != ".." && key.chars().all(unreserved)).then_some(key)
    }
}

impl GalleryBlock {
    /// The index of the slide `key` names (by slide url or slide id), when history is on.
    pub fn linked_slide(&self, key: &str) -> Option<usize> {
        if !self.history_enabled {
            return None;
        }
        // A slide with an address is named by that address or by its slide id.
        self.slides.iter().position(|s| s.history_key().is_some_and(|k| k == key || s.slide_id == key))
    }
}

impl Page {
    /// Whether a gallery of this page with history enabled has a slide named `key`.
    pub fn links_slide(&self, key: &str) -> bool {
        self.blocks.iter().any(|b| matches!(&b.data, BlockData::Gallery(g) if g.linked_slide(key).is_some()))
    }
}

/// The slide key `path` names under the page at `page_url` (`/photos` and `/photos/sunset`
/// give `sunset`; the home page `/` and `/sunset` too), or `None` when `path` is not one
/// segment below the page.
pub fn slide_key<'p>(page_url: &str, path: &'p str) -> Option<&'p str> {
    let rest = path.strip_prefix(page_url.trim_end_matches('/'))?.strip_prefix('/')?;
    (!rest.is_empty() && !rest.contains('/')).then_some(rest)
}

/// The address of the slide `key` of a gallery on the page at `page_url`.
pub fn slide_link(page_url: &str, key: &str) -> String {
    format!("{}/{key}", page_url.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gallery(history: bool) -> GalleryBlock {
        serde_json::from_value(serde_json::json!({
            "design": "slideshow",
            "historyEnabled": history,
            "slides": [
                { "src": "a.png", "slideId": "first" },
                { "src": "b.png", "slideId": "second", "slideUrl": "the-second" },
                { "src": "c.png", "slideId": "not a key" },
                { "src": "d.png" }
            ]
        }))
        .expect("a gallery block")
    }

    #[test]
    fn a_slide_is_named_by_its_slide_url_else_its_slide_id() {
        let g = gallery(true);
        let keys: Vec<_> = g.slides.iter().map(GallerySlide::history_key).collect();
        assert_eq!(keys, [Some("first"), Some("the-second"), None, None]);
        assert_eq!(g.linked_slide("first"), Some(0));
        assert_eq!(g.linked_slide("the-second"), Some(1));
        assert_eq!(g.linked_slide("second"), Some(1), "the slide id of a slide with a url still names it");
        assert_eq!(g.linked_slide("not a key"), None);
        assert_eq!(g.linked_slide("third"), None);
    }

    #[test]
    fn galleries_without_history_name_no_slide() {
        assert_eq!(gallery(false).linked_slide("first"), None);
    }

    #[test]
    fn a_slide_key_is_one_segment_below_the_page() {
        assert_eq!(slide_key("/photos", "/photos/sunset"), Some("sunset"));
        assert_eq!(slide_key("/", "/sunset"), Some("sunset"));
        assert_eq!(slide_key("/photos", "/photos"), None);
        assert_eq!(slide_key("/photos", "/photos/a/b"), None);
        assert_eq!(slide_key("/photos", "/photosets/a"), None);
        assert_eq!(slide_link("/photos", "sunset"), "/photos/sunset");
        assert_eq!(slide_link("/", "sunset"), "/sunset");
    }
}
