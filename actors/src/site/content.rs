//! Pages, collections and their items, products and variants, navigation.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::blocks::Block;
use crate::accounts::SessionRecord;
use crate::domain::enums::{CollectionViewMode, ItemType, PageType, ProductType, PublicationState};

/// Who may see a page or collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    /// Everyone.
    #[default]
    Public,
    /// Visitors who enter the page password (a lock screen first).
    Password,
    /// Signed-in site members only.
    Members,
}

impl Access {
    /// The `permissionType` number in the page context (1 public, 2 password, 3 members).
    pub fn permission_type(self) -> u8 {
        match self {
            Access::Public => 1,
            Access::Password => 2,
            Access::Members => 3,
        }
    }

    /// The page a visitor gets instead of the content, if any (spec 000 §3 page types):
    /// the lock screen for a password page this request has not `unlocked`, the
    /// member-area-denied page for a signed-in account without member access, the
    /// protected-content page (sign in first) for a visitor without an account. The page
    /// routes show it and the recording rules read it, so both always agree.
    pub fn gate(self, session: Option<&SessionRecord>, unlocked: bool) -> Option<PageType> {
        match (self, session) {
            (Access::Public, _) => None,
            (Access::Password, _) if unlocked => None,
            (Access::Password, _) => Some(PageType::LockScreen),
            (Access::Members, Some(s)) if s.may_see_member_pages() => None,
            (Access::Members, Some(_)) => Some(PageType::MemberAreaAccessDenied),
            (Access::Members, None) => Some(PageType::ProtectedContent),
        }
    }
}

/// A standalone page (`pages/<name>.toml`).
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    /// 24 lowercase alphanumerics; `/pages/<id>` links here.
    pub id: String,
    /// File stem, for messages.
    pub name: String,
    /// Path where the page is served, e.g. `/` or `/about`.
    pub url: String,
    /// Title in the navigation and the document.
    pub title: String,
    /// Meta description.
    pub description: String,
    /// Who may see it.
    pub access: Access,
    /// Argon2id hash (PHC string) of the page password, for `access = "password"`.
    pub password_hash: Option<String>,
    /// Whether the page is the splash (cover) page.
    pub splash: bool,
    /// The blocks, in order.
    pub blocks: Vec<Block>,
}

/// The kind of a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum CollectionKind {
    /// Blog posts.
    Blog,
    /// Events with start and end.
    Events,
    /// A gallery page of images.
    Gallery,
    /// Store products.
    Products,
}

impl CollectionKind {
    /// The collection `type` number in the page context.
    pub fn type_id(self) -> u8 {
        match self {
            CollectionKind::Blog => 1,
            CollectionKind::Events => 10,
            CollectionKind::Gallery => 2,
            CollectionKind::Products => 13,
        }
    }
}

/// A collection (`collections/<name>/collection.toml` and `items/*.toml`).
#[derive(Debug, Clone, Serialize)]
pub struct Collection {
    /// 24 lowercase alphanumerics; `/pages/<id>` links here.
    pub id: String,
    /// Folder name.
    pub name: String,
    /// Path of the list page, e.g. `/blog`.
    pub url: String,
    /// Title.
    pub title: String,
    /// Kind.
    pub kind: CollectionKind,
    /// list, grid or product.
    pub view_mode: CollectionViewMode,
    /// Who may see it.
    pub access: Access,
    /// Text shown above the list.
    pub description: String,
    /// Items, newest first for blogs and events by start.
    pub items: Vec<Item>,
}

/// One item of a collection.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// 24 lowercase alphanumerics.
    pub id: String,
    /// The url slug under the collection, e.g. `first-post`.
    pub url_id: String,
    /// Title.
    pub title: String,
    /// Record type (text for blog posts, event, image, store item...).
    pub record_type: ItemType,
    /// Publication state; only published items are served.
    pub state: PublicationState,
    /// Publication date, `YYYY-MM-DD`.
    pub published_on: String,
    /// Author name.
    pub author: String,
    /// Short text for lists and summaries.
    pub excerpt: String,
    /// The item's rich text (sanitised).
    pub body_html: String,
    /// Main image under `images/`.
    pub image: Option<String>,
    /// The main image's width and height in pixels, read from the file when the site
    /// loads, so pages reserve its space before it arrives.
    #[serde(skip)]
    pub image_size: Option<(u32, u32)>,
    /// Tags (each at most 50 characters).
    pub tags: Vec<String>,
    /// Categories (each at most 25 characters).
    pub categories: Vec<String>,
    /// Event details, for events.
    pub event: Option<EventDetails>,
    /// Product details, for products.
    pub product: Option<Product>,
    /// Blocks below the body.
    pub blocks: Vec<Block>,
}

