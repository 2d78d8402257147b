//! The table of live cart actors: at most `[commerce] live_carts` run at once, the least
//! recently used told to stop ([`Retire`]) to make room for a new one. A retiring actor
//! handles the messages already in its mailbox first, and is taken back if its cart is
//! asked for before it stops, so a change in flight is never lost and no two actors hold
//! one cart.

use std::collections::HashMap;
use std::num::NonZeroUsize;

use actix::{ActorContext, Addr, Handler, Message};
use lru::LruCache;

use super::{lock, Cart};
use crate::tables::{self, Eviction, Table};

/// Cart actors running at once by default (`[commerce] live_carts`).
pub const DEFAULT_LIVE_CARTS: usize = 10_000;

/// The running cart actors, least recently used first out, and those told to stop.
pub(super) struct LiveActors {
    /// Actors by cart id.
    pub(super) running: LruCache<String, (u64, Addr<Cart>)>,
    /// Actors told to stop ([`Retire`]) that may still have messages to handle.
    pub(super) retiring: HashMap<String, (u64, Addr<Cart>)>,
}

impl LiveActors {
    pub(super) fn new(most: usize) -> LiveActors {
        LiveActors {
            running: LruCache::new(NonZeroUsize::new(most).unwrap_or(NonZeroUsize::MIN)),
            retiring: HashMap::new(),
        }
    }

    /// Makes room for one more actor: the least recently used is told to stop.
    fn make_room(&mut self) {
        if self.running.len() < self.running.cap().get() {
            return;
        }
        if let Some((id, (generation, addr))) = self.running.pop_lru() {
            tables::count_eviction(Table::CartActors, Eviction::Total);
            if addr.connected() {
                addr.do_send(Retire);
                self.retiring.insert(id, (generation, addr));
            }
        }
    }

    /// Adds an actor, now the most recently used.
    pub(super) fn put(&mut self, id: String, generation: u64, addr: Addr<Cart>) {
        self.make_room();
        self.running.put(id, (generation, addr));
        tables::set_entries(Table::CartActors, self.running.len());
    }

    /// Forgets the actor of `id` if it is of `generation`.
    pub(super) fn leave(&mut self, id: &str, generation: u64) {
        if self.running.peek(id).is_some_and(|(g, _)| *g == generation) {
            self.running.pop(id);
        }
        if self.retiring.get(id).is_some_and(|(g, _)| *g == generation) {
            self.retiring.remove(id);
        }
        tables::set_entries(Table::CartActors, self.running.len());
    }

    /// Forgets the actor of `id` whatever its generation (its cart expired and was
    /// removed from storage) and tells it to stop; the next call for `id` starts a fresh one.
    pub(super) fn forget(&mut self, id: &str) {
        let running = self.running.pop(id);
        let retiring = self.retiring.remove(id);
        for (_, addr) in running.into_iter().chain(retiring) {
            addr.do_send(Retire);
        }
        tables::set_entries(Table::CartActors, self.running.len());
    }
}

/// Stops the actor, made to leave the live table for a newer one, once the messages
/// before this one are handled; unless its cart was asked for meanwhile and it was taken
/// back.
#[derive(Message)]
#[rtype(result = "()")]
struct Retire;

impl Handler<Retire> for Cart {
    type Result = ();

    fn handle(&mut self, _: Retire, ctx: &mut Self::Context) {
        let mut live = lock(&self.live);
        if live.running.peek(&self.id).is_some_and(|(generation, _)| *generation == self.generation) {
            return;
        }
        // Out of both tables before it stops: the next call starts a fresh actor, which
        // reads the cart this one has finished writing.
        live.leave(&self.id, self.generation);
        ctx.stop();
    }
}
