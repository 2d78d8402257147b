//! The web-vitals histograms on the ops `/metrics`: each vital has buckets in its own
//! unit, holding its good and poor thresholds (CLS is unitless, not milliseconds).

use std::time::Duration;

use veranda_tests::eventually;

use super::demo;

/// The `le` bounds of `metric`'s buckets in `/metrics`, once the metric is there (waits up to 5 s).
async fn bucket_bounds(app: &super::App, metric: &str) -> Vec<String> {
    let prefix = format!("{metric}_bucket{{");
    eventually(Duration::from_secs(5), &format!("{metric} buckets in /metrics"), || async {
        let text = app.get_ops("/metrics").await;
        let text = text.text().await.expect("a body");
        let bounds: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with(&prefix) && l.contains("path=\"/about\""))
            .filter_map(|l| l.split("le=\"").nth(1)?.split('"').next().map(str::to_string))
            .collect();
        (!bounds.is_empty()).then_some(bounds)
    })
    .await
}

#[actix_rt::test]
async fn every_web_vital_is_a_histogram_with_buckets_in_its_own_unit() {
    let app = demo().await;
    let records = serde_json::json!([
        { "pageLoadId": "vitals-1", "name": "LCP", "value": 2100, "pagePath": "/about" },
        { "pageLoadId": "vitals-1", "name": "INP", "value": 180, "pagePath": "/about" },
        { "pageLoadId": "vitals-1", "name": "CLS", "value": 0.05, "pagePath": "/about" },
        { "pageLoadId": "vitals-1", "name": "FCP", "value": 900, "pagePath": "/about" },
        { "pageLoadId": "vitals-1", "name": "TTFB", "value": 120, "pagePath": "/about" }
    ])
    .to_string();
    assert_eq!(app.post_body("/api/1/performance/records", "text/plain", records, &[]).await.status(), 202);
    let expected = [
        ("veranda_webvitals_lcp_seconds", ["2.5", "4"]),
        ("veranda_webvitals_inp_seconds", ["0.2", "0.5"]),
        ("veranda_webvitals_cls", ["0.1", "0.25"]),
        ("veranda_webvitals_fcp_seconds", ["1.8", "3"]),
        ("veranda_webvitals_ttfb_seconds", ["0.8", "1.8"]),
    ];
    for (metric, thresholds) in expected {
        let bounds = bucket_bounds(&app, metric).await;
        assert!(!bounds.is_empty(), "{metric} is exported as a histogram");
        for threshold in thresholds {
            assert!(bounds.iter().any(|b| b == threshold), "{metric} has a bucket at {threshold}: {bounds:?}");
        }
        assert!(!bounds.iter().any(|b| b == "0.0005"), "{metric} does not use the request-duration buckets");
    }
}
