//! The live errors stream carries the same records as the errors API, so it needs the same role: the owner or an
//! admin. Editors, viewers and members are refused the socket and its history.

use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::spawn_app;

use crate::streams::{open, own_origin};

#[actix_rt::test]
async fn the_errors_stream_needs_the_role_the_errors_api_needs() {
    let app = spawn_app().await;
    let origin = own_origin(&app);
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let reporting = app.sign_in(false, &[ContributorRole::Reporting], false).await;
    let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
    let owner = app.sign_in(true, &[], false).await;

    for (who, cookie) in [("editor", &editor), ("reporting", &reporting)] {
        let api = app.get_with("/api/events/errors", &[("cookie", cookie)]).await.status();
        assert_eq!(api, 403, "the errors API refuses the {who}");
        assert_eq!(open(&app, "errors", Some(cookie), Some(&origin)).await.err(), Some(403), "{who}'s socket");
        for path in ["/api/streams/errors/events", "/api/streams/errors/stats"] {
            let res = app.get_with(path, &[("cookie", cookie)]).await;
            assert_eq!(res.status(), 403, "{who} on {path}");
            let body: serde_json::Value = res.json().await.expect("a JSON refusal");
            assert_eq!(body["error"], "Your account does not have permission for this.");
        }
    }
    for (who, cookie) in [("admin", &admin), ("owner", &owner)] {
        assert_eq!(app.get_with("/api/events/errors", &[("cookie", cookie)]).await.status(), 200, "{who}");
        assert!(open(&app, "errors", Some(cookie), Some(&origin)).await.is_ok(), "the {who} watches the errors");
        assert_eq!(app.get_with("/api/streams/errors/events", &[("cookie", cookie)]).await.status(), 200, "{who}");
    }
}
