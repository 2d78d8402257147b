//! The announcement bar above the header, and the visitor's choice to close it.
//!
//! A closed bar must never paint again, not even for a moment before the page's script
//! runs, so the choice travels with the request: closing the bar sets the cookie
//! [`ANNOUNCEMENT_COOKIE`] (`Path=/; SameSite=Lax`, one year, written by the browser, so
//! not `HttpOnly`) to the bar's [`AnnouncementId`], which the server renders in
//! `data-announcement-id` and the widget copies. The server leaves the bar out of the page
//! when the cookie names the current announcement; a new text has a new id, so it shows
//! again. A missing or malformed cookie shows the bar.
//!
//! The cookie records a preference the visitor chose, holds nothing that identifies them,
//! and is not sent anywhere else: it is strictly functional, so it is set and honoured
//! whatever the cookie-consent answer (it is not one of the analytics cookies a restrictive
//! policy clears).
//!
//! Published pages are never cached on the server; their responses are `private,
//! no-cache` with `Vary: Cookie` and an ETag of the body (`routes::html`), so a browser's
//! revalidation sees the bar appear or go as soon as the cookie or the text changes.

use maud::{html, Markup};
use sha2::{Digest, Sha256};
use veranda_actors::domain::islands::IslandKind;
use veranda_actors::site::settings::AnnouncementBarSettings;

use super::util::safe_href;

/// The cookie holding the id of the announcement the visitor closed.
pub const ANNOUNCEMENT_COOKIE: &str = "ss_announcementBarDismissed";

/// How many hex digits an announcement id has (the first 8 bytes of a SHA-256).
const ID_LEN: usize = 16;

/// Which announcement a bar shows: the first 16 lowercase hex digits of the SHA-256 of
/// its trimmed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnouncementId(String);

impl AnnouncementId {
    /// The id of the announcement `text`.
    pub fn of(text: &str) -> AnnouncementId {
        let digest = Sha256::digest(text.trim().as_bytes());
        AnnouncementId(digest.iter().take(ID_LEN / 2).map(|b| format!("{b:02x}")).collect())
    }

    /// Reads a cookie value: exactly 16 lowercase hex digits, otherwise `None`.
    pub fn parse(value: &str) -> Option<AnnouncementId> {
        let ok = value.len() == ID_LEN && value.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        ok.then(|| AnnouncementId(value.to_string()))
    }

    /// The id as written in the cookie and in `data-announcement-id`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The bar, unless it is off, empty, or the announcement the visitor closed (`dismissed`).
/// Its close button stays hidden until the `announcement-bar` widget takes the bar over.
pub fn announcement_bar(bar: &AnnouncementBarSettings, dismissed: Option<&AnnouncementId>) -> Markup {
    let id = AnnouncementId::of(&bar.text);
    let show = bar.enabled && !bar.text.trim().is_empty() && dismissed != Some(&id);
    html! {
        @if show {
            aside class="announcement-bar" aria-label="Announcement" data-island=(IslandKind::AnnouncementBar.name())
                data-announcement-id=(id.as_str()) {
                p {
                    @match bar.url.as_deref().and_then(safe_href) {
                        Some(href) => a href=(href) { (bar.text) },
                        None => (bar.text),
                    }
                }
                button type="button" class="announcement-bar-close" aria-label="Close announcement" hidden { "×" }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use veranda_actors::site::settings::AnnouncementBarSettings;

    use super::{announcement_bar, AnnouncementId};

    fn bar(text: &str) -> AnnouncementBarSettings {
        serde_json::from_value(serde_json::json!({ "enabled": true, "text": text, "url": "/hours" }))
            .expect("announcement bar settings parse")
    }

    #[test]
    fn the_announcement_bar_has_a_close_button_hidden_until_its_widget_starts() {
        let html = announcement_bar(&bar("Open late"), None).into_string();
        assert!(html.contains("data-island=\"announcement-bar\""));
        assert!(html.contains("<a href=\"/hours\">Open late</a>"));
        assert!(html.contains("aria-label=\"Close announcement\" hidden"));
        let id = AnnouncementId::of("Open late");
        assert!(html.contains(&format!("data-announcement-id=\"{}\"", id.as_str())));
    }

    #[test]
    fn announcement_ids_are_16_hex_digits_of_the_trimmed_text() {
        let id = AnnouncementId::of("Open late");
        assert_eq!(id.as_str().len(), 16);
        assert!(id.as_str().bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_eq!(AnnouncementId::of("  Open late\n"), id);
        assert_ne!(AnnouncementId::of("Open later"), id);
        // SHA-256("abc") starts ba7816bf8f01cfea.
        assert_eq!(AnnouncementId::of("abc").as_str(), "ba7816bf8f01cfea");
    }

    #[test]
    fn only_16_lowercase_hex_digits_parse_as_a_dismissal() {
        assert_eq!(AnnouncementId::parse("ba7816bf8f01cfea"), Some(AnnouncementId::of("abc")));
        for bad in [
            "",
            "ba7816bf8f01cfe",
            "ba7816bf8f01cfea0",
            "BA7816BF8F01CFEA",
            "ba7816bf8f01cfeg",
            "Open late",
            "ba7816bf 8f01cfe",
        ] {
            assert_eq!(AnnouncementId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_closed_announcement_is_left_out_and_a_new_one_shows() {
        let old = bar("Open late");
        let closed = AnnouncementId::of("Open late");
        assert_eq!(announcement_bar(&old, Some(&closed)).into_string(), "", "the closed announcement is not rendered");
        let new = bar("Closed Monday");
        assert!(
            announcement_bar(&new, Some(&closed)).into_string().contains("Closed Monday"),
            "a new text shows again"
        );
        let other = AnnouncementId::parse("0000000000000000").expect("well-formed");
        assert!(announcement_bar(&old, Some(&other)).into_string().contains("Open late"), "another id shows the bar");
    }

    #[test]
    fn a_bar_that_is_off_or_empty_is_not_rendered() {
        let off = AnnouncementBarSettings { enabled: false, ..bar("Open late") };
        assert_eq!(announcement_bar(&off, None).into_string(), "");
        assert_eq!(announcement_bar(&bar("  "), None).into_string(), "");
    }
}
