//! The ops listener: `/metrics` (Prometheus text) and `/health/live`, `/health/ready`.
//! Never mounted on the public listener.

mod middleware;

use std::sync::atomic::{AtomicBool, Ordering};

use actix_web::{web, HttpResponse};

pub use middleware::RequestMetrics;

/// Whether the server is ready for traffic (set once both listeners run).
static READY: AtomicBool = AtomicBool::new(false);

/// Marks the process ready or not ready.
pub fn set_ready(ready: bool) {
    READY.store(ready, Ordering::SeqCst);
}

/// Registers the ops routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
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
        );
}
