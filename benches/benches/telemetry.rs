//! Micro-benchmarks of the telemetry edge: visit-cookie parsing and the visit rule,
//! analytics-id validation, error fingerprinting, error-report parsing, stored error
//! entries (deltas against whole records), and census
//! payload parsing (`RecordHit`'s form decoding and `data` reading, with the route's own
//! `Form::parse` and `PageFields::read`, beside `json_object`'s whole value), and the sharded visitor sessions: what one shard does
//! for a new visitor (choosing the shard by the minted id, then starting its session).
//!
//! Run: `cargo bench -p veranda-benches --bench telemetry`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::net::IpAddr;
use std::sync::Arc;
use veranda_actors::store::{SledStore, Store};
use veranda_actors::telemetry::cookie::{next_visit, VisitorCookie, VisitorId};
use veranda_actors::telemetry::shards::shard_of;
use veranda_actors::telemetry::{TelemetryLimits, TelemetryWriter, VisitorSessions};

use serde_json::value::RawValue;
use veranda_actors::telemetry::errors::{fingerprint, parse_reports, Entry, RecentError, RECORDS_PER_ENTRY};
use veranda_actors::telemetry::session_ids::AnalyticsIds;
use veranda_server::routes::telemetry::ingest::{json_object, Form};
use veranda_server::routes::telemetry::page_fields::PageFields;

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
    c.bench_function("telemetry/analytics_ids_brought", |b| {
        b.iter(|| {
            AnalyticsIds::brought(
                black_box(Some("3f1c2a9e-77aa-4f1e-9c3d-0b1d2e3f4a5b")),
                black_box(Some("9a8b7c6d-77aa-4f1e-9c3d-0b1d2e3f4a5b")),
            )
        })
    });
}

/// A `RecordHit` body as the loader sends it: `event`, `data` (spec 000 §7 fields), `ss_cvr`.
fn record_hit_body() -> String {
    let data = serde_json::json!({ "userAgent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120",
        "clientDate": 1_700_000_000_000u64, "viewportInnerWidth": 1280, "viewportInnerHeight": 720,
        "screenWidth": 1920, "screenHeight": 1080, "websiteId": "51ee8ec89a317a31733c9281",
        "templateId": "51ee8ec89a317a31733c9282", "website_locale": "en-US",
        "url": "https://example.com/about?utm_source=news", "title": "About", "collectionId": "c1",
        "recordType": 2, "queryString": "?utm_source=news", "referrer": "https://news.example/",
        "localStorageSupported": true })
    .to_string();
    serde_urlencoded::to_string([("event", "view"), ("data", data.as_str()), ("ss_cvr", "")]).unwrap_or_default()
}

fn census(c: &mut Criterion) {
    let body = record_hit_body();
    c.bench_function("telemetry/parse_record_hit", |b| {
        b.iter(|| {
            // What the RecordHit route does with its body, with the server's own parsers:
            // the fields it reads, then the data kept as sent.
            let form = Form::parse(black_box(body.as_bytes()));
            let text = form.require("data").ok()?;
            let fields = PageFields::read(text).ok()?;
            let data = serde_json::from_str::<&RawValue>(text).ok()?;
            Some((fields, black_box(data).get().len()))
        })
    });
    c.bench_function("telemetry/parse_record_hit_as_value", |b| {
        b.iter(|| {
            // The baseline: `data` parsed into a JSON value, as the route did before.
            let form = Form::parse(black_box(body.as_bytes()));
            json_object("data", form.require("data").ok()?).ok()
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

    // One stored entry of a storm: the same error from 64 page loads, as deltas and, for
    // comparison, as 64 whole records.
    let report = parse_reports(body.as_bytes()).expect("valid").remove(0);
    let records: Vec<Arc<RecentError>> = (0..RECORDS_PER_ENTRY as u64)
        .map(|n| {
            let mut report = report.clone();
            report.page_load_id = Some(format!("load-{n}"));
            Arc::new(RecentError { at: 1_700_000_000_000 + n, fingerprint: "4f1c2a9d0b7e3f68".into(), report })
        })
        .collect();
    c.bench_function("telemetry/store_error_entry_deltas", |b| {
        b.iter(|| serde_json::to_vec(&Entry(black_box(&records))))
    });
    c.bench_function("telemetry/store_error_entry_whole", |b| {
        b.iter(|| serde_json::to_vec(&black_box(&records).iter().map(|r| &**r).collect::<Vec<&RecentError>>()))
    });
}

/// The visitor sessions' share of the work for a hit of a new visitor (no `ss_cvr`): mint
/// the id, pick its shard, start its session on a shard holding its share of the default
/// bounds. Changed sessions are taken every 4,096 hits, as the write interval would.
fn sharded_visits(c: &mut Criterion) {
    const SHARDS: usize = 4;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("the store opens"));
    let writer = TelemetryWriter::start(store.clone());
    let mut sessions = VisitorSessions::new(store, writer, &TelemetryLimits::default().shard(SHARDS));
    let address = IpAddr::from([203, 0, 113, 7]);
    let mut hits = 0u32;
    c.bench_function("telemetry/new_visitor_on_its_shard", |b| {
        b.iter(|| {
            let now = 1_700_000_000_000;
            let outcome = next_visit(None, None, now, || VisitorId::time_ordered(now));
            black_box(shard_of(outcome.cookie.id.as_str().as_bytes(), SHARDS));
            let state = sessions.visit(&outcome, address, now);
            hits = hits.wrapping_add(1);
            if hits.is_multiple_of(4096) {
                black_box(sessions.take_changed());
            }
            state
        })
    });
}

criterion_group!(benches, cookies, errors, census, sharded_visits);
criterion_main!(benches);
