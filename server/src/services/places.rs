//! Place search's guard: how many searches one client address may make (a [`KeyedLimiter`] of at most
//! `[maps] limited_addresses` addresses, least recently seen forgotten first) and how many upstream calls may be in flight at once (a semaphore), so that no
//! client can spend the operator's Places quota or tie up the server's outbound connections. Every refusal is
//! counted on `veranda_places_refused_total{reason}`, exported at zero from start-up.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::edge::limit::KeyedLimiter;
use crate::settings::MapsSettings;

/// The `table` label of the per-address limiter on the shared rate-limiter metrics.
pub const TABLE: &str = "places";

/// The refusals counter's name.
pub const REFUSED_METRIC: &str = "veranda_places_refused_total";

/// Why a place search was refused: the `reason` label of [`REFUSED_METRIC`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The client address made too many searches.
    RateLimited,
    /// The request came from another site's page.
    ForeignOrigin,
    /// Every upstream slot was in use.
    Busy,
    /// No server key is configured.
    NoServerKey,
}

impl Refusal {
    const ALL: [Refusal; 4] = [Refusal::RateLimited, Refusal::ForeignOrigin, Refusal::Busy, Refusal::NoServerKey];

    /// The metric label.
    pub const fn label(self) -> &'static str {
        match self {
            Refusal::RateLimited => "rate_limited",
            Refusal::ForeignOrigin => "foreign_origin",
            Refusal::Busy => "busy",
            Refusal::NoServerKey => "no_server_key",
        }
    }

    /// Counts one refusal.
    pub fn count(self) {
        metrics::counter!(REFUSED_METRIC, "reason" => self.label()).increment(1);
    }
}

/// The per-address limiter and the upstream slots.
pub struct Places {
    /// Searches per client address.
    limiter: KeyedLimiter<IpAddr>,
    /// Upstream calls in flight.
    upstream: Arc<Semaphore>,
}

impl Places {
    /// Builds the guard from `[maps]`.
    pub fn start(settings: &MapsSettings) -> Places {
        metrics::describe_counter!(
            REFUSED_METRIC,
            "Place searches refused, by reason: rate_limited, foreign_origin, busy, no_server_key."
        );
        for refusal in Refusal::ALL {
            metrics::counter!(REFUSED_METRIC, "reason" => refusal.label()).increment(0);
        }
        let limiter = KeyedLimiter::per_period(
            TABLE,
            settings.places_per_minute,
            Duration::from_secs(60),
            settings.limited_addresses,
        );
        Places { limiter, upstream: Arc::new(Semaphore::new(settings.places_concurrency.max(1))) }
    }

    /// Takes one search from `ip`'s quota; `Err` carries the seconds until the next one is allowed.
    pub fn admit(&self, ip: IpAddr) -> Result<(), u64> {
        self.limiter.check(ip).map_err(|limited| limited.retry_after_secs)
    }

    /// An upstream slot, held until the permit is dropped; `None` when all are in use.
    pub fn slot(&self) -> Option<OwnedSemaphorePermit> {
        self.upstream.clone().try_acquire_owned().ok()
    }
}
