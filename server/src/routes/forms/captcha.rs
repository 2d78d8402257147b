//! The captcha of forms that ask for one.
//!
//! `GET /api/form/captcha/challenge` hands out an ALTCHA challenge (see
//! [`veranda_actors::forms::captcha::altcha`]): `{algorithm, challenge, maxnumber,
//! salt, signature}`, never cached, at most `[forms] challenges_per_minute` per address per
//! window (429 with `Retry-After` beyond). The save call's `captchaKey` carries the
//! solved payload, base64-encoded; [`check`] verifies it and that it was not used
//! before. When the site's provider is reCAPTCHA, `captchaKey` is the widget's token,
//! checked with the provider (see [`veranda_actors::forms::captcha::recaptcha`]).

use std::net::IpAddr;

use actix_web::{web, HttpRequest, HttpResponse};
use veranda_actors::forms::captcha::{self, verify_recaptcha, CaptchaError};
use veranda_actors::forms::{FormDefinition, SavePayload};
use veranda_actors::site::settings::CaptchaProvider;
use veranda_actors::store::{Store, Tree};

use super::claim::Claim;
use super::error::FormsError;
use super::storing::{now_secs, peer_ip};
use super::FormsState;
use crate::edge::no_store;
use crate::state::AppState;

/// `GET /api/form/captcha/challenge`: a fresh ALTCHA challenge.
pub async fn challenge(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, FormsError> {
    let forms = &state.services.forms;
    forms.challenge_limiter.check(peer_ip(&req)).map_err(|limited| FormsError::ChallengesLimited(limited.wait()))?;
    let challenge = forms.altcha.challenge(now_secs()).map_err(FormsError::Captcha)?;
    Ok(no_store(HttpResponse::Ok()).json(challenge))
}

/// A verified ALTCHA solution, claimed for this request until it is spent.
pub struct Spend<'a> {
    /// The store key marking the challenge as used.
    record_key: String,
    /// When the challenge expires (the mark can be swept after).
    expires: i64,
    /// Held until the request ends, so a concurrent reuse is refused.
    _claim: Claim<'a>,
}

impl Spend<'_> {
    /// Marks the challenge as used; resolves once that is on disk.
    pub async fn commit(&self, store: &dyn Store) -> Result<(), FormsError> {
        store.put(Tree::Submissions, self.record_key.as_bytes(), self.expires.to_string().as_bytes()).await?;
        Ok(())
    }
}

/// Checks the captcha of `form` in `payload`: nothing when the form has none, an ALTCHA
/// solution to spend, or a reCAPTCHA token the provider accepted.
pub async fn check<'a>(
    forms: &'a FormsState,
    store: &dyn Store,
    form: &FormDefinition,
    payload: &SavePayload,
    ip: IpAddr,
) -> Result<Option<Spend<'a>>, FormsError> {
    if !form.captcha {
        return Ok(None);
    }
    let proof = payload.captcha_key.as_deref().map(str::trim).filter(|k| !k.is_empty());
    match forms.captcha.provider {
        CaptchaProvider::Recaptcha => {
            let site_key = forms.captcha.site_key.as_deref();
            verify_recaptcha(site_key, forms.recaptcha.as_deref(), proof, Some(ip)).await?;
            Ok(None)
        }
        CaptchaProvider::Altcha => {
            let proof = proof.ok_or(CaptchaError::Missing)?;
            let solved = forms.altcha.verify(proof, now_secs())?;
            let record_key = captcha::used_record_key(&solved.signature);
            let claim = Claim::take(forms, &record_key).ok_or(CaptchaError::Reused)?;
            if store.get(Tree::Submissions, record_key.as_bytes())?.is_some() {
                return Err(CaptchaError::Reused.into());
            }
            Ok(Some(Spend { record_key, expires: solved.expires, _claim: claim }))
        }
    }
}

/// Spends the captcha solution, if there is one; resolves once that is on disk.
pub(super) async fn commit_spend(store: &dyn Store, spend: Option<&Spend<'_>>) -> Result<(), FormsError> {
    match spend {
        Some(spend) => spend.commit(store).await,
        None => Ok(()),
    }
}
