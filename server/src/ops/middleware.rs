//! Per-route request metrics for the public listener.
//!
//! The `route` label is the matched route pattern (e.g. `/s/{path:.*}`), never the raw
//! path, and the `method` label is one of the standard methods or `other`: a visitor
//! cannot create new time series by inventing URLs or methods.

use std::cell::RefCell;
use std::collections::HashSet;
use std::future::{ready, Ready};
use std::sync::Mutex;
use std::time::Instant;

use actix_web::dev::{forward_ready, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::{Method, StatusCode};
use actix_web::HttpRequest;
use futures_util::future::LocalBoxFuture;
use veranda_actors::tables::FastMap;

use super::durations;
use super::metrics::{install, ServerMetric, CONTENT_ROUTE, UNMATCHED_ROUTE};

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
        let in_flight = InFlight::start();
        let fut = self.service.call(req);
        Box::pin(async move {
            let result = fut.await;
            // The route is read once the request was routed: the pattern that took it.
            let (route, status) = match &result {
                Ok(res) => (route_label(res.request()), res.status()),
                Err(error) => (UNMATCHED_ROUTE, error.as_response_error().status_code()),
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
        IN_FLIGHT.with(|gauge| gauge.increment(1.0));
        InFlight
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.with(|gauge| gauge.decrement(1.0));
    }
}

/// Paths whose route pattern each worker thread remembers. Finding a path's pattern
/// walks the whole route map, and most requests repeat a few paths; past this many
/// paths (visitors can invent any number) the pattern is found again each time.
const ROUTE_CACHE_PATHS: usize = 1024;

thread_local! {
    /// The in-flight gauge's handle, looked up once per worker thread (after the
    /// recorder is installed: `new_transform` runs before the worker takes requests).
    static IN_FLIGHT: metrics::Gauge = metrics::gauge!(ServerMetric::HttpRequestsInFlight.name());
    /// Route pattern by request path, on this worker thread.
    static ROUTES: RefCell<FastMap<Box<str>, &'static str>> = RefCell::default();
    /// The duration histogram and request counter of each (method, route, status) seen on
    /// this worker thread, registered once. Every label is one of a fixed set (standard
    /// methods, route patterns, status codes), so this stays as small as the series.
    static SERIES: RefCell<FastMap<SeriesKey, (Option<prometheus::Histogram>, metrics::Counter)>> = RefCell::default();
}

/// A request series' labels: method, route pattern, status code.
type SeriesKey = (&'static str, &'static str, u16);

/// The route patterns seen, each kept once for the life of the process. They come from
/// the app's route definitions, so there are as many as there are routes.
static PATTERNS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// The pattern `pattern` as a `'static` label.
fn intern(pattern: String) -> &'static str {
    let mut patterns = PATTERNS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let patterns = patterns.get_or_insert_with(HashSet::new);
    if let Some(known) = patterns.get(pattern.as_str()) {
        return known;
    }
    let label: &'static str = Box::leak(pattern.into_boxed_str());
    patterns.insert(label);
    label
}

/// The `route` label of the routed `req`: its matched route pattern, or [`CONTENT_ROUTE`]
/// for the content links the default service answers.
fn route_label(req: &HttpRequest) -> &'static str {
    let path = req.path();
    if let Some(route) = ROUTES.with(|routes| routes.borrow().get(path).copied()) {
        return route;
    }
    let route = req.match_pattern().map_or(CONTENT_ROUTE, intern);
    ROUTES.with(|routes| {
        let mut routes = routes.borrow_mut();
        if routes.len() < ROUTE_CACHE_PATHS {
            routes.insert(path.into(), route);
        }
    });
    route
}

/// Records one answered request.
fn record(method: &'static str, route: &'static str, status: StatusCode, started: Instant) {
    let elapsed = started.elapsed().as_secs_f64();
    SERIES.with(|series| {
        let mut series = series.borrow_mut();
        let (duration, requests) = series.entry((method, route, status.as_u16())).or_insert_with(|| {
            let duration = durations::series(method, route);
            let requests = metrics::counter!(
                ServerMetric::HttpRequests.name(),
                "method" => method,
                "route" => route,
                "status" => status.as_str().to_owned()
            );
            (duration, requests)
        });
        if let Some(duration) = duration {
            duration.observe(elapsed);
        }
        requests.increment(1);
    });
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
    fn route_labels_are_patterns_remembered_per_path_up_to_the_cap() {
        use actix_web::test::TestRequest;

        let labelled = |path: &str| route_label(&TestRequest::with_uri(path).to_http_request());
        assert_eq!(labelled("/a"), "/{path:.*}", "what no route takes is a content link");
        for n in 0..(ROUTE_CACHE_PATHS * 2) {
            labelled(&format!("/invented/{n}"));
        }
        assert_eq!(ROUTES.with(|r| r.borrow().len()), ROUTE_CACHE_PATHS, "invented paths cannot grow it");
        assert_eq!(intern("/s/{path}".to_owned()).as_ptr(), intern("/s/{path}".to_owned()).as_ptr(), "one copy");
    }

    #[test]
    fn invented_methods_share_one_label() {
        assert_eq!(method_label(&Method::POST), "POST");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").expect("valid token")), "other");
    }
}
