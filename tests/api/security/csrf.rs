//! CSRF: every state-changing route refuses a missing, foreign or tampered crumb with
//! 403, accepts its own crumb, and answers `GET` with 405.

use veranda_tests::spawn_app;

use super::routes::{Caller, Carrier, CRUMBLESS_POSTS, ROUTES};
use veranda_tests::crumb;
use veranda_tests::crumbs::tampered;

/// The label of a row in failure messages.
fn label(row: &super::routes::Row) -> String {
    format!("{} {} ({:?})", row.method, row.path, row.carrier)
}

#[actix_rt::test]
async fn a_missing_crumb_is_refused_on_every_state_changing_route() {
    let app = spawn_app().await;
    for row in ROUTES {
        let caller = Caller::new(&app, row).await;
        let res = caller.send(&app, row, None, None, &[]).await;
        assert_eq!(res.status(), 403, "no crumb at all: {}", label(row));
        if row.carrier != Carrier::CookieOnly {
            let res = caller.send(&app, row, Some(&caller.crumb), None, &[]).await;
            assert_eq!(res.status(), 403, "a cookie but nothing echoed: {}", label(row));
            let res = caller.send(&app, row, None, Some(&caller.crumb), &[]).await;
            assert_eq!(res.status(), 403, "echoed but no cookie: {}", label(row));
        }
    }
}

#[actix_rt::test]
async fn a_foreign_crumb_is_refused_on_every_state_changing_route() {
    let app = spawn_app().await;
    let foreign = crumb(&app).await;
    for row in ROUTES {
        let caller = Caller::new(&app, row).await;
        assert_ne!(caller.crumb, foreign);
        let res = if row.carrier == Carrier::CookieOnly {
            // Nothing is echoed: a post from another site is what a foreign page sends.
            let other_site = [("origin", "https://evil.example"), ("sec-fetch-site", "cross-site")];
            caller.send(&app, row, Some(&caller.crumb), None, &other_site).await
        } else {
            caller.send(&app, row, Some(&caller.crumb), Some(&foreign), &[]).await
        };
        assert_eq!(res.status(), 403, "another session's crumb: {}", label(row));
    }
}

#[actix_rt::test]
async fn a_tampered_crumb_is_refused_on_every_state_changing_route() {
    let app = spawn_app().await;
    for row in ROUTES {
        let caller = Caller::new(&app, row).await;
        let forged = tampered(&caller.crumb);
        let res = caller.send(&app, row, Some(&forged), Some(&forged), &[]).await;
        assert_eq!(res.status(), 403, "a tampered crumb: {}", label(row));
        let res = caller.send(&app, row, Some("not-a-crumb"), Some("not-a-crumb"), &[]).await;
        assert_eq!(res.status(), 403, "a crumb without a signature: {}", label(row));
    }
}

#[actix_rt::test]
async fn a_json_refusal_says_crumb_fail_and_hands_out_a_fresh_crumb() {
    let app = spawn_app().await;
    for row in ROUTES.iter().filter(|r| r.carrier == Carrier::Header) {
        let caller = Caller::new(&app, row).await;
        let res = caller.send(&app, row, None, None, &[]).await;
        assert_eq!(res.status(), 403, "{}", label(row));
        assert!(
            res.headers().get_all("set-cookie").iter().any(|v| v.as_bytes().starts_with(b"crumb=")),
            "{}",
            label(row)
        );
        let body: serde_json::Value = res.json().await.unwrap_or_else(|e| panic!("JSON from {}: {e}", label(row)));
        assert_eq!(body["crumbFail"], true, "{}", label(row));
    }
}

#[actix_rt::test]
async fn the_callers_own_crumb_gets_past_the_check() {
    let app = spawn_app().await;
    for row in ROUTES {
        let caller = Caller::new(&app, row).await;
        let origin = app.address.clone();
        let same_site = [("origin", origin.as_str()), ("sec-fetch-site", "same-origin")];
        let res = caller.send(&app, row, Some(&caller.crumb), Some(&caller.crumb), &same_site).await;
        let status = res.status().as_u16();
        assert!(status != 403 && status < 500, "{} answered {status} to a valid crumb", label(row));
    }
}

#[actix_rt::test]
async fn get_on_a_state_changing_route_is_405() {
    let app = spawn_app().await;
    for row in ROUTES.iter().filter(|r| r.get_is_405) {
        let caller = Caller::new(&app, row).await;
        let cookie = caller.cookie_header(Some(&caller.crumb));
        let res = app.get_with(row.path, &[("cookie", &cookie), ("x-csrf-token", &caller.crumb)]).await;
        assert_eq!(res.status(), 405, "GET {}", row.path);
        assert!(res.headers().get("allow").is_some(), "GET {}: the 405 names the allowed methods", row.path);
    }
    for path in CRUMBLESS_POSTS {
        let res = app.get(path).await;
        assert_eq!(res.status(), 405, "GET {path}");
        assert_eq!(res.headers().get("allow").and_then(|v| v.to_str().ok()), Some("POST"), "GET {path}");
    }
}
