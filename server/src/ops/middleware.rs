//! Per-route request metrics for the public listener.
//!
//! The `route` label is the matched route pattern (e.g. `/s/{path:.*}`), never the raw
//! path, and the `method` label is one of the standard methods or `other`: a visitor
//! cannot create new time series by inventing URLs or methods.

use std::future::{ready, Ready};
use std::time::Instant;

use actix_web::dev::{forward_ready, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::{Method, StatusCode};
use futures_util::future::LocalBoxFuture;

use super::metrics::{install, ServerMetric, UNMATCHED_ROUTE};

/// Middleware recording request counts, latency and requests in flight per route.
pub struct RequestMetrics;

impl<S, B> Transform<S, ServiceRequest> for RequestMetrics
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: 'static,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Transform = RequestMetricsService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        install();
        ready(Ok(RequestMetricsService { service }))
    }
}

/// The service `RequestMetrics` wraps around the app.
pub struct RequestMetricsService<S> {
    /// The wrapped app.
    service: S,
}

impl<S, B> Service<ServiceRequest> for RequestMetricsService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: 'static,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Self::Error>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        let method = method_label(req.method());
        let route = req.match_pattern().unwrap_or_else(|| UNMATCHED_ROUTE.to_owned());
        let in_flight = InFlight::start();
        let fut = self.service.call(req);
        Box::pin(async move {
            let result = fut.await;
            let status = match &result {
                Ok(res) => res.status(),
                Err(error) => error.as_response_error().status_code(),
            };
            record(method, route, status, started);
            drop(in_flight);
            result
        })
    }
}

/// Counts a request in flight until dropped, also when the client goes away early.
struct InFlight;

impl InFlight {
    fn start() -> InFlight {
        metrics::gauge!(ServerMetric::HttpRequestsInFlight.name()).increment(1.0);
        InFlight
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        metrics::gauge!(ServerMetric::HttpRequestsInFlight.name()).decrement(1.0);
    }
}

/// Records one answered request.
fn record(method: &'static str, route: String, status: StatusCode, started: Instant) {
    metrics::histogram!(ServerMetric::HttpRequestDuration.name(), "method" => method, "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    metrics::counter!(
        ServerMetric::HttpRequests.name(),
        "method" => method,
        "route" => route,
        "status" => status.as_str().to_owned()
    )
    .increment(1);
}

/// The `method` label: a standard method's name, or `other`.
fn method_label(method: &Method) -> &'static str {
    const KNOWN: [(Method, &str); 9] = [
        (Method::GET, "GET"),
        (Method::HEAD, "HEAD"),
        (Method::POST, "POST"),
        (Method::PUT, "PUT"),
        (Method::DELETE, "DELETE"),
        (Method::PATCH, "PATCH"),
        (Method::OPTIONS, "OPTIONS"),
        (Method::CONNECT, "CONNECT"),
        (Method::TRACE, "TRACE"),
    ];
    KNOWN.iter().find(|(known, _)| known == method).map_or("other", |(_, label)| label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invented_methods_share_one_label() {
        assert_eq!(method_label(&Method::POST), "POST");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").expect("valid token")), "other");
    }
}
