//! Checkout: reserve stock, take payment, store the order, mark the cart purchased.
//! Runs inside the cart's actor (one checkout per cart at a time); stock is taken
//! through the [`Inventory`](super::inventory::Inventory) actor, which never oversells.

use rand::RngCore;

use super::cart::change::{apply, CartChange};
use super::cart::{CartError, CartShared, ShoppingCart};
use super::inventory::{ReleaseStock, ReserveStock};
use super::order::{Charge, Customer, Order, OrderKind};

/// A new order id: 24 lowercase hex digits.
pub fn new_order_id() -> String {
    let mut bytes = [0u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Places the order for `cart`; returns it and the purchased cart, both durable.
pub async fn place(
    shared: &CartShared,
    cart: ShoppingCart,
    customer: Customer,
    kind: OrderKind,
) -> Result<(Order, ShoppingCart), CartError> {
    if cart.is_purchased {
        return Err(CartError::Purchased);
    }
    if cart.entries.is_empty() {
        return Err(CartError::Empty);
    }
    let lines: Vec<(String, u32)> = cart.entries.iter().map(|e| (e.sku.clone(), e.quantity)).collect();
    let reserve = ReserveStock { lines: lines.clone() };
    shared.inventory.send(reserve).await.map_err(|_| CartError::Unavailable)??;

    let mut order = Order::from_cart(new_order_id(), kind, &cart, customer, super::now_ms());
    let charge = Charge {
        order_id: order.id.clone(),
        amount_cents: order.grand_total_cents,
        currency: order.currency,
        email: order.customer.email.clone(),
    };
    let stored = match shared.payments.charge(&charge) {
        Ok(reference) => {
            order.payment_reference = reference;
            shared.storage.save_order(&order).await.map_err(CartError::from)
        }
        Err(why) => Err(CartError::PaymentDeclined(why)),
    };
    if let Err(e) = stored {
        if let Ok(Err(release)) = shared.inventory.send(ReleaseStock { lines }).await {
            tracing::error!(error = %release, "stock of a failed checkout could not be given back");
        }
        return Err(e);
    }

    let purchased_change = CartChange::MarkPurchased { order_id: order.id.clone() };
    if shared.storage.is_shared() {
        // A versioned write, so a change another instance made meanwhile is kept.
        return match super::cart::actor::change_shared(shared, &cart.id, purchased_change).await {
            Ok(purchased) => Ok((order, purchased)),
            Err(e) => {
                tracing::error!(error = %e, order = %order.id, "a purchased cart could not be saved");
                let mut purchased = cart;
                purchased.is_purchased = true;
                purchased.order_id = order.id.clone();
                Ok((order, purchased))
            }
        };
    }
    let mut purchased = cart;
    apply(&mut purchased, purchased_change, &shared.catalog, &shared.rules)?;
    if let Err(e) = shared.storage.save_cart(&purchased).await {
        // The order stands; the cart is marked purchased in memory and the next change
        // writes it again.
        tracing::error!(error = %e, order = %order.id, "a purchased cart could not be saved");
    }
    Ok((order, purchased))
}

/// Takes a donation of `amount_cents` to donation page `donate_page_id`; returns the
/// stored contribution order.
pub async fn donate(
    shared: &CartShared,
    donate_page_id: &str,
    amount_cents: u64,
    customer: Customer,
) -> Result<Order, CartError> {
    let entry = super::cart::CartEntry {
        sku: "DONATION".into(),
        item_id: donate_page_id.to_string(),
        title: "Donation".into(),
        options: Vec::new(),
        product_type: "donation".into(),
        quantity: 1,
        unit_price_cents: amount_cents,
        total_cents: amount_cents,
        subscription: false,
    };
    let mut order = Order {
        id: new_order_id(),
        kind: OrderKind::Contribution,
        cart_id: String::new(),
        created: super::now_ms(),
        customer,
        entries: vec![entry],
        subtotal_cents: amount_cents,
        discount_cents: 0,
        shipping_cost_cents: 0,
        tax_cents: 0,
        grand_total_cents: amount_cents,
        currency: shared.currency,
        payment_reference: String::new(),
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
