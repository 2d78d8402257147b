//! `[commerce]` of `veranda.toml` (see `docs/security.md`): the checkout rate limit per
//! client address, how long an offline order holds its stock, how long an open cart lives,
//! how often expired holds and carts are swept, and how many cart actors run at once.

use serde::{Deserialize, Serialize};

/// `[commerce]` of `veranda.toml`: the bounds on checkouts, holds and carts.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CommerceSettings {
    /// Checkout attempts one client address regains per minute.
    pub checkouts_per_minute: u32,
    /// Checkout attempts one client address may make at once before the rate applies.
    pub checkout_burst: u32,
    /// Most client addresses the checkout limiter remembers (least recently seen
    /// forgotten first).
    pub limited_addresses: usize,
    /// Seconds an order paid later (offline) holds its stock unless the owner marks it
    /// paid or cancelled first; then the stock returns.
    pub offline_hold_secs: u64,
    /// Seconds an open (never checked out) cart lives after its last change.
    pub cart_lifetime_secs: u64,
    /// Seconds between sweeps for expired carts and holds.
    pub sweep_secs: u64,
    /// Most cart actors running at once; the least recently used stops to make room
    /// (its cart stays in the store).
    pub live_carts: usize,
}

impl Default for CommerceSettings {
    fn default() -> Self {
        CommerceSettings {
            checkouts_per_minute: 6,
            checkout_burst: 20,
            limited_addresses: 10_000,
            offline_hold_secs: 7 * 24 * 3600,
            cart_lifetime_secs: 30 * 24 * 3600,
            sweep_secs: 300,
            live_carts: veranda_actors::commerce::carts::DEFAULT_LIVE_CARTS,
        }
    }
}
