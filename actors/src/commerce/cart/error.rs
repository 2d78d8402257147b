//! Why a cart change was refused. Each message is shown to the buyer as it stands.

use crate::store::StoreError;

/// A refused cart change or checkout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CartError {
    /// No variant has the SKU (or the product has several variants and none was named).
    #[error("There is no product variant '{0}' in this store.")]
    UnknownVariant(String),
    /// The product is not for sale (draft, scheduled, paywall).
    #[error("'{0}' is not for sale.")]
    NotForSale(String),
    /// A quantity below 1 or above the limit.
    #[error("Quantities must be whole numbers from 1 to {max}.")]
    BadQuantity {
        /// The largest quantity allowed.
        max: u32,
    },
    /// The cart is full.
    #[error("A cart holds at most {0} different products.")]
    TooManyEntries(usize),
    /// No entry for the SKU.
    #[error("'{0}' is not in the cart.")]
    NotInCart(String),
    /// A coupon code that is empty or too long.
    #[error("Coupon codes are 1 to {0} characters.")]
    BadCoupon(usize),
    /// Too many coupons entered.
    #[error("A cart keeps at most {0} coupons.")]
    TooManyCoupons(usize),
    /// No shipping option has the id.
    #[error("There is no shipping option '{0}'.")]
    UnknownShippingOption(String),
    /// The location has an over-long field.
    #[error("The shipping location is not valid: {0}")]
    BadLocation(String),
    /// The cart was checked out already.
    #[error("This cart has already been checked out.")]
    Purchased,
    /// The cart is empty at checkout.
    #[error("Your cart is empty.")]
    Empty,
    /// Not enough stock at checkout.
    #[error("Sorry, only {available} of '{title}' left in stock.")]
    OutOfStock {
        /// The product's title.
        title: String,
        /// Units left.
        available: u32,
    },
    /// The payment provider declined the payment.
    #[error("The payment was declined: {0}")]
    PaymentDeclined(String),
    /// The store failed; nothing was changed.
    #[error("The cart could not be saved; please try again.")]
    Store(String),
    /// The cart's actor is gone or overloaded.
    #[error("The cart is busy; please try again.")]
    Unavailable,
    /// Other server instances kept changing the cart while this change was retried.
    #[error("The cart was changed elsewhere at the same time; please try again.")]
    Conflict,
    /// The shared store (Redis) did not answer; nothing was changed. The inner text is
    /// for the log.
    #[error("The store is unavailable right now; nothing was changed. Please try again shortly.")]
    StoreUnavailable(String),
}

impl From<StoreError> for CartError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(why) => CartError::StoreUnavailable(why),
            e => CartError::Store(e.to_string()),
        }
    }
}
