//! The running parts of the server, started in one place and stopped in one place.
//!
//! Routes only answer requests; everything that lives between requests is a service
//! here, started by [`Services::start`] in dependency order and stopped by
//! [`Services::stop`] once the listeners have stopped:
//!
//! - [`site`]: [`LiveSite`], the loaded site with the content edits applied; the only
//!   way to read the site.
//! - [`auth`]: the sign-in and unlock throttles, the unlock key, the password pages' locks.
//! - [`forms`]: the site's forms, their rate limiters and captcha keys.
//! - [`telemetry`]: the telemetry actors and writer, the per-IP rate limiter, the live
//!   telemetry events.
//! - [`commerce`]: the cart actors, the inventory actor and the store's storage.
//! - [`streams`]: the dashboard's edits and errors broadcasters (fed by telemetry's
//!   events), the edited header, footer and languages, the open stream sockets.
//! - [`places`]: place search's per-address limit and upstream slots.
//! - [`error`]: why the server could not start.

pub mod auth;
pub mod commerce;
pub mod error;
pub mod forms;
pub mod places;
pub mod site;
pub mod streams;
pub mod telemetry;

use std::sync::Arc;

use veranda_actors::site::Site;
use veranda_actors::store::Store;

use crate::settings::Settings;

pub use error::StartupError;
pub use site::LiveSite;

/// Every running part, shared by the request handlers across workers.
pub struct Services {
    /// Durable and telemetry records.
    pub store: Arc<dyn Store>,
    /// The site as visitors see it.
    pub site: Arc<LiveSite>,
    /// Accounts, sign-in and page unlocks.
    pub auth: Arc<auth::Auth>,
    /// Forms and their submissions.
    pub forms: Arc<forms::Forms>,
    /// Visitor telemetry ingest.
    pub telemetry: Arc<telemetry::Telemetry>,
    /// Carts, inventory and orders.
    pub commerce: Arc<commerce::Commerce>,
    /// The dashboard's live streams and the edited site settings.
    pub streams: Arc<streams::Streams>,
    /// Place search's per-address limit and upstream slots.
    pub places: Arc<places::Places>,
}

impl Services {
    /// Starts every service over `store` and the loaded `site`, in dependency order:
    /// the live site first (every other service reads it), telemetry before the
    /// streams it feeds. Actors start inside the running actix system.
    pub async fn start(settings: &Settings, store: Arc<dyn Store>, site: Site) -> Result<Services, StartupError> {
        let site = Arc::new(LiveSite::load(store.clone(), site));
        let edited = site.current();
        let auth = auth::Auth::start(store.as_ref(), &edited, settings.security.throttle_max_entries).await;
        let forms = forms::Forms::start(store.as_ref(), &edited, settings).await;
        forms::sweep::start(store.clone(), &settings.forms);
        let telemetry = telemetry::Telemetry::start(store.clone(), &edited, settings);
        let commerce = commerce::Commerce::start(store.clone(), site.clone(), settings).await?;
        let streams = streams::Streams::start(store.clone(), &edited, settings, telemetry.subscribe()).await;
        let commerce = Arc::new(commerce);
        commerce::sweep::start(commerce.clone(), &settings.commerce);
        let streams = Arc::new(streams);
        if settings.redis_url.is_some() {
            streams::follow_edits::start(streams.clone(), site.clone());
        }
        Ok(Services {
            store,
            site,
            auth: Arc::new(auth),
            forms: Arc::new(forms),
            telemetry: Arc::new(telemetry),
            commerce,
            streams,
            places: Arc::new(places::Places::start(&settings.maps)),
        })
    }

    /// Stops the services once no request is in flight: writes what the telemetry
    /// actors buffer, then flushes the store.
    pub async fn stop(&self) {
        self.telemetry.shutdown().await;
        match self.store.flush().await {
            Ok(()) => tracing::info!("store flushed; stopped"),
            Err(e) => tracing::error!(error = %e, "store flush at shutdown failed"),
        }
    }
}
