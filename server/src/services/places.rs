//! Place search's guard: how many searches one client address may make (a `governor` keyed limiter, cleaned of
//! quiet addresses every minute) and how many upstream calls may be in flight at once (a semaphore), so that no
//! client can spend the operator's Places quota or tie up the server's outbound connections. Every refusal is
//! counted on `veranda_places_refused_total{reason}`, exported at zero from start-up.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::settings::MapsSettings;

/// How often addresses whose quota has refilled are forgotten.
const LIMITER_CLEANUP: Duration = Duration::from_secs(60);

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
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    /// Upstream calls in flight.
    upstream: Arc<Semaphore>,
}

impl Places {
    /// Builds the guard from `[maps]` and starts the limiter's cleanup (inside the actix system).
    pub fn start(settings: &MapsSettings) -> Places {
        metrics::describe_counter!(
            REFUSED_METRIC,
            "Place searches refused, by reason: rate_limited, foreign_origin, busy, no_server_key."
        );
        for refusal in Refusal::ALL {
            metrics::counter!(REFUSED_METRIC, "reason" => refusal.label()).increment(0);
        }
        let rate = NonZeroU32::new(settings.places_per_minute).unwrap_or(NonZeroU32::MIN);
        let limiter = Arc::new(RateLimiter::keyed(Quota::per_minute(rate)));
        let cleanup = Arc::downgrade(&limiter);
        actix::spawn(async move {
            let mut tick = tokio::time::interval(LIMITER_CLEANUP);
            loop {
                tick.tick().await;
                let Some(limiter) = cleanup.upgrade() else { break };
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        });
        Places { limiter, upstream: Arc::new(Semaphore::new(settings.places_concurrency.max(1))) }
    }

    /// Takes one search from `ip`'s quota; `Err` carries the seconds until the next one is allowed.
    pub fn admit(&self, ip: IpAddr) -> Result<(), u64> {
        self.limiter.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            wait.as_secs_f64().ceil().max(1.0) as u64
        })
    }

    /// An upstream slot, held until the permit is dropped; `None` when all are in use.
    pub fn slot(&self) -> Option<OwnedSemaphorePermit> {
        self.upstream.clone().try_acquire_owned().ok()
    }
}
