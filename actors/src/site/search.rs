//! Site search: published pages and items whose title or text contains every query word.
//!
//! Only what any visitor may see is searched: public pages (title, description and the
//! text of text blocks) and the published items of public collections (title, excerpt
//! and body text). Matching is case-insensitive on whole query words as substrings;
//! results whose title matches come first, then in site order.

use serde::Serialize;

use super::blocks::BlockData;
use super::content::Access;
use super::sanitize::plain_text;
use super::Site;

/// Longest excerpt, in characters.
const EXCERPT_CHARS: usize = 160;

/// One search result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// Title of the page or item.
    pub title: String,
    /// Its path.
    pub url: String,
    /// A short excerpt.
    pub excerpt: String,
}

/// Something searchable: its title, url and plain text.
struct Document {
    title: String,
    url: String,
    text: String,
}

/// Finds pages and published items matching every word of `query` (case-insensitive).
pub fn search(site: &Site, query: &str, collection: Option<&str>) -> Vec<SearchHit> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    if words.is_empty() {
        return Vec::new();
    }
    let mut ranked: Vec<(bool, SearchHit)> = documents(site, collection)
        .filter_map(|doc| {
            let title = doc.title.to_lowercase();
            let text = doc.text.to_lowercase();
            let all = words.iter().all(|w| title.contains(w.as_str()) || text.contains(w.as_str()));
            if !all {
                return None;
            }
            let in_title = words.iter().any(|w| title.contains(w.as_str()));
            let excerpt = excerpt(&doc.text, &text, &words);
            Some((in_title, SearchHit { title: doc.title, url: doc.url, excerpt }))
        })
        .collect();
    // Stable: within each group the site order is kept.
    ranked.sort_by_key(|(in_title, _)| !*in_title);
    ranked.into_iter().map(|(_, hit)| hit).collect()
}

/// Every public page and published public item, as plain text; with `only` (a folder
/// name), that collection's published items only (none when it is not public).
fn documents<'a>(site: &'a Site, only: Option<&'a str>) -> impl Iterator<Item = Document> + 'a {
    let pages = site.pages.iter().filter(move |p| only.is_none() && p.access == Access::Public).map(|page| {
        let mut parts = vec![page.description.clone()];
        parts.extend(page.blocks.iter().filter_map(|b| match &b.data {
            BlockData::Text(text) => Some(plain_text(&text.html)),
            _ => None,
        }));
        Document { title: page.title.clone(), url: page.url.clone(), text: join(parts) }
    });
    let chosen = move |c: &&crate::site::Collection| only.is_none_or(|name| c.name == name);
    let items = site.collections.iter().filter(|c| c.access == Access::Public).filter(chosen).flat_map(|collection| {
        collection.published_items().map(move |item| Document {
            title: item.title.clone(),
            url: collection.item_url(item),
            text: join(vec![item.excerpt.clone(), plain_text(&item.body_html)]),
        })
    });
    pages.chain(items)
}

fn join(parts: Vec<String>) -> String {
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect::<Vec<_>>().join(" ")
}

