//! The ops listener's probes, and `/metrics` absent from the public listener.

use veranda_tests::spawn_app;

#[actix_rt::test]
async fn probes_answer_on_the_ops_listener() {
    let app = spawn_app().await;
    let live = app.client.get(format!("{}/health/live", app.ops_address)).send().await.expect("answered");
    assert_eq!(live.status(), 200);
    let ready = app.client.get(format!("{}/health/ready", app.ops_address)).send().await.expect("answered");
    assert_eq!(ready.status(), 200);
}

#[actix_rt::test]
async fn metrics_are_not_on_the_public_listener() {
    let app = spawn_app().await;
    assert_eq!(app.get("/metrics").await.status(), 404);
    let ops = app.client.get(format!("{}/metrics", app.ops_address)).send().await.expect("answered");
    assert_eq!(ops.status(), 200);
}
