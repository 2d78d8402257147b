//! Commerce blocks: product and cart.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::yes;

/// A product with quick view and add to cart.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProductBlock {
    /// The product item, as `collection/item` folder and file names.
    pub product: String,
    /// Offer a quick view.
    #[serde(default = "yes")]
    pub quick_view: bool,
}

/// The cart: a full-page cart where the cart root exists, or a badge.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CartBlock {
    /// full (the cart page) or badge.
    #[serde(default = "default_full")]
    pub variant: String,
}

fn default_full() -> String {
    "full".into()
}
