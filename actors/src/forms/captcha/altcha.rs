//! The ALTCHA proof of work, classic (v1) protocol, through `altcha-lib-rs`.
//!
//! A challenge is `{algorithm: "SHA-256", challenge, maxnumber, salt, signature}`
//! where `challenge` is hex SHA-256 of `salt` followed by a secret number at most
//! `maxnumber`, and `signature` is hex HMAC-SHA256 of `challenge` under the server's
//! key. The salt ends in `?expires=<unix seconds>&`, so the expiry is signed too. The
//! page finds the number by brute force and sends back base64 of the JSON
//! `{algorithm, challenge, number, salt, signature}` as the submission's `captchaKey`.
//!
//! Time is passed in (unix seconds) so tests control it.

use altcha_lib_rs::algorithm::AltchaAlgorithm;
use altcha_lib_rs::{create_challenge, verify_solution, Challenge, ChallengeOptions, Payload};
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use base64::Engine;
use rand::RngCore;

use super::CaptchaError;

/// The largest secret number: about 25,000 hashes on average, well under a second
/// in a phone's browser.
pub const MAX_NUMBER: u64 = 50_000;

/// How long a challenge may be solved and used (twenty minutes: time to fill in a form).
pub const CHALLENGE_LIFETIME_SECS: i64 = 20 * 60;

/// Longest `captchaKey` read (a real payload is about 300 characters).
const MAX_PROOF_LEN: usize = 2048;

/// The salt parameter holding the expiry.
const EXPIRES_PARAM: &str = "expires=";

/// Issues and verifies challenges under one HMAC key.
#[derive(Clone)]
pub struct Altcha {
    /// The HMAC key, as text (the library takes a string key).
    key: String,
}

/// A verified solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The challenge's signature: what marks it as spent.
    pub signature: String,
    /// When the challenge expires (unix seconds); its spent mark can go after that.
    pub expires: i64,
}

impl Altcha {
    /// A signer with `key` (32 random bytes, kept by the server across restarts).
    pub fn new(key: &[u8; 32]) -> Altcha {
        Altcha { key: key.iter().map(|b| format!("{b:02x}")).collect() }
    }

    /// A signer with a fresh random key (used when the stored key cannot be read).
    pub fn ephemeral() -> Altcha {
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        Altcha::new(&key)
    }

    /// A new challenge that expires [`CHALLENGE_LIFETIME_SECS`] after `now`.
    pub fn challenge(&self, now: i64) -> Result<Challenge, CaptchaError> {
        self.challenge_expiring(now.saturating_add(CHALLENGE_LIFETIME_SECS))
    }

    /// A new challenge that expires at `expires` (unix seconds).
    pub fn challenge_expiring(&self, expires: i64) -> Result<Challenge, CaptchaError> {
        let mut salt = [0u8; 12];
        rand::rng().fill_bytes(&mut salt);
        let salt: String = salt.iter().map(|b| format!("{b:02x}")).collect();
        create_challenge(ChallengeOptions {
            algorithm: Some(AltchaAlgorithm::Sha256),
            max_number: Some(MAX_NUMBER),
            hmac_key: &self.key,
            salt: Some(format!("{salt}?{EXPIRES_PARAM}{expires}&")),
            ..Default::default()
        })
        .map_err(|_| CaptchaError::Invalid)
    }

    /// Checks a `captchaKey` (base64 of the payload JSON) at `now`: the algorithm is
    /// SHA-256, the number solves the challenge, the signature is ours, and the salt's
    /// expiry has not passed. Whether it was used before is the caller's check.
    pub fn verify(&self, proof: &str, now: i64) -> Result<Solved, CaptchaError> {
        let payload = decode(proof).ok_or(CaptchaError::Invalid)?;
        if !matches!(payload.algorithm, AltchaAlgorithm::Sha256) || payload.number > MAX_NUMBER {
            return Err(CaptchaError::Invalid);
        }
        let expires = expiry(&payload.salt).ok_or(CaptchaError::Invalid)?;
        verify_solution(&payload, &self.key, false).map_err(|_| CaptchaError::Invalid)?;
        if now > expires {
            return Err(CaptchaError::Expired);
        }
        Ok(Solved { signature: payload.signature, expires })
    }
}

