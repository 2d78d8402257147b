//! Site accounts as tests need them: stored straight in the store, and signed in through
//! the API as the login page's script does.

use serde_json::json;
use veranda_actors::accounts::{create_account, Account, AccountRole, Email, Password};

use crate::{crumb, TestApp};

/// The sign-in (and sign-out) endpoint.
pub const SESSION_PATH: &str = "/api/site-users/account/session";

/// Stores an account for `email` with `password` and `roles`; the account.
pub async fn add_account(app: &TestApp, email: &str, password: &str, roles: &[AccountRole]) -> Account {
    let email = Email::parse(email).expect("a valid email");
    let password = Password::parse(password).expect("a valid password");
    let account = Account::new(email, &password, roles, 1_700_000_000).expect("hashes");
    create_account(app.store.as_ref(), &account).await.expect("account stored");
    account
}

/// Stores a member account for `email` with `password`, then signs it in through the API
/// with a fresh crumb and `headers` added; the answer.
pub async fn add_member_and_sign_in(
    app: &TestApp,
    email: &str,
    password: &str,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    add_account(app, email, password, &[AccountRole::Member]).await;
    let crumb = crumb(app).await;
    let mut req = TestApp::with_crumb(app.client.post(format!("{}{SESSION_PATH}", app.address)), &crumb)
        .json(&json!({ "email": email, "password": password }));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("answered")
}
