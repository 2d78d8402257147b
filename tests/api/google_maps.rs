//! `GET /api/google-maps/places/autocomplete` and `/places/details` (000 §7): without a
//! site key both answer 503 with a message (after a malformed request's 400); with a key, parameters are checked before
//! anything leaves the server (unknown, repeated, oversized or malformed ones are a 400),
//! so the proxy cannot be pointed anywhere else. No test calls Google. Also: the map
//! block carries the site's `[maps]` settings for the map island.

use serde_json::Value;
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_with_site, TestApp};

const AUTOCOMPLETE: &str = "/api/google-maps/places/autocomplete";
const DETAILS: &str = "/api/google-maps/places/details";

async fn get(app: &TestApp, target: &str) -> (u16, Value) {
    let res = app.get(target).await;
    let status = res.status().as_u16();
    (status, res.json().await.expect("a JSON answer"))
}

/// The demo site with a Google Maps key (and language and region) in `site.toml`.
fn keyed_site() -> tempfile::TempDir {
    demo_site_copy(|table| {
        let maps: toml::Table = toml::from_str(
            "googleMapsApiKey = \"test-key-not-real\"\nlanguage = \"fr\"\nregion = \"CA\"\ntileUrl = \"https://tiles.example.test/{z}/{x}/{y}.png\"\n",
        )
        .expect("maps table");
        table.insert("maps".into(), toml::Value::Table(maps));
    })
}

#[actix_rt::test]
async fn without_a_key_both_routes_answer_503_with_a_message() {
    let app = spawn_app().await;
    for target in [format!("{AUTOCOMPLETE}?input=Linden"), format!("{DETAILS}?placeId=ChIJ1")] {
        let (status, body) = get(&app, &target).await;
        assert_eq!(status, 503, "{target}: {body}");
        let message = body["error"].as_str().expect("an error message");
        assert!(message.contains("no Google Maps key"), "{message}");
    }
    // A malformed request is refused as such, key or not.
    for target in [AUTOCOMPLETE.to_string(), format!("{DETAILS}?placeId=not%20an%20id")] {
        let (status, body) = get(&app, &target).await;
        assert_eq!(status, 400, "{target}: {body}");
    }
    let posted = app.client.post(format!("{}{AUTOCOMPLETE}", app.address)).send().await.expect("answered");
    assert_eq!(posted.status().as_u16(), 405);
    assert_eq!(posted.headers()["allow"], "GET, HEAD");
}

#[actix_rt::test]
async fn with_a_key_bad_parameters_are_refused_before_any_upstream_call() {
    let dir = keyed_site();
    let app = spawn_app_with_site(dir.path()).await;
    let long = "a".repeat(2000);
    for (target, expected) in [
        (AUTOCOMPLETE.to_string(), "'input' is required."),
        (format!("{AUTOCOMPLETE}?input=a&key=mine"), "'key' is not a parameter of this route"),
        (format!("{AUTOCOMPLETE}?input=a&url=https%3A%2F%2Fevil.example%2F"), "'url' is not a parameter"),
        (format!("{AUTOCOMPLETE}?input=a&input=b"), "'input' is given more than once."),
        (format!("{AUTOCOMPLETE}?input=a&types=everything"), "'types' has a value that is not accepted."),
        (format!("{AUTOCOMPLETE}?input={long}"), "The query is longer than 1024 bytes."),
        (DETAILS.to_string(), "'placeId' is required."),
        (format!("{DETAILS}?placeId=..%2F..%2Fgeocode"), "'placeId' has a value that is not accepted."),
        (format!("{DETAILS}?placeId=a&productPage=a%20b"), "'productPage' has a value that is not accepted."),
    ] {
        let (status, body) = get(&app, &target).await;
        assert_eq!(status, 400, "{target}: {body}");
        let message = body["error"].as_str().expect("an error message");
        assert!(message.starts_with(expected), "{target}: {message}");
    }
}

#[actix_rt::test]
async fn the_map_block_carries_the_site_map_settings() {
    let app = spawn_app().await;
    let html = app.get("/contact").await.text().await.expect("page");
    assert!(html.contains(r#"data-tile-url="https://tile.openstreetmap.org/{z}/{x}/{y}.png""#), "default tiles");
    assert!(!html.contains("data-google-maps-key"), "no key by default");
    assert!(html.contains(r#"class="map-fallback""#), "the fallback address stays in the HTML");

    let dir = keyed_site();
    let app = spawn_app_with_site(dir.path()).await;
    let html = app.get("/contact").await.text().await.expect("page");
    assert!(html.contains(r#"data-tile-url="https://tiles.example.test/{z}/{x}/{y}.png""#), "{html}");
    assert!(html.contains(r#"data-google-maps-key="test-key-not-real" data-language="fr" data-region="CA""#));
}
