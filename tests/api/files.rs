//! `/s/...` file links: content types, and every traversal attempt refused.

use veranda_tests::spawn_app;

#[actix_rt::test]
async fn files_are_served_with_their_content_type() {
    let app = spawn_app().await;
    let res = app.get("/s/notes.txt").await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"].to_str().expect("ascii").starts_with("text/plain"));
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let pdf = app.get("/s/menu.pdf").await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.expect("body").starts_with(b"%PDF"));
}

#[actix_rt::test]
async fn a_missing_file_is_404() {
    let app = spawn_app().await;
    assert_eq!(app.get("/s/no-such-file.txt").await.status(), 404);
}

#[actix_rt::test]
async fn traversal_is_refused_in_every_encoding() {
    let app = spawn_app().await;
    let attempts = [
        "/s/../../etc/passwd",
        "/s/../../../../../../etc/passwd",
        "/s/%2e%2e/%2e%2e/etc/passwd",
        "/s/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/s/..%2f..%2f..%2fetc%2fpasswd",
        "/s/%252e%252e%252f%252e%252e%252fetc%252fpasswd",
        "/s/..%5c..%5cetc%5cpasswd",
        "/s/..\\..\\etc\\passwd",
        "/s/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
        "/s/%uff0e%uff0e/etc/passwd",
        "/s/....//....//etc/passwd",
        "/s/%2fetc%2fpasswd",
        "/s//etc/passwd",
        "/s/..;/etc/passwd",
        "/s/notes.txt%00.pdf",
        "/s/./notes.txt",
        "/s/.git/config",
    ];
    assert_eq!(app.raw_get("/s/notes.txt").await.0, 200, "raw requests reach the file route");
    for attempt in attempts {
        let (status, text) = app.raw_get(attempt).await;
        assert!((400..500).contains(&status), "{attempt}: status {status}");
        assert!(!text.contains("root:"), "{attempt} leaked a file");
    }
}
