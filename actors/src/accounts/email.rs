//! `Email`: an address that passed the spec's simple pattern, kept in lowercase.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Shortest and longest address accepted (spec 000 §9: email length 3 to 256).
pub const EMAIL_LENGTH: std::ops::RangeInclusive<usize> = 3..=256;

/// An email address that passed [`check_email`]. Lowercase, so it doubles as the
/// account key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

/// Why a string is not an email address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmailError {
    /// Shorter than 3 or longer than 256 characters.
    #[error("an email address has 3 to 256 characters")]
    Length,
    /// Does not follow `local@domain.tld`.
    #[error("email addresses should follow the format name@example.com")]
    Pattern,
}

impl Email {
    /// Parses `raw` (surrounding whitespace ignored) into a lowercase address.
    pub fn parse(raw: &str) -> Result<Email, EmailError> {
        let text = raw.trim();
        check_email(text)?;
        Ok(Email(text.to_ascii_lowercase()))
    }

    /// The address as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Spec 000 §5's simple pattern, the one check of every email address (accounts and
/// form fields): 3 to 256 characters; a non-empty local part, one `@`, a dotted domain
/// of non-empty labels whose final label is 2 to 4 letters or digits; no whitespace or
/// control characters anywhere.
pub fn check_email(text: &str) -> Result<(), EmailError> {
    if !EMAIL_LENGTH.contains(&text.chars().count()) {
        return Err(EmailError::Length);
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(EmailError::Pattern);
    }
    let (local, domain) = text.split_once('@').ok_or(EmailError::Pattern)?;
    let labels: Vec<&str> = domain.split('.').collect();
    let Some((last, rest)) = labels.split_last() else { return Err(EmailError::Pattern) };
    let ok = !local.is_empty()
        && !domain.contains('@')
        && !rest.is_empty()
        && rest.iter().all(|l| !l.is_empty())
        && (2..=4).contains(&last.len())
        && last.chars().all(|c| c.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(EmailError::Pattern)
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Email {
    type Error = EmailError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        Email::parse(&value)
    }
}

impl From<Email> for String {
    fn from(email: Email) -> String {
        email.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_and_lowercased() {
        assert_eq!(
            Email::parse("  Ann.Lee+porch@Example.CO.uk ").map(|e| e.0),
            Ok("ann.lee+porch@example.co.uk".into())
        );
    }

    #[test]
    fn the_pattern_and_length_are_enforced() {
        for bad in [
            "",
            "a@",
            "@b.co",
            "ann",
            "ann@example",
            "ann@example.c",
            "ann@example.museum",
            "ann@@x.co",
            "an n@x.co",
            "ann@.co",
            "ann@x..co",
            "ann@x.c_m",
            "ann@x.co!",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} must be refused");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert_eq!(Email::parse(&long), Err(EmailError::Length));
        assert!(Email::parse("a@b.co").is_ok());
        assert_eq!(Email::parse("ann\u{0}x@example.com"), Err(EmailError::Pattern), "no control characters");
    }
}
