//! `GET /api/form/forms`: the demo site's forms for the owner and admins, refusals for others.

use serde_json::Value;
use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::assert_refused;
use veranda_tests::spawn_app;

#[actix_rt::test]
async fn the_owner_and_admins_get_every_form_once_ordered_by_form_id() {
    let app = spawn_app().await;
    for cookie in [app.sign_in(true, &[], false).await, app.sign_in(false, &[ContributorRole::Admin], false).await] {
        let res = app.get_with("/api/form/forms", &[("cookie", &cookie)]).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-store"));
        let body: Value = res.json().await.expect("json");
        let forms = body["forms"].as_array().expect("a list");
        let ids: Vec<&str> = forms.iter().filter_map(|f| f["formId"].as_str()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted, "ordered by formId, each once");
        let contact = forms.iter().find(|f| f["formId"] == "contact").expect("the contact form");
        assert_eq!(contact["kind"], "form");
        let newsletter = forms.iter().find(|f| f["formId"] == "newsletter").expect("the newsletter");
        assert_eq!(newsletter["kind"], "newsletter");
    }
}

#[actix_rt::test]
async fn visitors_get_401_editors_403_and_other_methods_405() {
    let app = spawn_app().await;
    let res = app.get("/api/form/forms").await;
    assert_refused(res, 401, "Sign in to see the forms.").await;
    let editor = app.sign_in(false, &[ContributorRole::Editor], false).await;
    let res = app.get_with("/api/form/forms", &[("cookie", &editor)]).await;
    assert_eq!(res.status(), 403);
    let res = app.client.delete(format!("{}/api/form/forms", app.address)).send().await.expect("answered");
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").and_then(|v| v.to_str().ok()), Some("GET"));
}
