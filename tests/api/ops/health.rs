//! The ops listener's probes, and `/metrics` absent from the public listener.

use veranda_tests::spawn_app;

#[actix_rt::test]
async fn probes_answer_on_the_ops_listener() {
    let app = spawn_app().await;
    for probe in ["/health/live", "/health/ready"] {
        assert_eq!(app.get_ops(probe).await.status(), 200, "{probe}");
    }
}

#[actix_rt::test]
async fn metrics_are_not_on_the_public_listener() {
    let app = spawn_app().await;
    assert_eq!(app.get("/metrics").await.status(), 404);
    let ops = app.get_ops("/metrics").await;
    assert_eq!(ops.status(), 200);
}
