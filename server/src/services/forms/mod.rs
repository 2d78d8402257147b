//! [`Forms`]: what the forms routes keep between requests: the site's forms, the rate
//! limiters, the captcha keys and verifier, and the single-use tokens being redeemed.
//!
//! ## Layout
//!
//! - `siteverify`: the reCAPTCHA verifier asking Google's siteverify API.
//! - [`sweep`]: the timer that removes expired submission keys and spent captcha marks.

mod siteverify;
pub mod sweep;

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use veranda_actors::forms::captcha::{Altcha, RecaptchaVerifier};
use veranda_actors::forms::redirect::RedirectPolicy;
use veranda_actors::forms::FormIndex;
use veranda_actors::site::settings::CaptchaSettings;
use veranda_actors::site::Site;
use veranda_actors::store::{Store, StoreError, Tree};

use crate::edge::limit::KeyedLimiter;
use crate::settings::Settings;

pub use veranda_actors::forms::config::RATE_WINDOW;
/// The `table` labels of the forms' rate limiters on the shared rate-limiter metrics.
pub const SUBMISSIONS_TABLE: &str = "form_submissions";
/// See [`SUBMISSIONS_TABLE`].
pub const KEYS_TABLE: &str = "form_keys";
/// See [`SUBMISSIONS_TABLE`].
pub const CHALLENGES_TABLE: &str = "form_challenges";
/// Submissions returned by one export, newest first.
pub const EXPORT_LIMIT: usize = 10_000;

/// State the forms routes share across workers.
pub struct Forms {
    /// The site's forms by form id.
    pub index: FormIndex,
    /// Save calls per address and form.
    pub submit_limiter: KeyedLimiter<(IpAddr, String)>,
    /// Key requests per address.
    pub key_limiter: KeyedLimiter<IpAddr>,
    /// Captcha challenge requests per address.
    pub challenge_limiter: KeyedLimiter<IpAddr>,
    /// Issues and verifies ALTCHA challenges.
    pub altcha: Altcha,
    /// The site's captcha provider and reCAPTCHA site key.
    pub captcha: CaptchaSettings,
    /// Checks reCAPTCHA tokens; none until a secret is configured, so a site asking for
    /// reCAPTCHA gets 'ReCaptcha has not been set up!'.
    pub recaptcha: Option<Arc<dyn RecaptchaVerifier>>,
    /// Keys and captcha challenges being redeemed right now: a second use is refused at once.
    pub redeeming: Mutex<HashSet<String>>,
    /// Seconds a submission key may be used after it is issued.
    pub key_lifetime_secs: i64,
    /// Where a success may send the visitor: this site, or origins the owner listed.
    pub redirects: RedirectPolicy,
}

impl Forms {
    /// Builds the state once at start-up.
    pub async fn start(store: &dyn Store, site: &Site, settings: &Settings) -> Forms {
        let limits = &settings.forms;
        let altcha = match altcha_key(store).await {
            Ok(key) => Altcha::new(&key),
            Err(e) => {
                tracing::warn!(error = %e, "the captcha key could not be kept; challenges last until a restart");
                Altcha::ephemeral()
            }
        };
        Forms {
            index: FormIndex::of_site(site),
            redirects: site.settings.redirect_policy(),
            submit_limiter: per_window(SUBMISSIONS_TABLE, limits.submissions_per_minute, limits.limited_addresses),
            key_limiter: per_window(KEYS_TABLE, limits.keys_per_minute, limits.limited_addresses),
            challenge_limiter: per_window(CHALLENGES_TABLE, limits.challenges_per_minute, limits.limited_addresses),
            altcha,
            captcha: site.settings.captcha.clone(),
            recaptcha: siteverify::SiteVerify::from_settings(limits)
                .map(|verifier| Arc::new(verifier) as Arc<dyn RecaptchaVerifier>),
            redeeming: Mutex::new(HashSet::new()),
            key_lifetime_secs: limits.key_lifetime_secs,
        }
    }
}

/// A limiter named `table` of `count` calls per [`RATE_WINDOW`] per key, all of them
/// available at once, remembering at most `size` keys.
fn per_window<K: std::hash::Hash + Eq>(table: &'static str, count: usize, size: usize) -> KeyedLimiter<K> {
    KeyedLimiter::per_period(table, u32::try_from(count).unwrap_or(u32::MAX), RATE_WINDOW, size)
}

/// Where the ALTCHA signing key lives in the settings tree.
pub const ALTCHA_KEY_NAME: &[u8] = b"altcha_key";

/// The ALTCHA signing key, created and stored on first start so restarts keep issued
/// challenges valid.
async fn altcha_key(store: &dyn Store) -> Result<[u8; 32], StoreError> {
    if let Some(key) = store.get(Tree::Settings, ALTCHA_KEY_NAME)?.and_then(|b| <[u8; 32]>::try_from(b).ok()) {
        return Ok(key);
    }
    let mut key = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut key);
    // Instances sharing a store starting together adopt the key the first one stored.
    let stored = store.put_if_absent(Tree::Settings, ALTCHA_KEY_NAME, &key).await?;
    match <[u8; 32]>::try_from(stored) {
        Ok(stored) => Ok(stored),
        Err(_) => {
            store.put(Tree::Settings, ALTCHA_KEY_NAME, &key).await?;
            Ok(key)
        }
    }
}

/// Locks `mutex`, carrying on with the data if a panicking thread poisoned it (every
/// guarded value here stays consistent between statements).
pub fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
