//! Load shedding on the public listener: at most [`MAX_WRITES_IN_FLIGHT`] state-changing
//! requests (any method but GET, HEAD and OPTIONS) are handled at once; past that a
//! request is answered `503 Service Unavailable` with `Retry-After: 1`, without its
//! handler doing any work.
//!
//! Durable writes wait for the disk (group commit), so when the store cannot keep up the
//! requests waiting for it would otherwise pile up with every open connection, memory
//! and latency growing without bound. Telemetry ingest sheds on its own bounded queues
//! first; this limit is the backstop for every write route. Reads are never limited.
//!
//! A request takes its place when its handler can start working: at once if it has no
//! body, else when its body has arrived whole ([`body::GuardedBody`]). A client trickling
//! a body therefore holds no place, and every body must arrive within
//! `body_read_timeout_secs` of the request's start (else 408, and the connection closes).
//! The place is held until the handler has produced the response.

pub mod body;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};

use self::body::{BodyFate, GuardedBody};
use crate::edge::NoStore;

/// State-changing requests handled at once before new ones get 503.
pub const MAX_WRITES_IN_FLIGHT: usize = 512;

/// The count of state-changing requests in flight (app data of the public app).
#[derive(Debug, Clone)]
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

/// The answer to a body that did not arrive within its deadline; the connection closes.
pub fn too_slow() -> HttpResponse {
    let mut answer = HttpResponse::RequestTimeout();
    answer.force_close();
    answer.no_store().json(serde_json::json!({ "error": "The request body took too long to arrive." }))
}

/// How long a request body may take to arrive (app data of the public app; without it,
/// [`DEFAULT_BODY_READ_TIMEOUT`]).
#[derive(Debug, Clone, Copy)]
pub struct BodyReadTimeout(pub Duration);

/// The body-read timeout when none is registered.
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(15);

/// Whether a request carries a body (a length above zero or a chunked one); an upgrade
/// (WebSocket) carries a connection, not a body.
fn has_body(req: &ServiceRequest) -> bool {
    if req.head().upgrade() {
        return false;
    }
    let headers = req.headers();
    let announced =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
    announced.map_or_else(|| headers.contains_key(header::TRANSFER_ENCODING), |length| length > 0)
}

/// Middleware (`actix_web::middleware::from_fn`): gives every request body its deadline,
/// and admits state-changing requests through the app's [`WriteGate`] once their body has
/// arrived, answering [`busy`] when it is full and [`too_slow`] when the body is late.
/// Without a gate in the app data every request passes the gate.
pub async fn limit_writes(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody + 'static>>, actix_web::Error> {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let gate = if changes_state { req.app_data::<web::Data<WriteGate>>().map(|g| g.get_ref().clone()) } else { None };
    let fate = Rc::new(RefCell::new(BodyFate::Arriving));
    let mut permit = None;
    if has_body(&req) {
        let timeout = req.app_data::<web::Data<BodyReadTimeout>>().map_or(DEFAULT_BODY_READ_TIMEOUT, |t| t.0);
        let guarded =
            GuardedBody::new(std::mem::replace(req.parts_mut().1, Payload::None), timeout, gate, fate.clone());
        req.set_payload(Payload::Stream { payload: Box::pin(guarded) });
    } else if let Some(gate) = gate {
        match gate.try_enter() {
            Some(held) => permit = Some(held),
            None => return Ok(req.into_response(busy()).map_into_right_body()),
        }
    }
    let response = next.call(req).await?;
    drop(permit);
    let fate = std::mem::take(&mut *fate.borrow_mut());
    let replacement = match fate {
        BodyFate::Refused => busy(),
        BodyFate::TimedOut => too_slow(),
        BodyFate::Arriving | BodyFate::Arrived(_) => return Ok(response.map_into_left_body()),
    };
    let (request, _) = response.into_parts();
    Ok(ServiceResponse::new(request, replacement).map_into_right_body())
}

#[cfg(test)]
mod tests {
    use actix_web::middleware::from_fn;
    use actix_web::{test as web_test, App};
    use futures_util::StreamExt;

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

    /// A body that sends `first` and then nothing more, ever.
    fn trickling(first: &'static [u8]) -> Payload {
        let stream =
            futures_util::stream::iter([Ok::<_, actix_web::error::PayloadError>(web::Bytes::from_static(first))])
                .chain(futures_util::stream::pending());
        Payload::Stream { payload: Box::pin(stream) }
    }

    async fn echo(body: web::Bytes) -> HttpResponse {
        HttpResponse::Ok().body(body)
    }

    #[actix_rt::test]
    async fn a_trickling_body_holds_no_place_and_is_cut_off_at_its_deadline() {
        let gate = web::Data::new(WriteGate::new(1));
        let app = web_test::init_service(
            App::new()
                .app_data(gate.clone())
                .app_data(web::Data::new(BodyReadTimeout(Duration::from_millis(200))))
                .wrap(from_fn(limit_writes))
                .route("/w", web::post().to(echo)),
        )
        .await;
        let slow = web_test::TestRequest::post().uri("/w").insert_header(("content-length", "1000")).to_request();
        let (slow, _) = slow.replace_payload(trickling(b"a few bytes"));
        let slow = web_test::call_service(&app, slow);
        let quick = async {
            actix_rt::time::sleep(Duration::from_millis(50)).await;
            assert_eq!(gate.in_flight(), 0, "a body still arriving holds no place");
            web_test::call_service(&app, web_test::TestRequest::post().uri("/w").set_payload("whole").to_request())
                .await
        };
        let (slow, quick) = futures_util::join!(slow, quick);
        assert_eq!(quick.status(), 200, "a whole body passes the gate while another trickles");
        assert_eq!(slow.status(), 408);
        assert!(!slow.response().head().keep_alive(), "the connection of a late body closes");
        let body = web_test::read_body(slow).await;
        assert_eq!(body, r#"{"error":"The request body took too long to arrive."}"#);
        assert_eq!(gate.in_flight(), 0);
    }

    #[actix_rt::test]
    async fn a_body_that_arrives_while_the_gate_is_full_is_answered_503() {
        let gate = web::Data::new(WriteGate::new(1));
        let app = web_test::init_service(
            App::new().app_data(gate.clone()).wrap(from_fn(limit_writes)).route("/w", web::post().to(echo)),
        )
        .await;
        let held = gate.try_enter().expect("the only place");
        let req = web_test::TestRequest::post().uri("/w").set_payload("whole").to_request();
        let res = web_test::call_service(&app, req).await;
        assert_eq!(res.status(), 503);
        assert_eq!(res.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
        drop(held);
        let req = web_test::TestRequest::post().uri("/w").set_payload("whole").to_request();
        let res = web_test::call_service(&app, req).await;
        assert_eq!(res.status(), 200);
        assert_eq!(web_test::read_body(res).await, "whole");
        assert_eq!(gate.in_flight(), 0, "the place is given back after the answer");
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
