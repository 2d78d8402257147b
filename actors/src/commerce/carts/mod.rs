//! The [`Cart`] actor, one per cart id, and [`Carts`], which finds or starts it.
//!
//! A cart actor loads its cart from storage when it starts, applies changes one at a
//! time and answers only after the changed cart is durable (a failed write leaves the
//! cart as it was). Checkout runs inside the actor too, so one cart is never checked
//! out twice. An actor idle for [`CartShared::idle`] after its last answer stops; the
//! next call starts a fresh one that rehydrates from storage.
//!
//! When the storage is shared by several instances ([`CommerceStorage::is_shared`]),
//! another instance may change the same cart at any time, so the actor keeps no
//! trusted copy: each change re-reads the cart with its version, applies the change
//! and writes it back only if the version is unchanged. On a conflict the write
//! answers with the cart as it now stands and the change is applied again, up to
//! [`MAX_WRITE_ATTEMPTS`] times with a short random pause between attempts; after that
//! the change is refused with [`CartError::Conflict`] and nothing was written. While
//! an instance checks the cart out (it holds the cart's checkout claim) other changes
//! are refused with [`CartError::Unavailable`], as a single instance's actor would
//! make them wait.
//!
//! At most [`Carts::bounded`] actors run at once (`[commerce] live_carts`): starting one
//! more tells the least recently used to stop. It stops only once the messages already in
//! its mailbox are handled (each answered after its change is durable), and a call for
//! its cart before then takes it back instead of starting a second actor, so no change is
//! lost and no two actors hold one cart.

pub mod checkout;
mod live;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rand::Rng;

use actix::fut::{ActorFutureExt, WrapFuture};
use actix::{Actor, ActorContext, Addr, AsyncContext, AtomicResponse, Context, Handler, MailboxError, Message};

use crate::commerce::cart::change::{apply, describe_plans, CartChange};
use crate::commerce::cart::error::CartError;
use crate::commerce::cart::model::ShoppingCart;
use crate::commerce::catalog::LiveCatalog;
use crate::commerce::inventory::Inventory;
use crate::commerce::money::Currency;
use crate::commerce::order::{Customer, Order, OrderKind, PaymentProvider};
use crate::commerce::rules::StoreRules;
use crate::commerce::storage::{CartWrite, CommerceStorage};
use live::LiveActors;
pub use live::DEFAULT_LIVE_CARTS;

/// How often a change to a shared cart is applied again after conflicting writes.
pub const MAX_WRITE_ATTEMPTS: u32 = 12;

/// What every cart actor shares.
pub struct CartShared {
    /// The site's sellable variants, as the site is now.
    pub catalog: LiveCatalog,
    /// Shipping, tax and coupons.
    pub rules: StoreRules,
    /// Where carts and orders are kept.
    pub storage: Arc<dyn CommerceStorage>,
    /// The stock keeper.
    pub inventory: Addr<Inventory>,
    /// Takes payments.
    pub payments: Arc<dyn PaymentProvider>,
    /// The site's id, copied into carts.
    pub website_id: String,
    /// The store currency.
    pub currency: Currency,
    /// How long a cart actor lives after its last message was answered.
    pub idle: Duration,
    /// How long an order paid later holds its stock.
    pub hold: Duration,
}

/// Live cart actors by cart id, with the generation that tells a restarted actor
/// from the one it replaced.
type Live = Arc<Mutex<LiveActors>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Only inserts and removes run under the lock; a poisoned map is still consistent.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One cart.
pub struct Cart {
    /// The cart id.
    id: String,
    /// The cart, once it exists (stored or changed).
    cart: Option<ShoppingCart>,
    /// Catalog, rules, storage.
    shared: Arc<CartShared>,
    /// When the last message came.
    last_used: Instant,
    /// This actor's generation in `live`.
    generation: u64,
    /// The registry, to leave when stopping.
    live: Live,
}

impl Cart {
    /// The cart as stored, or a new empty one.
    fn current(&self) -> ShoppingCart {
        self.cart.clone().unwrap_or_else(|| empty_cart(&self.shared, &self.id))
    }
}

/// A new cart `id`.
fn empty_cart(shared: &CartShared, id: &str) -> ShoppingCart {
    ShoppingCart::new(id, &shared.website_id, shared.currency, crate::commerce::now_ms())
}

