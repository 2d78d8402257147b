//! Checkout: reserve stock, take payment, store the order, mark the cart purchased.
//! Runs inside the cart's actor (one checkout per cart at a time).
//!
//! - [`place`] (storage of this instance alone): stock is taken through the
//!   [`Inventory`](crate::commerce::inventory::Inventory) actor, which never oversells; the order
//!   and the purchased cart are written in one atomic, durable step.
//! - [`place_shared`] (storage shared by several instances, Redis): the payment is
//!   taken first, then stock, order and purchased cart are committed in one atomic,
//!   idempotent step ([`CommerceStorage::commit_checkout`]). A commit whose answer is
//!   lost is sent again for the same order, which the storage recognises, so one
//!   checkout never makes two orders and an order never leaves its cart open. When the
//!   commit is refused (stock gone, the cart changed or was purchased meanwhile) the
//!   payment is voided.
//!
//! [`CommerceStorage::commit_checkout`]: crate::commerce::storage::CommerceStorage::commit_checkout

use std::collections::BTreeMap;
use std::time::Duration;

use rand::RngCore;

use super::CartShared;
use crate::commerce::cart::change::{apply, reprice, CartChange};
use crate::commerce::cart::{CartEntry, CartError, ShoppingCart};
use crate::commerce::inventory::{NoteLevels, ReleaseStock, ReserveStock};
use crate::commerce::order::{Charge, Customer, Order, OrderKind, OrderStatus};
use crate::commerce::storage::{CheckoutCommit, CommitOutcome};
use crate::store::StoreError;

/// How often a checkout commit whose outcome is unknown (the storage did not answer)
/// is sent again before the checkout gives up with "unavailable".
pub const COMMIT_ATTEMPTS: u32 = 4;

