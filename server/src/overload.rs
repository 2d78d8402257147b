//! Load shedding on the public listener: at most [`MAX_WRITES_IN_FLIGHT`] state-changing
//! requests (any method but GET, HEAD and OPTIONS) are handled at once; past that a
//! request is answered `503 Service Unavailable` with `Retry-After: 1` at once, without
//! reaching its handler.
//!
//! Durable writes wait for the disk (group commit), so when the store cannot keep up the
//! requests waiting for it would otherwise pile up with every open connection, memory
//! and latency growing without bound. Telemetry ingest sheds on its own bounded queues
//! first; this limit is the backstop for every write route. Reads are never limited.
//!
//! The limit is per server process, counted from the moment a request enters the app
//! until its handler has produced the response.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};

use crate::edge::NoStore;

/// State-changing requests handled at once before new ones get 503.
pub const MAX_WRITES_IN_FLIGHT: usize = 512;

/// The count of state-changing requests in flight (app data of the public app).
#[derive(Debug)]
pub struct WriteGate {
    in_flight: Arc<AtomicUsize>,
    max: usize,
}

/// One admitted request; leaving frees its place.
pub struct WritePermit(Arc<AtomicUsize>);

impl Drop for WritePermit {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl WriteGate {
    /// A gate admitting at most `max` requests at once.
    pub fn new(max: usize) -> WriteGate {
        WriteGate { in_flight: Arc::new(AtomicUsize::new(0)), max }
    }

    /// A place, unless `max` requests are in flight already.
    pub fn try_enter(&self) -> Option<WritePermit> {
        let admitted = self
            .in_flight
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < self.max).then_some(n + 1))
            .is_ok();
        admitted.then(|| WritePermit(self.in_flight.clone()))
    }

    /// Requests in flight now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }
}

/// The answer to a request past the limit.
pub fn busy() -> HttpResponse {
    HttpResponse::ServiceUnavailable()
        .insert_header((header::RETRY_AFTER, "1"))
        .no_store()
        .json(serde_json::json!({ "error": "The server is busy. Please try again in a moment." }))
}

/// Middleware (`actix_web::middleware::from_fn`): admits state-changing requests through
/// the app's [`WriteGate`], answering [`busy`] when it is full. Without a gate in the
/// app data every request passes.
pub async fn limit_writes(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody + 'static>>, actix_web::Error> {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let gate = if changes_state { req.app_data::<web::Data<WriteGate>>().cloned() } else { None };
    let permit = match gate {
        Some(gate) => match gate.try_enter() {
            Some(permit) => Some(permit),
            None => return Ok(req.into_response(busy()).map_into_right_body()),
        },
        None => None,
    };
    let response = next.call(req).await;
    drop(permit);
    Ok(response?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use actix_web::middleware::from_fn;
    use actix_web::{test as web_test, App};

    use super::*;

    #[test]
    fn the_gate_admits_up_to_its_maximum_and_frees_places() {
        let gate = WriteGate::new(2);
        let first = gate.try_enter().expect("a place");
        let _second = gate.try_enter().expect("a place");
        assert!(gate.try_enter().is_none(), "full");
        drop(first);
        assert_eq!(gate.in_flight(), 1);
        assert!(gate.try_enter().is_some(), "a place again");
    }

    #[actix_rt::test]
    async fn writes_past_the_limit_get_503_with_retry_after_and_reads_pass() {
        let gate = web::Data::new(WriteGate::new(1));
        let held = gate.try_enter().expect("the only place");
        let app = web_test::init_service(
            App::new()
                .app_data(gate.clone())
                .wrap(from_fn(limit_writes))
                .route("/w", web::post().to(HttpResponse::NoContent))
                .route("/w", web::get().to(HttpResponse::Ok)),
        )
        .await;
        let res = web_test::call_service(&app, web_test::TestRequest::post().uri("/w").to_request()).await;
        assert_eq!(res.status(), 503);
        assert_eq!(res.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
        let res = web_test::call_service(&app, web_test::TestRequest::get().uri("/w").to_request()).await;
        assert_eq!(res.status(), 200, "reads are not limited");
        drop(held);
        let res = web_test::call_service(&app, web_test::TestRequest::post().uri("/w").to_request()).await;
        assert_eq!(res.status(), 204);
        assert_eq!(gate.in_flight(), 0, "the place is given back after the answer");
    }
}
