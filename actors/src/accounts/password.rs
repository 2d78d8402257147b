//! Passwords: argon2id hashes in PHC string form (the argon2 crate's defaults), and a
//! dummy hash so an unknown account costs the same verification time as a known one.

use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use rand::RngCore;
use serde::{Deserialize, Serialize};

/// Longest password accepted when an account is created, in bytes.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// A password as typed: non-empty, at most [`MAX_PASSWORD_BYTES`].
#[derive(Clone)]
pub struct Password(String);

/// Why a password cannot be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Nothing was typed.
    #[error("the password is empty")]
    Empty,
    /// Longer than [`MAX_PASSWORD_BYTES`].
    #[error("the password is longer than {MAX_PASSWORD_BYTES} bytes")]
    TooLong,
    /// The hasher failed (it does not with the default parameters).
    #[error("the password could not be hashed: {0}")]
    Hashing(String),
}

impl Password {
    /// A password to set on an account.
    pub fn parse(raw: &str) -> Result<Password, PasswordError> {
        match raw.len() {
            0 => Err(PasswordError::Empty),
            n if n > MAX_PASSWORD_BYTES => Err(PasswordError::TooLong),
            _ => Ok(Password(raw.to_string())),
        }
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(..)")
    }
}

/// An argon2id hash in PHC string form (`$argon2id$v=19$m=…`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PasswordDigest(String);

impl std::fmt::Debug for PasswordDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordDigest(..)")
    }
}

impl PasswordDigest {
    /// Hashes `password` with a fresh 16-byte salt. Slow on purpose (tens of
    /// milliseconds): call it off the request threads.
    pub fn hash(password: &Password) -> Result<PasswordDigest, PasswordError> {
        let mut salt = [0u8; 16];
        rand::rng().fill_bytes(&mut salt);
        let salt = SaltString::encode_b64(&salt).map_err(|e| PasswordError::Hashing(e.to_string()))?;
        let hash = Argon2::default()
            .hash_password(password.0.as_bytes(), &salt)
            .map_err(|e| PasswordError::Hashing(e.to_string()))?;
        Ok(PasswordDigest(hash.to_string()))
    }

    /// A digest of a random password nobody knows, with the same parameters as real
    /// ones: verifying against it takes as long as against a real account.
    pub fn dummy() -> PasswordDigest {
        let mut secret = [0u8; 24];
        rand::rng().fill_bytes(&mut secret);
        let secret: String = secret.iter().map(|b| format!("{b:02x}")).collect();
        match PasswordDigest::hash(&Password(secret)) {
            Ok(digest) => digest,
            // Hashing with default parameters and a valid salt does not fail; should it,
            // a digest that never verifies still refuses every password.
            Err(_) => PasswordDigest(String::new()),
        }
    }

    /// Whether `attempt` is the password. Slow on purpose, like [`PasswordDigest::hash`].
    /// An unreadable digest verifies nothing.
    pub fn verify(&self, attempt: &str) -> bool {
        match PasswordHash::new(&self.0) {
            Ok(parsed) => Argon2::default().verify_password(attempt.as_bytes(), &parsed).is_ok(),
            Err(_) => false,
        }
    }

    /// The PHC string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_verifies_its_password_only() {
        let password = Password::parse("porch swing 42").expect("a valid password");
        let digest = PasswordDigest::hash(&password).expect("hashes");
        assert!(digest.as_str().starts_with("$argon2id$v=19$"), "{}", digest.as_str());
        assert!(digest.verify("porch swing 42"));
        assert!(!digest.verify("porch swing 43"));
        assert!(!digest.verify(""));
        assert_ne!(PasswordDigest::hash(&password).expect("hashes"), digest, "salts differ");
    }

    #[test]
    fn empty_and_oversized_passwords_are_refused() {
        assert_eq!(Password::parse("").err(), Some(PasswordError::Empty));
        assert_eq!(Password::parse(&"x".repeat(MAX_PASSWORD_BYTES + 1)).err(), Some(PasswordError::TooLong));
        assert!(!PasswordDigest::dummy().verify(""));
        assert!(!PasswordDigest(String::from("garbage")).verify("garbage"));
    }
}