/// Applies `change` to cart `id` in shared storage with versioned writes: reads the
/// cart, applies the change, writes it if nobody wrote in between, else applies it
/// again to the cart as it now stands. Returns the cart as written.
pub async fn change_shared(shared: &CartShared, id: &str, change: CartChange) -> Result<ShoppingCart, CartError> {
    let checkout = matches!(change, CartChange::MarkPurchased { .. });
    let mut stored = shared.storage.load_cart_versioned(id).await?;
    for attempt in 0..MAX_WRITE_ATTEMPTS {
        let (mut next, version) = match stored {
            Some(v) => (v.cart, v.version),
            None => (empty_cart(shared, id), 0),
        };
        apply(&mut next, change.clone(), &shared.catalog.current(), &shared.rules)?;
        next.updated = crate::commerce::now_ms();
        match shared.storage.save_cart_versioned(&next, version, checkout).await? {
            CartWrite::Saved(_) => return Ok(next),
            CartWrite::CheckingOut => return Err(CartError::Unavailable),
            CartWrite::Conflict(current) => {
                tracing::debug!(cart = %id, attempt, "a versioned cart write conflicted; applying the change again");
                stored = current.map(|v| *v);
                // Spread the writers out: up to 1, 2, 4 … 32 ms.
                let pause = rand::rng().random_range(0..=(1u64 << attempt.min(5)));
                tokio::time::sleep(Duration::from_millis(pause)).await;
            }
        }
    }
    Err(CartError::Conflict)
}

impl Actor for Cart {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let every = (self.shared.idle / 2).max(Duration::from_millis(10));
        ctx.run_interval(every, |cart, ctx| {
            if cart.last_used.elapsed() >= cart.shared.idle {
                ctx.stop();
            }
        });
    }

    fn stopped(&mut self, _: &mut Self::Context) {
        lock(&self.live).leave(&self.id, self.generation);
    }
}

/// Returns the cart, if it exists.
#[derive(Message, Clone)]
#[rtype(result = "Option<ShoppingCart>")]
pub struct GetCart;

impl Handler<GetCart> for Cart {
    type Result = Option<ShoppingCart>;

    fn handle(&mut self, _: GetCart, _: &mut Self::Context) -> Option<ShoppingCart> {
        self.last_used = Instant::now();
        self.cart.clone()
    }
}

/// Applies one change; returns the cart once it is durable.
#[derive(Message, Clone)]
#[rtype(result = "Result<ShoppingCart, CartError>")]
pub struct ChangeCart(pub CartChange);

impl Handler<ChangeCart> for Cart {
    type Result = AtomicResponse<Self, Result<ShoppingCart, CartError>>;

    fn handle(&mut self, msg: ChangeCart, _: &mut Self::Context) -> Self::Result {
        self.last_used = Instant::now();
        if self.shared.storage.is_shared() {
            let (shared, id) = (self.shared.clone(), self.id.clone());
            let changing = async move { change_shared(&shared, &id, msg.0).await };
            return AtomicResponse::new(Box::pin(changing.into_actor(self).map(|result, cart, _| {
                cart.last_used = Instant::now();
                let next = result?;
                cart.cart = Some(next.clone());
                Ok(next)
            })));
        }
        let mut next = self.current();
        if let Err(e) = apply(&mut next, msg.0, &self.shared.catalog.current(), &self.shared.rules) {
            return AtomicResponse::new(Box::pin(actix::fut::ready(Err(e))));
        }
        next.updated = crate::commerce::now_ms();
        let write = self.shared.storage.save_cart(&next);
        AtomicResponse::new(Box::pin(write.into_actor(self).map(move |result, cart, _| {
            cart.last_used = Instant::now();
            result?;
            cart.cart = Some(next.clone());
            Ok(next)
        })))
    }
}

/// Checks the cart out: reserves stock, takes payment, stores the order and marks
/// the cart purchased. Returns the order.
#[derive(Message, Clone)]
#[rtype(result = "Result<Order, CartError>")]
pub struct PlaceOrder {
    /// The buyer.
    pub customer: Customer,
    /// Order or subscription.
    pub kind: OrderKind,
}

impl Handler<PlaceOrder> for Cart {
    type Result = AtomicResponse<Self, Result<Order, CartError>>;

    fn handle(&mut self, msg: PlaceOrder, _: &mut Self::Context) -> Self::Result {
        self.last_used = Instant::now();
        let cached = self.current();
        let shared = self.shared.clone();
        let placing = async move {
            if !shared.storage.is_shared() {
                return checkout::place(&shared, cached, msg.customer, msg.kind).await;
            }
            // Shared storage: one checkout of the cart across instances, of the cart as
            // stored rather than this instance's copy.
            let id = cached.id.clone();
            if !shared.storage.claim_checkout(&id).await? {
                return Err(CartError::Unavailable);
            }
            let placed = async {
                match shared.storage.load_cart_versioned(&id).await? {
                    Some(stored) => {
                        checkout::place_shared(&shared, stored.cart, stored.version, msg.customer, msg.kind).await
                    }
                    None => Err(CartError::Empty),
                }
            }
            .await;
            if let Err(e) = shared.storage.end_checkout(&id).await {
                tracing::warn!(error = %e, cart = %id, "a checkout claim was left to lapse");
            }
            placed
        };
        AtomicResponse::new(Box::pin(placing.into_actor(self).map(|result, cart, _| {
            cart.last_used = Instant::now();
            let (order, purchased) = result?;
            cart.cart = Some(purchased);
            Ok(order)
        })))
    }
}

