//! A server behind proxies it trusts, and the form-key endpoint whose per-address limit
//! shows which address a request is counted under.

use serde_json::Value;
use veranda_server::settings::Settings;

use crate::{demo_site_dir, spawn_app_configured, TestApp};

/// The endpoint handing out form keys, limited per client address.
pub const FORM_KEY_PATH: &str = "/api/form/FormSubmissionKey";

/// Starts the server with the demo site, trusting the proxies in `trusted` (addresses or
/// blocks), handing out `keys_per_minute` form keys a minute per client address, with
/// settings further changed by `configure`.
pub async fn spawn_app_behind(
    trusted: &[&str],
    keys_per_minute: usize,
    configure: impl FnOnce(&mut Settings),
) -> TestApp {
    let trusted: Vec<_> = trusted.iter().map(|t| t.parse().expect("a valid block")).collect();
    spawn_app_configured(&demo_site_dir(), move |s: &mut Settings| {
        s.security.trusted_proxies = trusted;
        s.forms.keys_per_minute = keys_per_minute;
        configure(s);
    })
    .await
}

/// Asks for a form key with `crumb` and `headers` added; the status.
pub async fn form_key_status(app: &TestApp, crumb: &str, headers: &[(&str, &str)]) -> u16 {
    let mut req = TestApp::with_crumb(app.client.post(format!("{}{FORM_KEY_PATH}", app.address)), crumb);
    req = req.json(&Value::Null);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("answered").status().as_u16()
}

/// Asks for a form key once for each of `values`, sent as header `name` beside the
/// `fixed` headers every request carries; the statuses, in order.
pub async fn form_key_statuses(
    app: &TestApp,
    crumb: &str,
    name: &str,
    values: &[&str],
    fixed: &[(&str, &str)],
) -> Vec<u16> {
    let mut statuses = Vec::with_capacity(values.len());
    for value in values {
        let headers: Vec<(&str, &str)> = fixed.iter().copied().chain([(name, *value)]).collect();
        statuses.push(form_key_status(app, crumb, &headers).await);
    }
    statuses
}
