//! The ops listener: `/metrics` (Prometheus text) and `/health/live`, `/health/ready`.
//! Never mounted on the public listener.
//!
//! ## Layout
//!
//! - [`metrics`]: every server metric, documented once, and the process's recorder.
//! - `middleware`: [`RequestMetrics`], the per-route request metrics of the public app.
//! - `durations`: the request-duration histogram, in fixed buckets outside the recorder.

mod durations;
pub mod metrics;
mod middleware;

use std::sync::atomic::{AtomicBool, Ordering};

use actix_web::{web, HttpResponse};

pub use middleware::RequestMetrics;

/// Whether the server is ready for traffic (set once both listeners run).
static READY: AtomicBool = AtomicBool::new(false);

/// The content type of Prometheus' text exposition format.
const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Marks the process ready or not ready.
pub fn set_ready(ready: bool) {
    READY.store(ready, Ordering::SeqCst);
}

/// Registers the ops routes (and installs the metrics recorder, once per process).
pub fn configure(cfg: &mut web::ServiceConfig) {
    metrics::install();
    cfg.route("/health/live", web::get().to(|| async { HttpResponse::Ok().body("live") }))
        .route(
            "/health/ready",
            web::get().to(|| async {
                if READY.load(Ordering::SeqCst) {
                    HttpResponse::Ok().body("ready")
                } else {
                    HttpResponse::ServiceUnavailable().body("not ready")
                }
            }),
        )
        .route("/metrics", web::get().to(render_metrics));
}

/// Every metric recorded in this process, in Prometheus' text format: the recorder's, then
/// the request durations.
async fn render_metrics() -> HttpResponse {
    let mut text = metrics::render();
    durations::render_into(&mut text);
    HttpResponse::Ok().content_type(PROMETHEUS_TEXT).body(text)
}
