//! The OpenAPI document (`server/openapi/openapi.json`, served at `/api/openapi.json`)
//! against the server: it is served as kept, every path and method it describes is
//! routed, the other methods of those paths get 405, and every `/api/` route the route
//! modules register is described. Also the regressions of the server errors the
//! schemathesis run (`tests/openapi/run.sh`) found.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use veranda_tests::{repo_root, spawn_app, TestApp};

/// The methods a path item may describe, as OpenAPI names them.
const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

fn document() -> Value {
    let path = repo_root().join("server/openapi/openapi.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("the document is JSON")
}

/// `/a/{id}/b` and `/a/{id:.*}` both become `/a/{}/b`, `/a/{}`.
fn normalise(path: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    out.push_str("{}");
                }
                depth += 1;
            }
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A value for a parameter: its example, its first enum value, else a placeholder.
fn sample(parameter: &Value) -> String {
    let schema = &parameter["schema"];
    if let Some(example) = parameter.get("example").or_else(|| schema.get("example")) {
        return example.as_str().map(str::to_string).unwrap_or_else(|| example.to_string());
    }
    if let Some(first) = schema["enum"].get(0) {
        return first.as_str().map(str::to_string).unwrap_or_else(|| first.to_string());
    }
    match schema["type"].as_str() {
        Some("integer") | Some("number") => "1".to_string(),
        _ => "x0".to_string(),
    }
}

/// The request target of an operation: path parameters filled in (declared by any
/// operation of the path, so a method the path does not describe can be tried too),
/// the operation's required query parameters added.
fn target(path: &str, item: &Value, method: &str) -> String {
    let declared = |operation: &Value| operation["parameters"].as_array().cloned().unwrap_or_default();
    let mut url = path.to_string();
    let everywhere = std::iter::once(&item["parameters"]).chain(METHODS.iter().map(|m| &item[*m]));
    for parameter in everywhere.flat_map(declared).filter(|p| p["in"] == "path") {
        let name = parameter["name"].as_str().expect("a parameter has a name");
        url = url.replace(&format!("{{{name}}}"), &sample(&parameter));
    }
    assert!(!url.contains('{'), "{path}: a path parameter is not declared");
    let query: Vec<String> = declared(&item[method])
        .iter()
        .filter(|p| p["in"] == "query" && p["required"] == true)
        .map(|p| format!("{}={}", p["name"].as_str().unwrap_or_default(), sample(p)))
        .collect();
    if query.is_empty() {
        url
    } else {
        format!("{url}?{}", query.join("&"))
    }
}

/// Whether an answer is the router's, not a described route's: 405 (no such method
/// here), or the site's not-found page (a full page with its page context), which every
/// path no route claims falls through to.
fn unrouted(status: u16, body: &str) -> bool {
    status == 405 || (status == 404 && body.contains("id=\"page-context\""))
}

async fn send(app: &TestApp, method: &str, url: &str) -> (u16, String) {
    let method = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()).expect("a method");
    let response = app.client.request(method, url).send().await.expect("the request is answered");
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

fn base<'a>(app: &'a TestApp, path: &str) -> &'a str {
    // `/health/live` is on the ops listener (the document gives it that server).
    if path.starts_with("/health/") {
        &app.ops_address
    } else {
        &app.address
    }
}

#[actix_rt::test]
async fn the_server_serves_the_document_as_kept() {
    let app = spawn_app().await;
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().expect("ascii").to_string();
    assert!(content_type.starts_with("application/json"), "{content_type}");
    let served: Value = response.json().await.expect("JSON");
    assert_eq!(served, document());
    assert!(served["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
    let schemes = &served["components"]["securitySchemes"];
    assert_eq!(schemes["session"]["name"], veranda_actors::accounts::SESSION_COOKIE);
    assert_eq!(schemes["crumbCookie"]["name"], veranda_server::security::crumb::CRUMB_COOKIE);
    assert_eq!(schemes["crumbHeader"]["name"], "X-CSRF-Token", "the header docs/security.md names");
    assert_eq!(schemes["crumbQuery"]["name"], "crumb");
    let posted = app.client.post(format!("{}/api/openapi.json", app.address)).send().await.expect("answered");
    assert_eq!(posted.status(), 405);
}

#[actix_rt::test]
async fn the_router_fallthrough_is_recognised() {
    // Guards `unrouted`: paths no route claims must be told apart from described routes.
    let app = spawn_app().await;
    for method in ["get", "post", "put", "delete", "patch"] {
        let (status, body) = send(&app, method, &format!("{}/api/no-such-route/x0", app.address)).await;
        assert!(unrouted(status, &body), "{method} on an unrouted path answered {status}: {body:.200}");
    }
}

#[actix_rt::test]
async fn every_described_operation_is_routed_and_other_methods_get_405() {
    let app = spawn_app().await;
    let doc = document();
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() > 40, "the document describes the API");
    let mut problems = Vec::new();
    for (path, item) in paths {
        for method in METHODS {
            let url = format!("{}{}", base(&app, path), target(path, item, method));
            let (status, body) = send(&app, method, &url).await;
            let described = item.get(method).is_some();
            if described && unrouted(status, &body) {
                problems
                    .push(format!("{} {path}: described, but answered {status} (not routed)", method.to_uppercase()));
            }
            // A 5xx is a fault unless the operation documents it (e.g. 503 for a service the
            // site has not configured).
            let documented = item[method]["responses"].get(status.to_string()).is_some();
            if described && status >= 500 && !documented {
                problems.push(format!("{} {path}: answered {status}: {body:.200}", method.to_uppercase()));
            }
            if !described && !path.starts_with("/health/") && status != 405 {
                problems
                    .push(format!("{} {path}: not described, but answered {status}, not 405", method.to_uppercase()));
            }
        }
    }
    assert!(problems.is_empty(), "the document and the server disagree:\n{}", problems.join("\n"));
}

/// Every string literal starting `/api/` in the non-test code of the route modules,
/// cut at `?` and normalised.
fn api_literals(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("the routes folder is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            api_literals(&path, out);
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a route module is readable");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let mut rest = line;
            while let Some(at) = rest.find("\"/api/") {
                let literal = &rest[at + 1..];
                let end = literal.find('"').unwrap_or(literal.len());
                let route = literal[..end].split('?').next().unwrap_or_default();
                out.insert(normalise(route));
                rest = &literal[end..];
            }
        }
    }
}

