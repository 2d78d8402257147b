//! Start-up: load the site, open the store, start the services, bind both listeners,
//! and run until a signal stops the server; then stop the services.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::{web, App, HttpServer};
use veranda_actors::commerce::redis_storage::redact;
use veranda_actors::site::Site;
use veranda_actors::store::redis_store::{Persistence, RedisSettings};
use veranda_actors::store::{stalled, RedisStore, SledStore, StalledStore, Store};

use crate::assets::Assets;
use crate::edge::body::BodyLimit;
use crate::embedded::ServedSite;
use crate::ops;
use crate::overload::{self, BodyReadTimeout, WriteGate, MAX_WRITES_IN_FLIGHT};
use crate::routes;
use crate::security::EdgeState;
use crate::services::Services;
use crate::settings::Settings;
use crate::state::AppState;

pub use crate::services::StartupError;

/// Wraps `store` in a [`StalledStore`] when the test-only variable
/// `VERANDA_TEST_STORE_STALL_MS` is set (the overload suite), warning loudly at start-up and
/// every minute after: a stalled store takes only `1000 / ms` writes per second. The
/// variable is not a setting of the configuration file; unset, `store` is returned as is.
fn stall_for_tests(store: Arc<dyn Store>) -> Result<Arc<dyn Store>, veranda_actors::store::StoreError> {
    let Some(value) = std::env::var_os(stalled::STALL_ENV) else { return Ok(store) };
    let stall =
        StalledStore::parse_stall(&value.to_string_lossy()).map_err(veranda_actors::store::StoreError::Backend)?;
    let warn = move || {
        tracing::warn!(
            stall_ms = stall.as_millis() as u64,
            "TEST-ONLY: {} is set; every store write is delayed. Never run a real site like this.",
            stalled::STALL_ENV
        )
    };
    warn();
    std::thread::Builder::new()
        .name("veranda-stall-warning".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_secs(60));
            warn();
        })
        .map_err(|e| veranda_actors::store::StoreError::Backend(e.to_string()))?;
    Ok(Arc::new(StalledStore::new(store, stall)?))
}

/// The store of every tree in the Redis at `url` (sled is not opened), once Redis has
/// answered and its persistence was checked: a Redis that could lose acknowledged writes
/// is refused, or only warned about when `[redis] require_durable = false`; one that
/// hides its configuration (a managed Redis) is warned about.
pub async fn open_redis(url: &str, settings: &RedisSettings) -> Result<RedisStore, StartupError> {
    let fail = |reason: String| StartupError::Redis { url: redact(url), reason };
    let store = RedisStore::connect(url, settings).await.map_err(fail)?;
    let persistence = store.persistence().await;
    match (persistence.warning(), &persistence) {
        (None, _) => {
            tracing::info!(url = %redact(url), "every tree is in Redis, on disk before each durable write is acknowledged")
        }
        (Some(warning), Persistence::Lossy { .. }) if settings.require_durable => return Err(fail(warning)),
        (Some(warning), _) => tracing::warn!(url = %redact(url), "{warning}"),
    }
    Ok(store)
}

/// A started server: both listeners bound, not yet running.
pub struct Application {
    port: u16,
    ops_port: u16,
    public: Server,
    ops: Server,
    state: web::Data<AppState>,
    /// The site directory served, kept so that the embedded demo's temporary copy lives
    /// until the server stops; `None` when the caller loaded the site itself.
    served_site: Option<ServedSite>,
}

impl Application {
    /// Loads everything and binds the listeners (port 0 picks a free port). The site and
    /// the client are read from disk, or from the binary when their default folders are not
    /// beside the working directory.
    pub async fn build(settings: Settings) -> Result<Application, StartupError> {
        let served_site = ServedSite::choose(&settings.site)?;
        let site = Site::load(&served_site.dir)?;
        let store: Arc<dyn Store> = match &settings.redis_url {
            Some(url) => Arc::new(open_redis(url, &settings.redis).await?),
            None => Arc::new(
                SledStore::open_with_cache(&settings.data_dir, settings.store_cache_mb)
                    .map_err(|source| StartupError::Store { path: settings.data_dir.display().to_string(), source })?,
            ),
        };
        let store = stall_for_tests(store)
            .map_err(|source| StartupError::Store { path: settings.data_dir.display().to_string(), source })?;
        let assets = Assets::choose(&settings.assets_dir)?;
        let mut app = Self::build_with(settings, site, store, assets).await?;
        app.served_site = Some(served_site);
        Ok(app)
    }