/// Finds the actor of a cart id, starting it (rehydrated from storage) when needed.
pub struct Carts {
    /// What the actors share.
    shared: Arc<CartShared>,
    /// Live actors.
    live: Live,
    /// The next actor's generation.
    generation: AtomicU64,
}

impl Carts {
    /// No live carts yet; at most [`DEFAULT_LIVE_CARTS`] actors at once.
    pub fn new(shared: CartShared) -> Carts {
        Carts::bounded(shared, DEFAULT_LIVE_CARTS)
    }

    /// No live carts yet; at most `most` actors at once (the least recently used is
    /// stopped to make room).
    pub fn bounded(shared: CartShared, most: usize) -> Carts {
        let live = Arc::new(Mutex::new(LiveActors::new(most)));
        Carts { shared: Arc::new(shared), live, generation: AtomicU64::new(0) }
    }

    /// What the actors share.
    pub fn shared(&self) -> &CartShared {
        &self.shared
    }

    /// How many cart actors are running.
    pub fn live(&self) -> usize {
        lock(&self.live).running.len()
    }

    /// The cart `id`, if it exists, an open cart's plan terms as the catalog words them now
    /// (a cart stored before they were kept has none). Reading a cart that is neither live
    /// nor stored starts no actor, so made-up ids cost nothing.
    pub async fn get(&self, id: &str) -> Result<Option<ShoppingCart>, CartError> {
        let mut cart = self.read(id).await?;
        if let Some(cart) = cart.as_mut().filter(|c| !c.is_purchased) {
            describe_plans(cart, &self.shared.catalog.current());
        }
        Ok(cart)
    }

    /// The cart `id` as it stands, if it exists.
    async fn read(&self, id: &str) -> Result<Option<ShoppingCart>, CartError> {
        if self.shared.storage.is_shared() {
            // Another instance may have changed it: read it as stored.
            return Ok(self.shared.storage.load_cart_versioned(id).await?.map(|v| v.cart));
        }
        let live = {
            let live = lock(&self.live);
            let running = live.running.peek(id).is_some_and(|(_, addr)| addr.connected());
            running || live.retiring.get(id).is_some_and(|(_, addr)| addr.connected())
        };
        if !live && self.shared.storage.load_cart(id)?.is_none() {
            return Ok(None);
        }
        self.send(id, GetCart).await
    }

    /// Forgets the live actor of cart `id` (its cart expired and was removed from
    /// storage): the next call starts a fresh actor, which finds nothing stored.
    pub fn forget(&self, id: &str) {
        lock(&self.live).forget(id);
    }

    /// Applies `change` to cart `id` (made when new).
    pub async fn change(&self, id: &str, change: CartChange) -> Result<ShoppingCart, CartError> {
        self.send(id, ChangeCart(change)).await?
    }

    /// Checks cart `id` out.
    pub async fn place_order(&self, id: &str, customer: Customer, kind: OrderKind) -> Result<Order, CartError> {
        self.send(id, PlaceOrder { customer, kind }).await?
    }

    /// Sends `msg` to the actor of `id`; once more to a fresh actor if it had just stopped.
    async fn send<M>(&self, id: &str, msg: M) -> Result<M::Result, CartError>
    where
        M: Message + Clone + Send + 'static,
        M::Result: Send,
        Cart: Handler<M>,
    {
        for _ in 0..2 {
            match self.actor(id)?.send(msg.clone()).await {
                Ok(result) => return Ok(result),
                Err(MailboxError::Closed) => {
                    let mut live = lock(&self.live);
                    if live.running.peek(id).is_some_and(|(_, addr)| !addr.connected()) {
                        live.running.pop(id);
                    }
                }
                Err(MailboxError::Timeout) => return Err(CartError::Unavailable),
            }
        }
        Err(CartError::Unavailable)
    }

    fn actor(&self, id: &str) -> Result<Addr<Cart>, CartError> {
        let mut live = lock(&self.live);
        if let Some((_, addr)) = live.running.get(id).filter(|(_, addr)| addr.connected()) {
            return Ok(addr.clone());
        }
        // Told to stop but not stopped yet: it takes its cart back, as no other actor may
        // hold it while it may still write.
        if let Some((generation, addr)) = live.retiring.remove(id).filter(|(_, addr)| addr.connected()) {
            live.put(id.to_string(), generation, addr.clone());
            return Ok(addr);
        }
        // Shared storage is read before each change, not when the actor starts.
        let cart = if self.shared.storage.is_shared() { None } else { self.shared.storage.load_cart(id)? };
        let generation = self.generation.fetch_add(1, Ordering::Relaxed);
        let addr = Cart {
            id: id.to_string(),
            cart,
            shared: self.shared.clone(),
            last_used: Instant::now(),
            generation,
            live: self.live.clone(),
        }
        .start();
        live.put(id.to_string(), generation, addr.clone());
        Ok(addr)
    }
}
