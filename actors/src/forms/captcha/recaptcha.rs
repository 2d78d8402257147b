//! reCAPTCHA, when the site's captcha provider is `recaptcha`.
//!
//! The page renders Google's widget with the site key (site settings, `[captcha]
//! siteKey`) and sends its token as the submission's `captchaKey`. The server checks the
//! token with the provider through a [`RecaptchaVerifier`], which holds the secret; it is
//! a trait so tests answer without a network. Without a site key, or without a
//! verifier, a form asking for reCAPTCHA cannot be checked and gets
//! 'ReCaptcha has not been set up!' (spec 000 §8).

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;

use super::CaptchaError;

/// What a verifier answers: whether the provider accepted the token, or why it could
/// not be asked.
pub type VerifyFuture<'a> = Pin<Box<dyn Future<Output = Result<bool, String>> + Send + 'a>>;

/// Asks the reCAPTCHA service whether a token is good.
pub trait RecaptchaVerifier: Send + Sync {
    /// Verifies `token`, solved by a visitor at `remote_ip`.
    fn verify<'a>(&'a self, token: &'a str, remote_ip: Option<IpAddr>) -> VerifyFuture<'a>;
}

/// Checks a reCAPTCHA `token` for a site whose site key is `site_key`.
pub async fn verify_recaptcha(
    site_key: Option<&str>,
    verifier: Option<&dyn RecaptchaVerifier>,
    token: Option<&str>,
    remote_ip: Option<IpAddr>,
) -> Result<(), CaptchaError> {
    let (Some(_), Some(verifier)) = (site_key.filter(|k| !k.trim().is_empty()), verifier) else {
        return Err(CaptchaError::RecaptchaNotSetUp);
    };
    let token = token.map(str::trim).filter(|t| !t.is_empty()).ok_or(CaptchaError::Missing)?;
    match verifier.verify(token, remote_ip).await {
        Ok(true) => Ok(()),
        Ok(false) => Err(CaptchaError::RecaptchaRefused),
        Err(reason) => {
            tracing::warn!(%reason, "reCAPTCHA verification could not be asked");
            Err(CaptchaError::RecaptchaRefused)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Accepts exactly one token; fails to connect for `"offline"`.
    struct Fake;

    impl RecaptchaVerifier for Fake {
        fn verify<'a>(&'a self, token: &'a str, _: Option<IpAddr>) -> VerifyFuture<'a> {
            Box::pin(async move {
                match token {
                    "offline" => Err("connection refused".to_string()),
                    t => Ok(t == "good-token"),
                }
            })
        }
    }

    #[tokio::test]
    async fn without_a_site_key_or_a_verifier_recaptcha_is_not_set_up() {
        let fake: &dyn RecaptchaVerifier = &Fake;
        assert_eq!(
            verify_recaptcha(None, Some(fake), Some("good-token"), None).await,
            Err(CaptchaError::RecaptchaNotSetUp)
        );
        assert_eq!(
            verify_recaptcha(Some(" "), Some(fake), Some("good-token"), None).await,
            Err(CaptchaError::RecaptchaNotSetUp)
        );
        assert_eq!(
            verify_recaptcha(Some("site"), None, Some("good-token"), None).await,
            Err(CaptchaError::RecaptchaNotSetUp)
        );
        assert_eq!(
            CaptchaError::RecaptchaNotSetUp.to_string(),
            "ReCaptcha has not been set up!",
            "spec 000 §8, verbatim"
        );
    }

    #[tokio::test]
    async fn the_verifier_decides_once_the_site_is_set_up() {
        let fake: &dyn RecaptchaVerifier = &Fake;
        assert_eq!(verify_recaptcha(Some("site"), Some(fake), Some("good-token"), None).await, Ok(()));
        assert_eq!(
            verify_recaptcha(Some("site"), Some(fake), Some("bad"), None).await,
            Err(CaptchaError::RecaptchaRefused)
        );
        assert_eq!(
            verify_recaptcha(Some("site"), Some(fake), Some("offline"), None).await,
            Err(CaptchaError::RecaptchaRefused)
        );
        assert_eq!(verify_recaptcha(Some("site"), Some(fake), None, None).await, Err(CaptchaError::Missing));
    }
}
