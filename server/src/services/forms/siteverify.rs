//! The reCAPTCHA verifier of a running server: posts the secret, the visitor's token and
//! address to the siteverify API (`[forms] recaptcha_verify_url`, Google's by default)
//! and reads its `success`. Every call is bounded by `[forms] recaptcha_timeout_ms`; a
//! slow, failed or unreadable answer is an error, which refuses the submission.

use std::net::IpAddr;
use std::time::Duration;

use serde::Deserialize;
use veranda_actors::forms::captcha::recaptcha::VerifyFuture;
use veranda_actors::forms::captcha::RecaptchaVerifier;
use veranda_actors::forms::config::FormSettings;

/// Asks a siteverify endpoint over HTTP.
pub struct SiteVerify {
    /// The client, with the timeout set.
    client: reqwest::Client,
    /// The siteverify URL.
    url: String,
    /// The reCAPTCHA secret key.
    secret: String,
}

/// The part of siteverify's answer that decides.
#[derive(Debug, Deserialize)]
struct Answer {
    /// Whether the token is valid for this secret.
    success: bool,
}

impl SiteVerify {
    /// A verifier when `settings` name a (non-blank) secret.
    pub fn from_settings(settings: &FormSettings) -> Option<SiteVerify> {
        let secret = settings.recaptcha_secret.as_deref().map(str::trim).filter(|s| !s.is_empty())?;
        let timeout = Duration::from_millis(settings.recaptcha_timeout_ms.max(1));
        let client = match reqwest::Client::builder().timeout(timeout).connect_timeout(timeout).build() {
            Ok(client) => client,
            Err(error) => {
                tracing::error!(%error, "the reCAPTCHA client could not be built; reCAPTCHA is not set up");
                return None;
            }
        };
        Some(SiteVerify { client, url: settings.recaptcha_verify_url.clone(), secret: secret.to_string() })
    }
}

impl RecaptchaVerifier for SiteVerify {
    fn verify<'a>(&'a self, token: &'a str, remote_ip: Option<IpAddr>) -> VerifyFuture<'a> {
        Box::pin(async move {
            let ip = remote_ip.map(|ip| ip.to_string());
            let mut form = vec![("secret", self.secret.as_str()), ("response", token)];
            if let Some(ip) = ip.as_deref() {
                form.push(("remoteip", ip));
            }
            let response = self.client.post(&self.url).form(&form).send().await.map_err(|e| e.to_string())?;
            if !response.status().is_success() {
                return Err(format!("siteverify answered {}", response.status()));
            }
            let answer: Answer = response.json().await.map_err(|e| e.to_string())?;
            Ok(answer.success)
        })
    }
}
