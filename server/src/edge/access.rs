//! The two refusals of calls that need an account, in the shape the data layer reads
//! (spec 000 §8 "Data layer"): `loginRequired` when nobody is signed in (the page opens
//! the sign-in prompt) and `authorizationFail` when the signed-in account lacks the
//! access (the page shows the system error overlay). Both keep the `error` message every
//! refusal carries. Statuses: 401 and 403 (`docs/analytics.md`).

use serde_json::{json, Value};

/// The field that marks a call made without a signed-in account.
pub const LOGIN_REQUIRED: &str = "loginRequired";
/// The field that marks a call the signed-in account may not make.
pub const AUTHORIZATION_FAIL: &str = "authorizationFail";

/// The 401 body: `{"error": message, "loginRequired": true}`.
pub fn login_required(message: &str) -> Value {
    json!({ "error": message, LOGIN_REQUIRED: true })
}

/// The 403 body: `{"error": message, "authorizationFail": true}`.
pub fn authorization_fail(message: &str) -> Value {
    json!({ "error": message, AUTHORIZATION_FAIL: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_body_keeps_the_message_and_names_its_refusal() {
        assert_eq!(login_required("Sign in.").to_string(), r#"{"error":"Sign in.","loginRequired":true}"#);
        assert_eq!(authorization_fail("No.").to_string(), r#"{"authorizationFail":true,"error":"No."}"#);
    }
}
