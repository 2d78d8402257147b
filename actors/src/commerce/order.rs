//! Orders and how they are paid: the [`PaymentProvider`] trait and the built-in
//! [`OfflineProvider`] (no network: the order is paid on collection or by invoice).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::cart::{CartEntry, ShoppingCart};
use super::money::Currency;

/// What was bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum OrderKind {
    /// Products from a cart.
    Order,
    /// A subscription product.
    Subscription,
    /// A donation.
    Contribution,
}

/// Where an order's payment stands. An order paid later (offline: on collection or by
/// invoice) is placed [`Unpaid`](OrderStatus::Unpaid), its stock held until its
/// `holdUntil`; the owner marks it paid (the hold becomes a sale) or cancelled (the
/// stock returns), and a hold nobody settled in time expires (the stock returns).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum OrderStatus {
    /// Placed, not paid yet (also every order stored before orders had a status).
    #[default]
    Unpaid,
    /// Paid: its stock is sold.
    Paid,
    /// Cancelled by the owner: its stock was returned.
    Cancelled,
    /// Its hold lapsed unpaid: its stock was returned.
    Expired,
}

impl OrderStatus {
    /// The status as the API spells it.
    pub const fn label(self) -> &'static str {
        match self {
            OrderStatus::Unpaid => "unpaid",
            OrderStatus::Paid => "paid",
            OrderStatus::Cancelled => "cancelled",
            OrderStatus::Expired => "expired",
        }
    }
}

/// The buyer's details from the checkout form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    /// Where the receipt goes.
    pub email: String,
    /// Full name.
    pub name: String,
    /// Street address, empty when nothing ships.
    pub address_line1: String,
    /// Second address line.
    pub address_line2: String,
    /// City.
    pub city: String,
    /// Region or state.
    pub region: String,
    /// Postal code.
    pub postal_code: String,
    /// ISO country code.
    pub country: String,
}

/// A placed order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    /// Order id.
    pub id: String,
    /// Order, subscription or contribution.
    pub kind: OrderKind,
    /// The cart it came from (empty for donations).
    pub cart_id: String,
    /// When it was placed (unix ms).
    pub created: i64,
    /// The buyer.
    pub customer: Customer,
    /// What was bought.
    pub entries: Vec<CartEntry>,
    /// Subtotal, in minor units.
    pub subtotal_cents: u64,
    /// Discount.
    pub discount_cents: u64,
    /// Shipping.
    pub shipping_cost_cents: u64,
    /// Tax.
    pub tax_cents: u64,
    /// What was charged.
    pub grand_total_cents: u64,
    /// The currency charged.
    pub currency: Currency,
    /// The payment provider's reference.
    pub payment_reference: String,
    /// The buyer's key to the order's page: handed to the buyer's browser at checkout
    /// and never shown elsewhere. Orders stored without one open to nobody.
    #[serde(default)]
    pub secret: String,
    /// Where its payment stands.
    #[serde(default)]
    pub status: OrderStatus,
    /// Until when (unix ms) an unpaid order holds its stock; `None` when it holds none
    /// (paid at checkout, nothing counted in it, or stored before holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_until: Option<i64>,
}

impl Order {
    /// An order for the contents and totals of `cart`.
    pub fn from_cart(id: String, kind: OrderKind, cart: &ShoppingCart, customer: Customer, created: i64) -> Order {
        Order {
            id,
            kind,
            cart_id: cart.id.clone(),
            created,
            customer,
            entries: cart.entries.clone(),
            subtotal_cents: cart.subtotal_cents,
            discount_cents: cart.discount_cents,
            shipping_cost_cents: cart.shipping_cost_cents,
            tax_cents: cart.tax_cents,
            grand_total_cents: cart.grand_total_cents,
            currency: cart.subtotal_amount.currency(),
            payment_reference: String::new(),
            secret: new_secret(),
            status: OrderStatus::Unpaid,
            hold_until: None,
        }
    }

    /// Whether `key` is this order's secret (compared in constant time).
    pub fn opens_with(&self, key: &str) -> bool {
        let (secret, key) = (self.secret.as_bytes(), key.as_bytes());
        // Every byte is compared, whatever the first difference: the time says nothing of it.
        let differ = secret.iter().zip(key).fold(0u8, |acc, (a, b)| acc | (a ^ b));
        !secret.is_empty() && secret.len() == key.len() && differ == 0
    }
}

/// A new order secret: 32 lowercase hex digits (128 random bits).
pub fn new_secret() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A request to take a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    /// The order being paid.
    pub order_id: String,
    /// Amount in minor units.
    pub amount_cents: u64,
    /// Currency.
    pub currency: Currency,
    /// The payer's email.
    pub email: String,
}

/// Takes payments.
pub trait PaymentProvider: Send + Sync + 'static {
    /// Takes `charge`; returns the provider's reference, or why it was declined.
    fn charge(&self, charge: &Charge) -> Result<String, String>;

    /// Cancels the charge with `reference`, taken for an order that then could not be
    /// placed (its stock had gone, or another checkout of the cart won).
    fn void(&self, charge: &Charge, reference: &str);

    /// Whether the money comes later than the order (on collection, by invoice): the
    /// order is then placed unpaid and holds its stock until the owner settles it.
    fn pays_later(&self) -> bool {
        false
    }
}

/// Records the order as owed, to be paid on collection or by invoice; makes no
/// network calls and declines nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct OfflineProvider;

impl PaymentProvider for OfflineProvider {
    fn charge(&self, charge: &Charge) -> Result<String, String> {
        Ok(format!("offline-{}", charge.order_id))
    }

    /// Nothing was taken, so nothing is owed once the order is not placed.
    fn void(&self, _charge: &Charge, _reference: &str) {}

    fn pays_later(&self) -> bool {
        true
    }
}
