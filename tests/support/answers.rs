//! Checking an answer's status and its JSON or text body in one step, so a failing test shows the
//! whole body rather than only a wrong status.

use serde_json::Value;

/// Asserts that `res` has status `status` and returns its JSON body.
pub async fn json_with_status(res: reqwest::Response, status: u16) -> Value {
    let got = res.status().as_u16();
    let text = res.text().await.expect("the body is read");
    assert_eq!(got, status, "status {got}, body: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("the body is not JSON ({e}): {text}"))
}

/// Asserts that `res` has status `status` and returns its body as text; a failure names
/// the URL asked and shows the body.
pub async fn text_with_status(res: reqwest::Response, status: u16) -> String {
    let (got, url) = (res.status().as_u16(), res.url().clone());
    let text = res.text().await.expect("the body is read");
    assert_eq!(got, status, "status {got} for {url}, body: {text}");
    text
}

/// Asserts that `res` is refused with `status` and the JSON body `{"error": message}`
/// (other fields may sit beside `error`); returns the body.
pub async fn assert_refused(res: reqwest::Response, status: u16, message: &str) -> Value {
    let body = json_with_status(res, status).await;
    assert_eq!(body["error"], message, "{body}");
    body
}
