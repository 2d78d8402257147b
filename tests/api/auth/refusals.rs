//! The account refusals in the data layer's shape (spec 000 §8 "Data layer"): a call that
//! needs a signed-in account answers 401 `{error, loginRequired: true}` to a visitor, and
//! a signed-in account without the access gets 403 `{error, authorizationFail: true}`.

use serde_json::Value;
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::{spawn_app, TestApp};

/// Calls that need an account, each with the access the editor below lacks.
const GATED: [&str; 7] = [
    "/api/commerce/orders",
    "/api/form/forms",
    "/api/form/submissions?formId=contact",
    "/api/stats/visitors",
    "/api/stats/series?range=30d",
    "/api/stats/top",
    "/api/events/errors",
];

async fn answer(app: &TestApp, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let res = match cookie {
        Some(cookie) => app.get_with(path, &[("cookie", cookie)]).await,
        None => app.get(path).await,
    };
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[actix_rt::test]
async fn a_visitor_calling_an_account_api_gets_401_login_required() {
    let app = spawn_app().await;
    for path in GATED.iter().chain(&["/api/site-users/account"]) {
        let (status, body) = answer(&app, path, None).await;
        assert_eq!(status, 401, "{path}");
        assert_eq!(body["loginRequired"], Value::Bool(true), "{path}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {body}");
        assert!(body.get("authorizationFail").is_none(), "{path}: {body}");
    }
}

#[actix_rt::test]
async fn a_signed_in_account_without_the_access_gets_403_authorization_fail() {
    let app = spawn_app().await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    for path in GATED {
        let (status, body) = answer(&app, path, Some(&editor)).await;
        assert_eq!(status, 403, "{path}");
        assert_eq!(body["authorizationFail"], Value::Bool(true), "{path}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {body}");
        assert!(body.get("loginRequired").is_none(), "{path}: {body}");
    }
}

#[actix_rt::test]
async fn the_owner_gets_neither_refusal() {
    let app = spawn_app().await;
    let owner = app.sign_in(true, &[], false).await;
    for path in GATED {
        let (status, body) = answer(&app, path, Some(&owner)).await;
        assert_eq!(status, 200, "{path}: {body}");
    }
}
