//! The forms settings of the server (`[forms]` in `veranda.toml`): per-address rate
//! limits, the reCAPTCHA secret and where it is checked, and how long submission keys
//! live and how often expired ones are swept.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The window every forms rate limit counts in.
pub const RATE_WINDOW: Duration = Duration::from_secs(60);

/// Google's reCAPTCHA verification endpoint.
pub const RECAPTCHA_VERIFY_URL: &str = "https://www.google.com/recaptcha/api/siteverify";
/// Google's reCAPTCHA script, which pages of reCAPTCHA sites load with the site key.
pub const RECAPTCHA_SCRIPT_URL: &str = "https://www.google.com/recaptcha/api.js";

/// Settings of the forms routes; rate limits are counted per [`RATE_WINDOW`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FormSettings {
    /// Submissions one client IP may send to one form per minute (429 beyond).
    pub submissions_per_minute: usize,
    /// Submission keys one client IP may ask for per minute.
    pub keys_per_minute: usize,
    /// Captcha challenges one client IP may ask for per minute.
    pub challenges_per_minute: usize,
    /// Most client addresses (or address and form pairs) each forms rate limiter
    /// remembers; the least recently seen is forgotten first, so no new address is refused
    /// for the table being full.
    pub limited_addresses: usize,
    /// The reCAPTCHA secret key; unset, forms asking for reCAPTCHA get
    /// 'ReCaptcha has not been set up!'.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recaptcha_secret: Option<String>,
    /// Where reCAPTCHA tokens are verified (Google's siteverify API).
    pub recaptcha_verify_url: String,
    /// Where pages load the reCAPTCHA script from (Google's); the page context carries it
    /// as `websiteSettings.captchaScriptUrl`.
    pub recaptcha_script_url: String,
    /// Milliseconds one verification may take before the submission is refused.
    pub recaptcha_timeout_ms: u64,
    /// Seconds a submission key may be used after it is issued.
    pub key_lifetime_secs: i64,
    /// Seconds between sweeps of expired submission keys and spent captcha marks.
    pub key_sweep_secs: u64,
}

impl Default for FormSettings {
    fn default() -> Self {
        FormSettings {
            submissions_per_minute: 10,
            keys_per_minute: 60,
            challenges_per_minute: 60,
            limited_addresses: 10_000,
            recaptcha_secret: None,
            recaptcha_verify_url: RECAPTCHA_VERIFY_URL.to_string(),
            recaptcha_script_url: RECAPTCHA_SCRIPT_URL.to_string(),
            recaptcha_timeout_ms: 5000,
            key_lifetime_secs: super::record::KEY_LIFETIME_SECS,
            key_sweep_secs: 600,
        }
    }
}