/// A new order id: 24 lowercase hex digits.
pub fn new_order_id() -> String {
    let mut bytes = [0u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Refuses a cart that cannot be checked out (purchased already, or empty).
fn check_out_able(cart: &ShoppingCart) -> Result<(), CartError> {
    if cart.is_purchased {
        return Err(CartError::Purchased);
    }
    if cart.entries.is_empty() {
        return Err(CartError::Empty);
    }
    Ok(())
}

/// A new order of `cart` and the charge that pays it. Paid later, it is unpaid and
/// holds its counted stock for [`CartShared::hold`]; else it is paid.
fn order_and_charge(shared: &CartShared, cart: &ShoppingCart, customer: Customer, kind: OrderKind) -> (Order, Charge) {
    let mut order = Order::from_cart(new_order_id(), kind, cart, customer, crate::commerce::now_ms());
    if !shared.payments.pays_later() {
        order.status = OrderStatus::Paid;
    } else if !counted_lines(shared, cart).is_empty() {
        let hold = i64::try_from(shared.hold.as_millis()).unwrap_or(i64::MAX);
        order.hold_until = Some(order.created.saturating_add(hold));
    }
    let charge = Charge {
        order_id: order.id.clone(),
        amount_cents: order.grand_total_cents,
        currency: order.currency,
        email: order.customer.email.clone(),
    };
    (order, charge)
}

/// Places the order for `cart` at today's prices; returns it and the purchased cart,
/// both durable.
pub async fn place(
    shared: &CartShared,
    mut cart: ShoppingCart,
    customer: Customer,
    kind: OrderKind,
) -> Result<(Order, ShoppingCart), CartError> {
    check_out_able(&cart)?;
    reprice(&mut cart, &shared.catalog.current(), &shared.rules);
    let lines: Vec<(String, u32)> = cart.entries.iter().map(|e| (e.sku.clone(), e.quantity)).collect();
    let reserve = ReserveStock { lines: lines.clone() };
    shared.inventory.send(reserve).await.map_err(|_| CartError::Unavailable)??;

    let (mut order, charge) = order_and_charge(shared, &cart, customer, kind);
    let mut purchased = cart;
    let stored = match shared.payments.charge(&charge) {
        Ok(reference) => {
            order.payment_reference = reference;
            let purchased_change = CartChange::MarkPurchased { order_id: order.id.clone() };
            match apply(&mut purchased, purchased_change, &shared.catalog.current(), &shared.rules) {
                // The order and its purchased cart in one step: never an order whose cart
                // is still open after a crash.
                Ok(()) => shared.storage.save_purchase(&order, &purchased).await.map_err(CartError::from),
                Err(e) => Err(e),
            }
            .inspect_err(|_| shared.payments.void(&charge, &order.payment_reference))
        }
        Err(why) => Err(CartError::PaymentDeclined(why)),
    };
    if let Err(e) = stored {
        if let Ok(Err(release)) = shared.inventory.send(ReleaseStock { lines }).await {
            tracing::error!(error = %release, "stock of a failed checkout could not be given back");
        }
        return Err(e);
    }
    Ok((order, purchased))
}

/// The units `cart` takes of each counted SKU, one line per SKU, in SKU order.
fn counted_lines(shared: &CartShared, cart: &ShoppingCart) -> Vec<(String, u32)> {
    let mut lines: BTreeMap<&str, u32> = BTreeMap::new();
    let catalog = shared.catalog.current();
    for entry in &cart.entries {
        if catalog.get(&entry.sku).is_some_and(|v| v.stock.is_some()) {
            let units = lines.entry(&entry.sku).or_default();
            *units = units.saturating_add(entry.quantity);
        }
    }
    lines.into_iter().map(|(sku, units)| (sku.to_string(), units)).collect()
}

/// Places the order for `cart` at today's prices, stored at `version` in storage
/// several instances share; returns it and the purchased cart, both committed in one
/// step. The caller holds the cart's checkout claim.
pub async fn place_shared(
    shared: &CartShared,
    mut cart: ShoppingCart,
    version: u64,
    customer: Customer,
    kind: OrderKind,
) -> Result<(Order, ShoppingCart), CartError> {
    check_out_able(&cart)?;
    reprice(&mut cart, &shared.catalog.current(), &shared.rules);
    let (mut order, charge) = order_and_charge(shared, &cart, customer, kind);
    order.payment_reference = shared.payments.charge(&charge).map_err(CartError::PaymentDeclined)?;
    let mut purchased = cart.clone();
    apply(
        &mut purchased,
        CartChange::MarkPurchased { order_id: order.id.clone() },
        &shared.catalog.current(),
        &shared.rules,
    )?;
    let commit = CheckoutCommit { order, cart: purchased, expected: version, lines: counted_lines(shared, &cart) };
    let outcome = commit_with_retries(shared, &commit).await?;
    let refused = match outcome {
        CommitOutcome::Committed(levels) => {
            shared.inventory.do_send(NoteLevels(levels));
            None
        }
        CommitOutcome::AlreadyCommitted => None,
        CommitOutcome::Purchased(_) => Some(CartError::Purchased),
        CommitOutcome::Stale => Some(CartError::Conflict),
        CommitOutcome::Short { sku, available } => {
            shared.inventory.do_send(NoteLevels(vec![(sku.clone(), available)]));
            let title = shared.catalog.current().get(&sku).map(|v| v.title.clone()).unwrap_or(sku);
            Some(CartError::OutOfStock { title, available })
        }
    };
    if let Some(refused) = refused {
        shared.payments.void(&charge, &commit.order.payment_reference);
        return Err(refused);
    }
    Ok((commit.order, commit.cart))
}

/// Sends `commit` until the storage answers, at most [`COMMIT_ATTEMPTS`] times. When
/// it never answers, whether the order was stored is unknown: the payment is left as
/// it is (the cart, read again, tells: purchased by this order, or still open).
async fn commit_with_retries(shared: &CartShared, commit: &CheckoutCommit) -> Result<CommitOutcome, CartError> {
    let mut attempt = 1;
    loop {
        let Some(committing) = shared.storage.commit_checkout(commit) else {
            return Err(CartError::Store("this storage does not commit checkouts".into()));
        };
        match committing.await {
            Ok(outcome) => return Ok(outcome),
            Err(StoreError::Unavailable(why)) if attempt < COMMIT_ATTEMPTS => {
                tracing::warn!(error = %why, order = %commit.order.id, attempt, "a checkout commit went unanswered; sending it again");
                tokio::time::sleep(Duration::from_millis(100 * u64::from(attempt))).await;
                attempt += 1;
            }
            Err(e) => {
                tracing::error!(error = %e, order = %commit.order.id, cart = %commit.cart.id, "a checkout commit failed; the order may or may not be placed");
                return Err(e.into());
            }
        }
    }
}

/// Takes a donation of `amount_cents` to donation page `donate_page_id`; returns the
/// stored contribution order.
pub async fn donate(
    shared: &CartShared,
    donate_page_id: &str,
    amount_cents: u64,
    customer: Customer,
) -> Result<Order, CartError> {
    let entry = CartEntry {
        sku: "DONATION".into(),
        item_id: donate_page_id.to_string(),
        title: "Donation".into(),
        options: Vec::new(),
        product_type: "donation".into(),
        quantity: 1,
        unit_price_cents: amount_cents,
        total_cents: amount_cents,
        subscription: false,
        plan_terms: None,
    };
    place_direct(shared, OrderKind::Contribution, entry, customer).await
}

/// Buys a membership (see [`crate::commerce::membership`]): a subscription order of its one
/// `entry`, nothing shipped, no tax; returns the stored order.
pub async fn join(shared: &CartShared, entry: CartEntry, customer: Customer) -> Result<Order, CartError> {
    place_direct(shared, OrderKind::Subscription, entry, customer).await
}

/// Charges and stores an order of `kind` holding `entry` alone, bought without a cart.
async fn place_direct(
    shared: &CartShared,
    kind: OrderKind,
    entry: CartEntry,
    customer: Customer,
) -> Result<Order, CartError> {
    let amount_cents = entry.total_cents;
    let mut order = Order {
        id: new_order_id(),
        kind,
        cart_id: String::new(),
        created: crate::commerce::now_ms(),
        customer,
        entries: vec![entry],
        subtotal_cents: amount_cents,
        discount_cents: 0,
        shipping_cost_cents: 0,
        tax_cents: 0,
        grand_total_cents: amount_cents,
        currency: shared.currency,
        payment_reference: String::new(),
        secret: crate::commerce::order::new_secret(),
        status: if shared.payments.pays_later() { OrderStatus::Unpaid } else { OrderStatus::Paid },
        hold_until: None,
    };
    let charge = Charge {
        order_id: order.id.clone(),
        amount_cents,
        currency: order.currency,
        email: order.customer.email.clone(),
    };
    order.payment_reference = shared.payments.charge(&charge).map_err(CartError::PaymentDeclined)?;
    shared.storage.save_order(&order).await?;
    Ok(order)
}
