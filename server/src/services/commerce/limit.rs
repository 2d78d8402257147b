//! [`CheckoutLimiter`]: how often one client address may try to check out (a cart, a
//! subscription, a donation or a gift card). Each address gets its own token bucket
//! (`[commerce] checkouts_per_minute`, `checkout_burst`); the table of addresses is
//! bounded (`limited_addresses`) and forgets the least recently seen address first, so
//! a flood of addresses never refuses everyone, it only shortens what is remembered.

use std::net::IpAddr;
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::{Mutex, PoisonError};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use lru::LruCache;

use crate::services::telemetry::RateLimited;
use crate::settings::CommerceSettings;

/// Checkout attempts refused for their address's rate, by `kind`.
pub const REFUSED_METRIC: &str = "veranda_commerce_checkouts_refused_total";
/// Client addresses the checkout limiter remembers now.
pub const ADDRESSES_METRIC: &str = "veranda_commerce_checkout_limiter_addresses";

/// What a checkout attempt buys: the `kind` label of [`REFUSED_METRIC`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckoutKind {
    /// `POST /checkout` and `POST /checkout/subscribe`.
    Cart,
    /// `POST /checkout/donate`.
    Donation,
    /// `POST /checkout/giftcard`.
    GiftCard,
}

impl CheckoutKind {
    /// Every kind.
    pub const ALL: [CheckoutKind; 3] = [CheckoutKind::Cart, CheckoutKind::Donation, CheckoutKind::GiftCard];

    /// The label value.
    pub const fn label(self) -> &'static str {
        match self {
            CheckoutKind::Cart => "cart",
            CheckoutKind::Donation => "donation",
            CheckoutKind::GiftCard => "gift_card",
        }
    }
}

/// One token bucket per client address, in a table of bounded size.
pub struct CheckoutLimiter {
    /// The rate and burst of every address.
    quota: Quota,
    /// The buckets, least recently used evicted first.
    table: Mutex<LruCache<IpAddr, DefaultDirectRateLimiter>>,
}

impl CheckoutLimiter {
    /// A limiter of `settings`, its metrics exported at zero.
    pub fn new(settings: &CommerceSettings) -> CheckoutLimiter {
        let rate = NonZeroU32::new(settings.checkouts_per_minute).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(settings.checkout_burst).unwrap_or(rate);
        let addresses = NonZeroUsize::new(settings.limited_addresses).unwrap_or(NonZeroUsize::MIN);
        crate::ops::metrics::install();
        metrics::describe_counter!(REFUSED_METRIC, "Checkout attempts refused (429) for their client address's rate.");
        metrics::describe_gauge!(ADDRESSES_METRIC, "Client addresses the checkout rate limiter remembers.");
        for kind in CheckoutKind::ALL {
            metrics::counter!(REFUSED_METRIC, "kind" => kind.label()).increment(0);
        }
        metrics::gauge!(ADDRESSES_METRIC).set(0.0);
        CheckoutLimiter {
            quota: Quota::per_minute(rate).allow_burst(burst),
            table: Mutex::new(LruCache::new(addresses)),
        }
    }

    /// Takes one attempt of `ip`'s bucket, or says when the next one is admitted.
    pub fn admit(&self, ip: IpAddr, kind: CheckoutKind) -> Result<(), RateLimited> {
        // A poisoned table is still a table of buckets: at worst one bucket is stale.
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        let checked = table.get_or_insert(ip, || RateLimiter::direct(self.quota)).check();
        metrics::gauge!(ADDRESSES_METRIC).set(table.len() as f64);
        checked.map_err(|not_until| {
            metrics::counter!(REFUSED_METRIC, "kind" => kind.label()).increment(1);
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            RateLimited { retry_after_secs: wait.as_secs_f64().ceil().max(1.0) as u64 }
        })
    }

    /// How many addresses are remembered.
    pub fn len(&self) -> usize {
        self.table.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether no address is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u32) -> IpAddr {
        IpAddr::from(n.to_be_bytes())
    }

    #[test]
    fn an_address_past_its_burst_waits_while_others_are_admitted() {
        let settings = CommerceSettings {
            checkouts_per_minute: 1,
            checkout_burst: 2,
            limited_addresses: 10,
            ..Default::default()
        };
        let limiter = CheckoutLimiter::new(&settings);
        assert!(limiter.admit(ip(1), CheckoutKind::Cart).is_ok());
        assert!(limiter.admit(ip(1), CheckoutKind::Cart).is_ok());
        let refused = limiter.admit(ip(1), CheckoutKind::Donation).expect_err("past the burst");
        assert!((1..=60).contains(&refused.retry_after_secs), "{refused:?}");
        assert!(limiter.admit(ip(2), CheckoutKind::Cart).is_ok());
    }

    #[test]
    fn the_table_forgets_the_least_recently_seen_address_when_full() {
        let settings =
            CommerceSettings { checkouts_per_minute: 1, checkout_burst: 1, limited_addresses: 3, ..Default::default() };
        let limiter = CheckoutLimiter::new(&settings);
        for n in 0..100 {
            assert!(limiter.admit(ip(n), CheckoutKind::Cart).is_ok(), "a new address is admitted: {n}");
        }
        assert_eq!(limiter.len(), 3);
        assert!(limiter.admit(ip(99), CheckoutKind::Cart).is_err(), "a remembered address is still limited");
    }
}