    /// Binds the listeners around already-loaded parts (tests pass their own store).
    pub async fn build_with(
        settings: Settings,
        site: Site,
        store: Arc<dyn Store>,
        assets: Assets,
    ) -> Result<Application, StartupError> {
        let bind = |addr: std::net::SocketAddr| {
            TcpListener::bind(addr).map_err(|source| StartupError::Bind { addr: addr.to_string(), source })
        };
        let public_listener = bind(settings.listen)?;
        let ops_listener = bind(settings.ops_listen)?;
        let port = public_listener
            .local_addr()
            .map_err(|source| StartupError::Bind { addr: settings.listen.to_string(), source })?
            .port();
        let ops_port = ops_listener
            .local_addr()
            .map_err(|source| StartupError::Bind { addr: settings.ops_listen.to_string(), source })?
            .port();
        let shutdown_timeout = settings.shutdown_timeout_secs;
        let max_body = settings.max_body_bytes;
        let crumb_key = crate::security::crumb_source::crumb_key(
            settings.security.crumb_key_file.as_deref(),
            settings.redis_url.as_deref().map(|url| (url, settings.redis.key_prefix.as_str())),
            &settings.data_dir,
            store.as_ref(),
        )
        .await?;
        // The recorder first, so what the services export at start-up (zeros, help
        // texts) is kept.
        crate::ops::metrics::install();
        routes::telemetry::ingest::export_metrics_at_zero();
        veranda_actors::streams::metrics::export_at_zero();
        let services = Services::start(&settings, store, site).await?;
        let page_cache = crate::page_cache::PageCache::new(settings.pages.cache_bytes());
        let state = web::Data::new(AppState { settings, services, assets, crumb_key, page_cache });

        let edge = web::Data::new(EdgeState {
            trusted_proxies: state.settings.security.trusted_proxies.clone(),
            client_ip_header: state.settings.security.client_ip_header,
            public_https: state.settings.security.serves_https(),
            sessions: state.services.store.clone(),
        });
        let crumb_data = web::Data::new(state.crumb_key.clone());
        let body_limit = web::Data::new(BodyLimit(max_body));
        let public_state = state.clone();
        let public_edge = edge.clone();
        let write_gate = web::Data::new(WriteGate::new(MAX_WRITES_IN_FLIGHT));
        let body_timeout =
            web::Data::new(BodyReadTimeout(Duration::from_secs(state.settings.body_read_timeout_secs.max(1))));
        let public = HttpServer::new(move || {
            App::new()
                .app_data(public_state.clone())
                .app_data(public_edge.clone())
                .app_data(crumb_data.clone())
                .app_data(body_limit.clone())
                .app_data(write_gate.clone())
                .app_data(body_timeout.clone())
                .app_data(web::PayloadConfig::new(max_body))
                .app_data(web::JsonConfig::default().limit(max_body))
                .app_data(web::FormConfig::default().limit(max_body))
                .wrap(actix_web::middleware::from_fn(overload::limit_writes))
                .wrap(ops::RequestMetrics)
                .wrap(actix_web::middleware::from_fn(crate::edge::headers::security_headers))
                .configure(routes::configure)
        })
        .listen(public_listener)
        .map_err(|source| StartupError::Bind { addr: format!("port {port}"), source })?
        .shutdown_timeout(shutdown_timeout)
        .disable_signals()
        .run();

        let ops_state = state.clone();
        let ops = HttpServer::new(move || {
            App::new().app_data(ops_state.clone()).app_data(edge.clone()).configure(ops::configure)
        })
        .listen(ops_listener)
        .map_err(|source| StartupError::Bind { addr: format!("port {ops_port}"), source })?
        .workers(1)
        .disable_signals()
        .run();

        Ok(Application { port, ops_port, public, ops, state, served_site: None })
    }

    /// The public listener's port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The ops listener's port.
    pub fn ops_port(&self) -> u16 {
        self.ops_port
    }

    /// Runs until SIGTERM or SIGINT stops the public server (gracefully, finishing
    /// requests in flight), then stops the ops listener and the services.
    /// The signal handlers are installed before the server reports ready, so a signal
    /// sent once `/health/ready` answers 200 always shuts down gracefully.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let Application { public, ops, state, served_site, .. } = self;
        let public_handle = public.handle();
        let ops_handle = ops.handle();
        let stop_signal = crate::shutdown::signal()?;
        actix_rt::spawn(async move {
            stop_signal.await;
            tracing::info!("stop signal received; finishing requests in flight");
            public_handle.stop(true).await;
        });
        let ops_task = actix_rt::spawn(ops);
        ops::set_ready(true);
        tracing::info!("serving");
        let result = public.await;
        ops::set_ready(false);
        ops_handle.stop(true).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), ops_task).await;
        state.services.stop().await;
        drop(served_site);
        result
    }
}
