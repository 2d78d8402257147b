//! The forms routes (spec 000 §7): a single-use submission key, the save call, and the
//! owner's export of stored submissions.
//!
//! ## Layout
//!
//! - [`submit`]: `POST /api/form/FormSubmissionKey` and `POST /api/form/SaveFormSubmission`.
//! - [`export`]: `GET /api/form/submissions?formId=…&format=json|csv` for owners and admins.
//! - [`error`]: every refusal and the status it maps to.

mod error;
mod export;
mod submit;

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use veranda_actors::forms::rate::RateLimiter;
use veranda_actors::forms::FormIndex;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

/// Submissions one address may send to one form per [`RATE_WINDOW`].
pub const SUBMISSIONS_PER_WINDOW: usize = 10;
/// Submission keys one address may ask for per [`RATE_WINDOW`].
pub const KEYS_PER_WINDOW: usize = 60;
/// The rate-limit window.
pub const RATE_WINDOW: Duration = Duration::from_secs(60);
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
    /// Keys being redeemed right now: a second use of the same key is refused at once.
    redeeming: Mutex<HashSet<String>>,
    /// When expired keys were last swept from the store.
    last_sweep: Mutex<Option<Instant>>,
}

impl FormsState {
    /// Builds the state once at start-up.
    pub async fn new(_store: Arc<dyn Store>, site: Arc<Site>, _settings: &Settings) -> FormsState {
        FormsState {
            index: FormIndex::of_site(&site),
            submit_limiter: Mutex::new(RateLimiter::new(SUBMISSIONS_PER_WINDOW, RATE_WINDOW, MAX_TRACKED)),
            key_limiter: Mutex::new(RateLimiter::new(KEYS_PER_WINDOW, RATE_WINDOW, MAX_TRACKED)),
            redeeming: Mutex::new(HashSet::new()),
            last_sweep: Mutex::new(None),
        }
    }
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
            .default_service(web::to(|| method_not_allowed("POST"))),
    )
    .service(
        web::resource("/api/form/SaveFormSubmission")
            .route(web::post().to(submit::save))
            .default_service(web::to(|| method_not_allowed("POST"))),
    )
    .service(
        web::resource("/api/form/submissions")
            .route(web::get().to(export::submissions))
            .default_service(web::to(|| method_not_allowed("GET"))),
    );
}

async fn method_not_allowed(allow: &'static str) -> HttpResponse {
    HttpResponse::MethodNotAllowed()
        .insert_header((header::ALLOW, allow))
        .json(serde_json::json!({ "error": format!("Use {allow} for this address.") }))
}
