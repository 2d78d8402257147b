//! The islands: the kinds of element the loader hydrates with a lazy chunk.
//!
//! The server writes a kind's [`IslandKind::name`] into `data-island`; the client's chunk
//! table (`client/src/loader/island-chunks.ts`) is typed against the generated `IslandKind`,
//! so a kind without a chunk fails the client's type check, and the loader's list of kinds
//! is the generated `ISLAND_KINDS`. Each island lives in `client/src/islands/<name>/`.
//!
//! Block kinds whose server HTML is complete are not islands and are never marked:
//! text, image and audio; embed (an iframe or the site's own code); donation button (a link
//! to the donation checkout); calendar and tour dates (lists of dates and links); chart (a
//! table); search (a form that submits to `/search`); product (its add-to-cart form is the
//! [`IslandKind::AddToCart`] island).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Every kind of island, as written in `data-island`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum IslandKind {
    /// The menu-tabs block: one tab per menu.
    MenuTabs,
    /// The form block: validation, captcha and submission.
    Form,
    /// The newsletter block: its sign-up form.
    Newsletter,
    /// The accordion block: open and close with the keyboard and the pointer.
    Accordion,
    /// The marquee block: the scrolling text.
    Marquee,
    /// The gallery block: slideshows, thumbnails, deep links and the lightbox.
    Gallery,
    /// The button block: its click tracking and animation.
    Button,
    /// The site's announcement bar (page level): its dismissal.
    AnnouncementBar,
    /// The member-area block: the pricing toggle between billing periods.
    MemberArea,
    /// The scaled-text block: fits the text to its box.
    ScaledText,
    /// The restaurant-booking block: the provider's booking widget.
    RestaurantBooking,
    /// The social-sharing block: the networks' follow buttons.
    SocialSharing,
    /// A product's add-to-cart form (in the product block and on the item page).
    AddToCart,
    /// The header's cart badge (page level): the cart's item count.
    CartBadge,
    /// The cart block (and the cart page): the visitor's cart, kept in step.
    Cart,
    /// The video block: the player, its embed rules and the lightbox.
    Video,
    /// A product card of a listing with a quick view (page level).
    QuickView,
    /// The map block: Leaflet or Google Maps over the server's address and link.
    Map,
    /// The summary block: renders again through the server when its data changes.
    Summary,
    /// The search block: its collection and the preview of results while typing.
    Search,
}

impl IslandKind {
    /// Every kind, in declaration order (the order of the loader's list).
    pub const ALL: [IslandKind; 20] = [
        IslandKind::MenuTabs,
        IslandKind::Form,
        IslandKind::Newsletter,
        IslandKind::Accordion,
        IslandKind::Marquee,
        IslandKind::Gallery,
        IslandKind::Button,
        IslandKind::AnnouncementBar,
        IslandKind::MemberArea,
        IslandKind::ScaledText,
        IslandKind::RestaurantBooking,
        IslandKind::SocialSharing,
        IslandKind::AddToCart,
        IslandKind::CartBadge,
        IslandKind::Cart,
        IslandKind::Video,
        IslandKind::QuickView,
        IslandKind::Map,
        IslandKind::Summary,
        IslandKind::Search,
    ];

    /// The kebab-case name written in `data-island` (the serde name, and the island's folder).
    pub fn name(self) -> &'static str {
        match self {
            IslandKind::MenuTabs => "menu-tabs",
            IslandKind::Form => "form",
            IslandKind::Newsletter => "newsletter",
            IslandKind::Accordion => "accordion",
            IslandKind::Marquee => "marquee",
            IslandKind::Gallery => "gallery",
            IslandKind::Button => "button",
            IslandKind::AnnouncementBar => "announcement-bar",
            IslandKind::MemberArea => "member-area",
            IslandKind::ScaledText => "scaled-text",
            IslandKind::RestaurantBooking => "restaurant-booking",
            IslandKind::SocialSharing => "social-sharing",
            IslandKind::AddToCart => "add-to-cart",
            IslandKind::CartBadge => "cart-badge",
            IslandKind::Cart => "cart",
            IslandKind::Video => "video",
            IslandKind::QuickView => "quick-view",
            IslandKind::Map => "map",
            IslandKind::Summary => "summary",
            IslandKind::Search => "search",
        }
    }

    /// The TypeScript list of every kind's name (`ISLAND_KINDS`), which the loader reads.
    pub fn ts_list() -> String {
        let names: Vec<String> = Self::ALL.iter().map(|k| format!("\"{}\"", k.name())).collect();
        format!("export const ISLAND_KINDS: readonly IslandKind[] = [{}];\n", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::IslandKind;

    #[test]
    fn every_kind_is_listed_once_and_its_name_is_its_serde_name() {
        let mut names: Vec<&str> = IslandKind::ALL.iter().map(|k| k.name()).collect();
        for kind in IslandKind::ALL {
            assert_eq!(serde_json::to_value(kind).ok(), Some(serde_json::Value::from(kind.name())));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), IslandKind::ALL.len());
    }

    #[test]
    fn the_page_level_kinds_have_the_names_the_loader_looks_for() {
        let names: Vec<&str> = IslandKind::ALL.iter().map(|k| k.name()).collect();
        for name in ["announcement-bar", "cart-badge", "quick-view", "add-to-cart"] {
            assert!(names.contains(&name), "{name}");
        }
    }
}
