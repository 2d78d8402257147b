//! Micro-benchmarks of the telemetry edge: visit-cookie parsing and the visit rule,
//! error fingerprinting, and error-report parsing.
//!
//! Run: `cargo bench -p veranda-benches --bench telemetry`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use veranda_actors::telemetry::cookie::{next_visit, VisitorCookie, VisitorId};
use veranda_actors::telemetry::errors::{fingerprint, parse_reports};

fn cookies(c: &mut Criterion) {
    c.bench_function("telemetry/visitor_cookie_parse", |b| {
        b.iter(|| {
            VisitorCookie::parse(black_box(
                "3f1c2a9e-77aa-4f1e-9c3d-0b1d2e3f4a5b|1700000000000|1700000100000|1700000200000|42",
            ))
        })
    });
    c.bench_function("telemetry/next_visit_expired", |b| {
        b.iter(|| {
            next_visit(
                black_box(Some("visitor-1|1700000000000|1700000100000|1700000200000|42")),
                black_box(Some("1700000200000")),
                1_700_009_000_000,
                VisitorId::random,
            )
        })
    });
}

fn errors(c: &mut Criterion) {
    c.bench_function("telemetry/fingerprint", |b| {
        b.iter(|| {
            fingerprint(
                black_box("Cannot read properties of undefined (reading 'item 42')"),
                black_box("https://example.com/assets/loader-3fa9c01b.js?v=12#x"),
                Some(1),
                Some(18_443),
            )
        })
    });
    let body = serde_json::json!([{ "event": "error", "timestamp": 1_700_000_000_000u64, "data": {
        "websiteId": "w", "templateId": "t", "url": "https://example.com/about", "userAgent": "Mozilla/5.0",
        "app": "loader", "message": "boom", "stack": "Error: boom\n    at a (x.js:1:2)\n".repeat(40),
        "file": "https://example.com/assets/x.js", "line": 1, "column": 2 } }])
    .to_string();
    c.bench_function("telemetry/parse_error_report", |b| b.iter(|| parse_reports(black_box(body.as_bytes()))));
}

criterion_group!(benches, cookies, errors);
criterion_main!(benches);
