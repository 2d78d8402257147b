//! `GET /api/google-maps/places/autocomplete` and `/places/details` (000 §7): without a
//! server key (`veranda.toml`) both answer 503 with a message (after a malformed request's 400); with a key, parameters are checked before
//! anything leaves the server (unknown, repeated, oversized or malformed ones are a 400),
//! so the proxy cannot be pointed anywhere else; with a key, calls go to the operator's
//! `[maps] places_upstream` (here a stand-in on 127.0.0.1) with the server key added and the
//! tracking context kept back. No test calls Google. Also: the map
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
pub(crate) fn keyed_site() -> tempfile::TempDir {
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

/// What the stand-in Places service was asked: path and query pairs.
pub(crate) type Asked = std::sync::Arc<std::sync::Mutex<Vec<(String, Vec<(String, String)>)>>>;

/// A stand-in for the Places web service on 127.0.0.1: it answers every call with the
/// path and parameters it got, except `input=huge` (a 300 KB answer), `input=text` (not
/// JSON), `input=quota` (Google's over-quota answer, a 429 with JSON) and `input=slow` (answered after 3 s).
pub(crate) async fn places_stand_in() -> (String, Asked) {
    use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
    let asked: Asked = Asked::default();
    let seen = asked.clone();
    let server = HttpServer::new(move || {
        let seen = seen.clone();
        App::new().default_service(web::to(move |req: HttpRequest| {
            let seen = seen.clone();
            async move {
                let query =
                    web::Query::<Vec<(String, String)>>::from_query(req.query_string()).expect("a query").into_inner();
                seen.lock().expect("asked").push((req.path().to_string(), query.clone()));
                let input = query.iter().find(|(k, _)| k == "input").map(|(_, v)| v.as_str());
                match input {
                    Some("huge") => HttpResponse::Ok().json(serde_json::json!({ "pad": "x".repeat(300 * 1024) })),
                    Some("text") => HttpResponse::Ok().content_type("text/html").body("<html>not json</html>"),
                    Some("slow") => {
                        actix_rt::time::sleep(std::time::Duration::from_secs(3)).await;
                        HttpResponse::Ok().json(serde_json::json!({ "status": "OK", "path": req.path() }))
                    }
                    Some("quota") => {
                        HttpResponse::TooManyRequests().json(serde_json::json!({ "status": "OVER_QUERY_LIMIT" }))
                    }
                    _ => HttpResponse::Ok().json(serde_json::json!({ "status": "OK", "path": req.path() })),
                }
            }
        }))
    })
    .workers(1)
    .bind(("127.0.0.1", 0))
    .expect("the stand-in binds");
    let address = server.addrs()[0];
    actix_rt::spawn(server.run());
    (format!("http://{address}/maps/api/place"), asked)
}

#[actix_rt::test]
async fn with_a_key_calls_are_forwarded_with_the_key_and_without_the_tracking_context() {
    let (upstream, asked) = places_stand_in().await;
    let dir = keyed_site();
    let app = veranda_tests::spawn_app_configured(dir.path(), |s| {
        s.maps.places_upstream = upstream;
        s.maps.server_key = "server-key-not-real".into();
    })
    .await;

    let (status, body) = get(&app, &format!("{AUTOCOMPLETE}?input=12%20Linden&sessiontoken=abc-1&language=en")).await;
    assert_eq!((status, body["path"].as_str()), (200, Some("/maps/api/place/autocomplete/json")), "{body}");
    let (status, body) =
        get(&app, &format!("{DETAILS}?placeId=ChIJ_abc-1&productPage=checkout&productSection=address")).await;
    assert_eq!((status, body["path"].as_str()), (200, Some("/maps/api/place/details/json")), "{body}");
    // Untracked details are still answered (the server logs the missing context).
    let (status, _) = get(&app, &format!("{DETAILS}?placeId=ChIJ2")).await;
    assert_eq!(status, 200);

    let calls = asked.lock().expect("asked").clone();
    let pairs = |i: usize| calls[i].1.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>();
    assert_eq!(pairs(0), ["input=12 Linden", "sessiontoken=abc-1", "language=en", "key=server-key-not-real"]);
    assert_eq!(pairs(1), ["place_id=ChIJ_abc-1", "key=server-key-not-real"], "tracking stays on this server");
    assert_eq!(pairs(2), ["place_id=ChIJ2", "key=server-key-not-real"]);

    // The service's own refusal is passed on; an oversized or non-JSON answer is a 502.
    let (status, body) = get(&app, &format!("{AUTOCOMPLETE}?input=quota")).await;
    assert_eq!((status, body["status"].as_str()), (429, Some("OVER_QUERY_LIMIT")));
    for input in ["huge", "text"] {
        let (status, body) = get(&app, &format!("{AUTOCOMPLETE}?input={input}")).await;
        assert_eq!(status, 502, "{input}: {body}");
        assert_eq!(body["error"], "The place service did not answer. Try again.");
    }
    // Nothing reaches the service for a refused call.
    let before = asked.lock().expect("asked").len();
    let (status, _) = get(&app, &format!("{AUTOCOMPLETE}?input=a&key=mine")).await;
    assert_eq!(status, 400);
    assert_eq!(asked.lock().expect("asked").len(), before);
}
