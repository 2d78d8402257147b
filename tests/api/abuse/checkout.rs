//! Checkout cannot be abused: prices and sellability come from the live site, checkouts
//! are rate-limited per address, and an order is shown only to its buyer.