/// When and where an event happens.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventDetails {
    /// Start, `YYYY-MM-DDTHH:MM`.
    pub start: String,
    /// End, `YYYY-MM-DDTHH:MM`.
    pub end: String,
    /// Venue and address.
    #[serde(default)]
    pub location: String,
}

/// A product (spec 000 §3 "Product").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Product {
    /// physical, digital, service, gift-card (paywall recognised).
    #[ts(type = "ProductType")]
    pub product_type: ProductType,
    /// Variants (at least one).
    pub variants: Vec<Variant>,
    /// Subscription plan, for subscription products.
    #[serde(default)]
    #[ts(optional)]
    pub subscription: Option<SubscriptionPlan>,
    /// Weight of one unit, in the site's weight unit.
    #[serde(default)]
    #[ts(optional)]
    pub weight: Option<f64>,
    /// Size of one unit, in the site's dimension unit.
    #[serde(default)]
    #[ts(optional)]
    pub dimensions: Option<Dimensions>,
}

/// A product's size (spec 000 §9: inches if imperial, else cm).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dimensions {
    /// Length.
    pub length: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// One variant of a product.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Variant {
    /// Stock-keeping unit, at most 60 characters; generated (`SQ` + 7 digits) when empty.
    #[serde(default)]
    pub sku: String,
    /// Price in cents (at most 100000000).
    pub price: u64,
    /// Sale price in cents.
    #[serde(default)]
    pub sale_price: u64,
    /// Whether the sale price applies.
    #[serde(default)]
    pub on_sale: bool,
    /// Units in stock, when not unlimited.
    #[serde(default)]
    pub qty_in_stock: u32,
    /// Unlimited stock.
    #[serde(default)]
    pub unlimited: bool,
    /// Option values, e.g. size and colour.
    #[serde(default)]
    pub option_values: Vec<OptionValue>,
}

/// One option value of a variant.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OptionValue {
    /// Option name, e.g. Size.
    pub option_name: String,
    /// The value, e.g. Large.
    pub value: String,
}

/// A subscription plan.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscriptionPlan {
    /// Billing period.
    pub billing_period: BillingPeriod,
    /// Number of billing cycles; 0 means indefinite.
    #[serde(default)]
    pub num_billing_cycles: u32,
}

/// A billing period: a value and a unit.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BillingPeriod {
    /// How many units.
    pub value: u32,
    /// weekly, monthly or yearly.
    pub unit: String,
}

/// Site navigation (`navigation.toml`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Navigation {
    /// Links in the header.
    #[serde(default)]
    pub main: Vec<NavLink>,
    /// Links in the footer.
    #[serde(default)]
    pub footer: Vec<NavLink>,
}

/// One navigation link.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NavLink {
    /// Link text.
    pub title: String,
    /// Same-site path or absolute URL.
    pub url: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::enums::ContributorRole;

    fn session(member: bool, roles: &[ContributorRole]) -> SessionRecord {
        SessionRecord { account_id: "a".into(), owner: false, roles: roles.to_vec(), member, expires_at: i64::MAX }
    }

    #[test]
    fn a_password_page_is_open_once_unlocked() {
        assert_eq!(Access::Password.gate(None, false), Some(PageType::LockScreen));
        assert_eq!(Access::Password.gate(None, true), None);
        assert_eq!(Access::Public.gate(None, false), None);
    }

    #[test]
    fn member_pages_ask_visitors_to_sign_in_and_deny_accounts_without_access() {
        assert_eq!(Access::Members.gate(None, false), Some(PageType::ProtectedContent));
        assert_eq!(Access::Members.gate(Some(&session(false, &[])), false), Some(PageType::MemberAreaAccessDenied));
        assert_eq!(Access::Members.gate(Some(&session(true, &[])), false), None);
        assert_eq!(Access::Members.gate(Some(&session(false, &[ContributorRole::Viewer])), false), None);
    }
}