/// The payload in `proof`: base64 (standard or URL-safe, padded or not) of its JSON.
fn decode(proof: &str) -> Option<Payload> {
    let proof = proof.trim();
    if proof.is_empty() || proof.len() > MAX_PROOF_LEN {
        return None;
    }
    let unpadded = proof.trim_end_matches('=');
    let padded = format!("{unpadded}{}", "=".repeat((4 - unpadded.len() % 4) % 4));
    let bytes = STANDARD.decode(&padded).or_else(|_| URL_SAFE.decode(&padded)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The `expires` parameter of a salt (`<hex>?expires=<unix seconds>&`), if it has one.
fn expiry(salt: &str) -> Option<i64> {
    let (_, params) = salt.split_once('?')?;
    params.split('&').find_map(|p| p.strip_prefix(EXPIRES_PARAM)).and_then(|v| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use altcha_lib_rs::solve_challenge;

    const NOW: i64 = 1_700_000_000;

    fn solved(challenge: &Challenge) -> Payload {
        let number = solve_challenge(&challenge.challenge, &challenge.salt, None, Some(challenge.maxnumber), 0)
            .expect("a challenge has a solution");
        Payload {
            algorithm: challenge.algorithm,
            challenge: challenge.challenge.clone(),
            number,
            salt: challenge.salt.clone(),
            signature: challenge.signature.clone(),
            took: None,
        }
    }

    fn encode(payload: &Payload) -> String {
        STANDARD.encode(serde_json::to_vec(payload).expect("serialises"))
    }

    #[test]
    fn a_challenge_is_sha256_with_a_signed_expiry_and_a_small_max_number() {
        let altcha = Altcha::new(&[1; 32]);
        let challenge = altcha.challenge(NOW).expect("issued");
        assert_eq!(challenge.maxnumber, MAX_NUMBER);
        assert!(challenge.salt.ends_with(&format!("?expires={}&", NOW + CHALLENGE_LIFETIME_SECS)));
        let json = serde_json::to_value(&challenge).expect("json");
        assert_eq!(json["algorithm"], "SHA-256");
        assert_eq!(json["challenge"].as_str().map(str::len), Some(64));
    }

    #[test]
    fn a_solved_challenge_verifies_until_it_expires() {
        let altcha = Altcha::new(&[1; 32]);
        let challenge = altcha.challenge(NOW).expect("issued");
        let proof = encode(&solved(&challenge));
        let ok = altcha.verify(&proof, NOW + 5).expect("verifies");
        assert_eq!(ok.signature, challenge.signature);
        assert_eq!(ok.expires, NOW + CHALLENGE_LIFETIME_SECS);
        assert_eq!(altcha.verify(&proof, NOW + CHALLENGE_LIFETIME_SECS + 1), Err(CaptchaError::Expired));
    }

    #[test]
    fn wrong_numbers_foreign_keys_and_garbage_are_invalid() {
        let altcha = Altcha::new(&[1; 32]);
        let challenge = altcha.challenge(NOW).expect("issued");
        let mut payload = solved(&challenge);
        payload.number = (payload.number + 1) % MAX_NUMBER;
        assert_eq!(altcha.verify(&encode(&payload), NOW), Err(CaptchaError::Invalid));

        let foreign = Altcha::new(&[2; 32]);
        let theirs = foreign.challenge(NOW).expect("issued");
        assert_eq!(altcha.verify(&encode(&solved(&theirs)), NOW), Err(CaptchaError::Invalid));

        let mut stretched = solved(&challenge);
        stretched.salt = stretched.salt.replace("?expires=", "?expires=9");
        assert_eq!(altcha.verify(&encode(&stretched), NOW), Err(CaptchaError::Invalid));

        for garbage in ["", "proof", "e30=", &"A".repeat(5000)] {
            assert_eq!(altcha.verify(garbage, NOW), Err(CaptchaError::Invalid), "{garbage:.20}");
        }
    }

    #[test]
    fn url_safe_and_unpadded_base64_are_read() {
        let altcha = Altcha::new(&[1; 32]);
        let challenge = altcha.challenge(NOW).expect("issued");
        let json = serde_json::to_vec(&solved(&challenge)).expect("json");
        let proof = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json);
        assert!(altcha.verify(&proof, NOW).is_ok());
    }
}
