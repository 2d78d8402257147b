//! [`SiteEdits`]: the edits made through the edit APIs (header and footer, languages),
//! kept in the settings tree (durable) and in memory, over the site's own values.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use veranda_actors::site::settings::HeaderFooter;
use veranda_actors::site::Site;
use veranda_actors::store::{Store, StoreError, Tree};

/// Settings-tree key of the edited header and footer.
const HEADER_FOOTER_KEY: &[u8] = b"edits/site_header_footer";
/// Settings-tree key of the edited language list.
const LANGUAGES_KEY: &[u8] = b"edits/multilingual_languages";
/// Longest header or footer text, in characters.
pub const MAX_HEADER_FOOTER_CHARS: usize = 2000;
/// Most languages a site may list.
pub const MAX_LANGUAGES: usize = 50;

/// The site's edited values.
pub struct SiteEdits {
    /// Where edits are kept.
    store: Arc<dyn Store>,
    /// The header and footer visitors see.
    header_footer: RwLock<HeaderFooter>,
    /// Counts the headers and footers shown: a new value whenever `header_footer` is set.
    header_footer_generation: AtomicU64,
    /// The site's languages, the default first.
    languages: RwLock<Vec<LanguageTag>>,
    /// The site's default language (its locale).
    default_language: LanguageTag,
}

impl SiteEdits {
    /// The site's values with the stored edits applied.
    pub fn load(store: Arc<dyn Store>, site: &Site) -> SiteEdits {
        let stored = |key: &[u8]| store.get(Tree::Settings, key).ok().flatten();
        let header_footer = stored(HEADER_FOOTER_KEY)
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_else(|| site.settings.header_footer.clone());
        let default_language =
            LanguageTag::parse(&site.settings.website.locale).unwrap_or_else(|_| LanguageTag("en-US".to_string()));
        let languages = stored(LANGUAGES_KEY)
            .and_then(|b| serde_json::from_slice::<Vec<String>>(&b).ok())
            .and_then(|list| LanguageTag::parse_list(&list).ok())
            .unwrap_or_else(|| vec![default_language.clone()]);
        SiteEdits {
            store,
            header_footer: RwLock::new(header_footer),
            header_footer_generation: AtomicU64::new(0),
            languages: RwLock::new(languages),
            default_language,
        }
    }

    /// Shows the header, footer and languages as stored now: edits made through another
    /// instance sharing the store. What cannot be read is left as it is.
    pub fn reload(&self) {
        let stored = |key: &[u8]| self.store.get(Tree::Settings, key).ok().flatten();
        if let Some(value) = stored(HEADER_FOOTER_KEY).and_then(|b| serde_json::from_slice(&b).ok()) {
            self.show_header_footer(value);
        }
        let languages = stored(LANGUAGES_KEY)
            .and_then(|b| serde_json::from_slice::<Vec<String>>(&b).ok())
            .and_then(|list| LanguageTag::parse_list(&list).ok());
        if let (Some(list), Ok(mut current)) = (languages, self.languages.write()) {
            *current = list;
        }
    }

    /// The header and footer visitors see now.
    pub fn header_footer(&self) -> HeaderFooter {
        self.header_footer.read().map(|h| h.clone()).unwrap_or_default()
    }

    /// Stores a new header and footer (on disk before it resolves), then shows it.
    pub async fn set_header_footer(&self, value: HeaderFooter) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(&value).map_err(|e| StoreError::Backend(e.to_string()))?;
        self.store.put(Tree::Settings, HEADER_FOOTER_KEY, &bytes).await?;
        self.show_header_footer(value);
        Ok(())
    }

    fn show_header_footer(&self, value: HeaderFooter) {
        if let Ok(mut current) = self.header_footer.write() {
            *current = value;
            self.header_footer_generation.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Which header and footer is shown: changes whenever they are set.
    pub fn header_footer_generation(&self) -> u64 {
        self.header_footer_generation.load(Ordering::Acquire)
    }

    /// The site's languages.
    pub fn languages(&self) -> Vec<String> {
        self.languages.read().map(|l| l.iter().map(|t| t.0.clone()).collect()).unwrap_or_default()
    }

    /// The default language.
    pub fn default_language(&self) -> &str {
        &self.default_language.0
    }

    /// Stores a new language list (on disk before it resolves); the default language is
    /// always kept, first.
    pub async fn set_languages(&self, languages: Vec<LanguageTag>) -> Result<Vec<String>, StoreError> {
        let mut list = vec![self.default_language.clone()];
        list.extend(languages.into_iter().filter(|l| !l.0.eq_ignore_ascii_case(&self.default_language.0)));
        let names: Vec<String> = list.iter().map(|t| t.0.clone()).collect();
        let bytes = serde_json::to_vec(&names).map_err(|e| StoreError::Backend(e.to_string()))?;
        self.store.put(Tree::Settings, LANGUAGES_KEY, &bytes).await?;
        if let Ok(mut current) = self.languages.write() {
            *current = list;
        }
        Ok(names)
    }
}

/// Why a text is not a [`LanguageTag`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a language tag such as en or fr-CA.")]
pub struct NotALanguageTag(pub String);

/// A BCP 47 language tag in its usual shape: a 2-3 letter language, then subtags of 1-8
/// letters or digits (`en`, `fr-CA`, `zh-Hant-TW`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageTag(String);

impl LanguageTag {
    /// Parses one tag.
    pub fn parse(text: &str) -> Result<LanguageTag, NotALanguageTag> {
        let mut parts = text.split('-');
        let language = parts.next().unwrap_or("");
        let language_ok = (2..=3).contains(&language.len()) && language.chars().all(|c| c.is_ascii_alphabetic());
        let rest_ok = parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()));
        if text.len() > 35 || !language_ok || !rest_ok {
            return Err(NotALanguageTag(text.to_string()));
        }
        Ok(LanguageTag(text.to_string()))
    }

    /// Parses a list: 1 to [`MAX_LANGUAGES`] tags, no duplicates.
    pub fn parse_list(list: &[String]) -> Result<Vec<LanguageTag>, String> {
        if list.is_empty() || list.len() > MAX_LANGUAGES {
            return Err(format!("languages must list 1 to {MAX_LANGUAGES} language tags."));
        }
        let mut tags: Vec<LanguageTag> = Vec::with_capacity(list.len());
        for text in list {
            let tag = LanguageTag::parse(text).map_err(|e| e.to_string())?;
            if tags.iter().any(|t| t.0.eq_ignore_ascii_case(&tag.0)) {
                return Err(format!("'{text}' is listed twice."));
            }
            tags.push(tag);
        }
        Ok(tags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_tags_have_the_usual_shape() {
        for ok in ["en", "fr-CA", "zh-Hant-TW", "es-419"] {
            assert!(LanguageTag::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", "e", "english", "en-", "en_US", "fr-CA-toolongsubtag", "<b>"] {
            assert!(LanguageTag::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            LanguageTag::parse("en_US").map_err(|e| e.to_string()),
            Err("'en_US' is not a language tag such as en or fr-CA.".to_string())
        );
        assert!(LanguageTag::parse_list(&["en".into(), "EN".into()]).is_err());
        assert!(LanguageTag::parse_list(&[]).is_err());
    }
}