#[test]
fn every_registered_api_route_is_described() {
    let mut registered = BTreeSet::new();
    api_literals(&repo_root().join("server/src/routes"), &mut registered);
    assert!(registered.len() > 30, "the route modules were read: {registered:?}");
    let doc = document();
    let described: BTreeSet<String> = doc["paths"].as_object().expect("paths").keys().map(|p| normalise(p)).collect();
    let missing: Vec<&String> = registered.iter().filter(|r| !described.contains(*r)).collect();
    assert!(missing.is_empty(), "registered /api/ routes missing from server/openapi/openapi.json: {missing:?}");
    let stale: Vec<&String> = described.iter().filter(|p| p.starts_with("/api/") && !registered.contains(*p)).collect();
    assert!(stale.is_empty(), "described /api/ paths no route module registers: {stale:?}");
}

#[test]
fn every_operation_is_complete() {
    let doc = document();
    let mut ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            let Some(operation) = item.get(method) else { continue };
            let id = operation["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path}: no operationId"));
            assert!(ids.insert(id.to_string()), "operationId {id} is used twice");
            let responses = operation["responses"].as_object().expect("responses");
            assert!(!responses.is_empty(), "{method} {path}: no responses");
            assert!(operation["security"].is_array(), "{method} {path}: security is not stated");
        }
    }
}

/// Found by schemathesis: a JSON array was read as an event object (serde reads a struct
/// from a sequence) and accepted with 202.
#[actix_rt::test]
async fn a_v1_event_must_be_a_json_object() {
    let app = spawn_app().await;
    let post = |body: &'static str| {
        app.client
            .post(format!("{}/api/v1/events", app.address))
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };
    for body in ["[null, null]", "[]", "[\"id\", {}, {}, \"schema\"]", "\"text\"", "7"] {
        let response = post(body).await.expect("answered");
        assert_eq!(response.status(), 400, "{body}");
        let answer: Value = response.json().await.expect("a JSON refusal");
        assert!(answer["error"].as_str().is_some_and(|e| e.contains("JSON event object")), "{body}: {answer}");
    }
    let accepted = post(r#"{"commonData": {"pagePath": "/"}, "customData": {}}"#).await.expect("answered");
    assert_eq!(accepted.status(), 202);
}

#[actix_rt::test]
async fn a_cart_entry_is_described_field_by_field_plan_terms_included() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    let entry = &schemas["CartEntry"];
    let app = spawn_app().await;
    let mut shopper = veranda_tests::Visitor::new(&app).await;
    let body = serde_json::json!({ "sku": "VER-SUB-MONTHLY" });
    let cart: Value = shopper.post("/api/commerce/cart/entries", &body).await.json().await.expect("a cart");
    let answered = cart["entries"][0].as_object().expect("an entry");
    for (field, value) in answered {
        assert!(entry["properties"].get(field).is_some(), "{field} is not described");
        if let Some(required) = entry["required"].as_array() {
            assert!(field == "planTerms" || required.contains(&Value::from(field.as_str())), "{field} is required");
        }
        if field == "planTerms" {
            let terms = &schemas["PlanTerms"];
            let described: BTreeSet<&str> =
                terms["properties"].as_object().expect("properties").keys().map(String::as_str).collect();
            let sent: BTreeSet<&str> = value.as_object().expect("an object").keys().map(String::as_str).collect();
            assert_eq!(described, sent);
        }
    }
    assert!(answered.contains_key("planTerms"), "the demo subscription's entry has its terms");
    assert_eq!(
        doc["components"]["schemas"]["Cart"]["properties"]["entries"]["items"]["$ref"],
        "#/components/schemas/CartEntry"
    );
}