/// About [`EXCERPT_CHARS`] characters of `text` around the first word found in it (or
/// its start), cut at word boundaries. `lower` is `text` lowercased.
fn excerpt(text: &str, lower: &str, words: &[String]) -> String {
    let chars: Vec<char> = text.chars().collect();
    let lower_chars: Vec<char> = lower.chars().collect();
    // Lowercasing can change lengths for a few scripts; fall back to the start then.
    let position = if chars.len() == lower_chars.len() {
        words.iter().filter_map(|w| lower.find(w.as_str()).map(|byte| lower[..byte].chars().count())).min()
    } else {
        None
    };
    let mut start = position.unwrap_or(0).saturating_sub(EXCERPT_CHARS / 3);
    while start > 0 && !chars[start - 1].is_whitespace() {
        start -= 1;
    }
    let mut end = (start + EXCERPT_CHARS).min(chars.len());
    while end < chars.len() && end > start && !chars[end].is_whitespace() {
        end -= 1;
    }
    if end == start {
        end = (start + EXCERPT_CHARS).min(chars.len());
    }
    let mut out: String = chars[start..end].iter().collect::<String>().trim().to_string();
    if start > 0 {
        out.insert_str(0, "… ");
    }
    if end < chars.len() {
        out.push_str(" …");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::enums::{ItemType, PublicationState};

    fn words(query: &str) -> Vec<String> {
        query.split_whitespace().map(str::to_lowercase).collect()
    }

    #[test]
    fn short_text_is_the_whole_excerpt() {
        let text = "Fresh bread every morning.";
        assert_eq!(excerpt(text, &text.to_lowercase(), &words("bread")), text);
    }

    #[test]
    fn long_text_is_cut_around_the_match_at_word_boundaries() {
        let text = format!("{} the porch opens at seven {}", "lorem ipsum ".repeat(40), "dolor sit ".repeat(40));
        let cut = excerpt(&text, &text.to_lowercase(), &words("PORCH"));
        assert!(cut.contains("porch opens"), "{cut}");
        assert!(cut.starts_with("… ") && cut.ends_with(" …"), "{cut}");
        assert!(cut.chars().count() <= EXCERPT_CHARS + 4, "{cut}");
        assert!(!cut.contains("lorem ipsu …") && !cut.starts_with("… orem"), "{cut}");
    }

    fn page(url: &str, title: &str, access: Access, html: &str) -> crate::site::Page {
        crate::site::Page {
            id: "a".repeat(24),
            name: title.to_lowercase(),
            url: url.into(),
            title: title.into(),
            description: String::new(),
            access,
            password_hash: None,
            splash: false,
            blocks: vec![crate::site::Block {
                id: "b".repeat(24),
                data: BlockData::Text(crate::site::blocks::TextBlock { html: html.into() }),
            }],
        }
    }

    fn item(url_id: &str, title: &str, state: PublicationState, body: &str) -> crate::site::Item {
        crate::site::Item {
            id: "c".repeat(24),
            url_id: url_id.into(),
            title: title.into(),
            record_type: ItemType::Text,
            state,
            published_on: "2024-01-01".into(),
            author: String::new(),
            excerpt: String::new(),
            body_html: body.into(),
            image: None,
            image_size: None,
            tags: Vec::new(),
            categories: Vec::new(),
            event: None,
            product: None,
            blocks: Vec::new(),
        }
    }

    fn site() -> crate::site::Site {
        crate::site::Site {
            dir: std::path::PathBuf::new(),
            settings: toml::from_str(
                "[website]\nid = \"5f2a9c0e4b1d7a3c8e6f0b12\"\ntitle = \"T\"\nbaseUrl = \"http://x\"",
            )
            .expect("valid settings"),
            navigation: Default::default(),
            pages: vec![
                page("/", "Home", Access::Public, "<p>Coffee and <strong>sourdough</strong> on the porch.</p>"),
                page("/members", "Members", Access::Members, "<p>Secret sourdough recipe.</p>"),
            ],
            collections: vec![crate::site::Collection {
                id: "d".repeat(24),
                name: "blog".into(),
                url: "/blog".into(),
                title: "Blog".into(),
                kind: crate::site::CollectionKind::Blog,
                view_mode: Default::default(),
                access: Access::Public,
                description: String::new(),
                items: vec![
                    item(
                        "sourdough-day",
                        "Sourdough day",
                        PublicationState::Published,
                        "<p>We bake at <em>dawn</em>.</p>",
                    ),
                    item("draft-post", "Sourdough draft", PublicationState::Draft, "<p>Not yet.</p>"),
                ],
            }],
        }
    }

    #[test]
    fn every_word_must_match_case_insensitively() {
        let hits = search(&site(), "SOURDOUGH porch", None);
        let urls: Vec<&str> = hits.iter().map(|h| h.url.as_str()).collect();
        assert_eq!(urls, ["/"]);
        assert_eq!(hits[0].excerpt, "Coffee and sourdough on the porch.");
    }

    #[test]
    fn drafts_and_member_pages_are_not_found_and_title_matches_come_first() {
        let hits = search(&site(), "sourdough", None);
        let urls: Vec<&str> = hits.iter().map(|h| h.url.as_str()).collect();
        assert_eq!(urls, ["/blog/sourdough-day", "/"]);
    }

    #[test]
    fn item_bodies_are_searched_without_their_tags() {
        let hits = search(&site(), "dawn", None);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].excerpt, "We bake at dawn.");
        assert!(search(&site(), "em", None).is_empty(), "tag names are not text");
    }

    #[test]
    fn a_collection_limits_the_search_to_its_published_items() {
        let urls = |collection| search(&site(), "sourdough", collection).into_iter().map(|h| h.url).collect::<Vec<_>>();
        assert_eq!(urls(Some("blog")), ["/blog/sourdough-day"], "not the home page, not the draft");
        assert!(urls(Some("shop")).is_empty(), "a folder the site does not have finds nothing");
    }

    #[test]
    fn an_empty_query_finds_nothing() {
        let site = crate::site::Site {
            dir: std::path::PathBuf::new(),
            settings: toml::from_str(
                "[website]\nid = \"5f2a9c0e4b1d7a3c8e6f0b12\"\ntitle = \"T\"\nbaseUrl = \"http://x\"",
            )
            .expect("valid settings"),
            navigation: Default::default(),
            pages: Vec::new(),
            collections: Vec::new(),
        };
        assert!(search(&site, "   ", None).is_empty());
    }
}
