//! The forms routes (spec 000 §7): a single-use submission key, the save call, and the
//! owner's export of stored submissions.
//!
//! ## Layout
//!
//! - [`submit`]: `POST /api/form/FormSubmissionKey` and `POST /api/form/SaveFormSubmission`.
//! - [`captcha`]: `GET /api/form/captcha/challenge` and the check of a submission's captcha.
//! - [`plain`]: plain HTML form posts (no script) and `GET /api/form/thank-you`.
//! - [`export`]: `GET /api/form/submissions?formId=…&format=json|csv` for owners and admins.
//! - [`siteverify`]: the reCAPTCHA verifier asking Google's siteverify API.
//! - [`claim`]: in-flight claims on single-use tokens.
//! - [`error`]: every refusal and the status it maps to.

mod captcha;
mod claim;
mod error;
mod export;
mod plain;
mod siteverify;
mod submit;

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use actix_web::{guard, web};
use veranda_actors::forms::captcha::{Altcha, RecaptchaVerifier};
use veranda_actors::forms::rate::RateLimiter;
use veranda_actors::forms::redirect::RedirectPolicy;
use veranda_actors::forms::FormIndex;
use veranda_actors::site::settings::CaptchaSettings;
use veranda_actors::site::Site;
use veranda_actors::store::{Store, StoreError, Tree};

use crate::edge::method;
use crate::settings::Settings;

pub use veranda_actors::forms::config::RATE_WINDOW;
/// Addresses (or address and form pairs) tracked before new ones are refused.
const MAX_TRACKED: usize = 100_000;
/// Submissions returned by one export, newest first.
pub const EXPORT_LIMIT: usize = 10_000;

/// State the forms routes share across workers.
pub struct FormsState {
    /// The site's forms by form id.
    index: FormIndex,
    /// Save calls per address and form.
    submit_limiter: Mutex<RateLimiter<(IpAddr, String)>>,
    /// Key requests per address.
    key_limiter: Mutex<RateLimiter<IpAddr>>,
    /// Captcha challenge requests per address.
    challenge_limiter: Mutex<RateLimiter<IpAddr>>,
    /// Issues and verifies ALTCHA challenges.
    altcha: Altcha,
    /// The site's captcha provider and reCAPTCHA site key.
    captcha: CaptchaSettings,
    /// Checks reCAPTCHA tokens; none until a secret is configured, so a site asking for
    /// reCAPTCHA gets 'ReCaptcha has not been set up!'.
    recaptcha: Option<Arc<dyn RecaptchaVerifier>>,
    /// Keys and captcha challenges being redeemed right now: a second use is refused at once.
    redeeming: Mutex<HashSet<String>>,
    /// When expired keys were last swept from the store.
    last_sweep: Mutex<Option<Instant>>,
    /// Where a success may send the visitor: this site, or origins the owner listed.
    redirects: RedirectPolicy,
}

impl FormsState {
    /// Builds the state once at start-up.
    pub async fn new(store: Arc<dyn Store>, site: Arc<Site>, settings: &Settings) -> FormsState {
        let limits = &settings.forms;
        let altcha = match altcha_key(store.as_ref()).await {
            Ok(key) => Altcha::new(&key),
            Err(e) => {
                tracing::warn!(error = %e, "the captcha key could not be kept; challenges last until a restart");
                Altcha::ephemeral()
            }
        };
        FormsState {
            index: FormIndex::of_site(&site),
            redirects: site.settings.redirect_policy(),
            submit_limiter: Mutex::new(RateLimiter::new(limits.submissions_per_minute, RATE_WINDOW, MAX_TRACKED)),
            key_limiter: Mutex::new(RateLimiter::new(limits.keys_per_minute, RATE_WINDOW, MAX_TRACKED)),
            challenge_limiter: Mutex::new(RateLimiter::new(limits.challenges_per_minute, RATE_WINDOW, MAX_TRACKED)),
            altcha,
            captcha: site.settings.captcha.clone(),
            recaptcha: siteverify::SiteVerify::from_settings(limits)
                .map(|verifier| Arc::new(verifier) as Arc<dyn RecaptchaVerifier>),
            redeeming: Mutex::new(HashSet::new()),
            last_sweep: Mutex::new(None),
        }
    }
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
    store.put(Tree::Settings, ALTCHA_KEY_NAME, &key).await?;
    Ok(key)
}

/// Locks `mutex`, carrying on with the data if a panicking thread poisoned it (every
/// guarded value here stays consistent between statements).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Registers the forms routes. Other methods on these paths get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/form/FormSubmissionKey")
            .route(web::post().to(submit::issue_key))
            .default_service(method::only("POST")),
    )
    .service(
        web::resource("/api/form/SaveFormSubmission")
            .route(web::post().guard(guard::fn_guard(|ctx| plain::is_plain_post(ctx.head()))).to(plain::save))
            .route(web::post().to(submit::save))
            .default_service(method::only("POST")),
    )
    .service(
        web::resource("/api/form/captcha/challenge")
            .route(web::get().to(captcha::challenge))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource(plain::THANK_YOU_PATH)
            .route(web::get().to(plain::thank_you))
            .default_service(method::only("GET")),
    )
    .service(
        web::resource("/api/form/submissions")
            .route(web::get().to(export::submissions))
            .default_service(method::only("GET")),
    );
}
