//! The account record: who may sign in, with which password and which roles.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::email::Email;
use super::password::{Password, PasswordDigest, PasswordError};
use crate::domain::enums::ContributorRole;

/// Length of an account id.
pub const ACCOUNT_ID_LEN: usize = 24;

/// An account id: 24 random lowercase letters and digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct AccountId(String);

/// Why a string is not an account id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an account id is {ACCOUNT_ID_LEN} lowercase letters and digits")]
pub struct AccountIdError;

impl AccountId {
    /// A fresh random id.
    pub fn generate() -> AccountId {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let mut rng = rand::rng();
        AccountId((0..ACCOUNT_ID_LEN).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect())
    }

    /// Parses a stored or echoed id.
    pub fn parse(raw: &str) -> Result<AccountId, AccountIdError> {
        let ok = raw.len() == ACCOUNT_ID_LEN && raw.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if ok {
            Ok(AccountId(raw.to_string()))
        } else {
            Err(AccountIdError)
        }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for AccountId {
    type Error = AccountIdError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        AccountId::parse(&value)
    }
}

impl From<AccountId> for String {
    fn from(id: AccountId) -> String {
        id.0
    }
}

/// A role given when an account is created: the owner, a site member, or a
/// contributor role of the spec (admin, editor, viewer, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountRole {
    /// The site owner (all permissions).
    Owner,
    /// A site member (member-only pages).
    Member,
    /// A contributor role.
    Contributor(ContributorRole),
}

/// Why a role name is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown role {0:?}; expected owner, member or a contributor role ({names})", names = contributor_names())]
pub struct RoleError(pub String);

fn contributor_names() -> String {
    ContributorRole::ALL.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
}

impl AccountRole {
    /// `owner`, `member`, or a contributor role's kebab-case name (`admin`, `store-manager`).
    pub fn parse(name: &str) -> Result<AccountRole, RoleError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "owner" => Ok(AccountRole::Owner),
            "member" => Ok(AccountRole::Member),
            other => ContributorRole::from_name(other)
                .map(AccountRole::Contributor)
                .ok_or_else(|| RoleError(name.to_string())),
        }
    }
}

/// An account, stored as JSON in the accounts tree under its lowercase email.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Account {
    /// The account's id (sessions point at it).
    pub id: AccountId,
    /// The sign-in address, lowercase.
    pub email: Email,
    /// The argon2id hash of the password, PHC string form.
    pub password_hash: PasswordDigest,
    /// The site owner.
    #[serde(default)]
    pub owner: bool,
    /// Contributor roles on this site.
    #[serde(default)]
    pub roles: Vec<ContributorRole>,
    /// A site member.
    #[serde(default)]
    pub member: bool,
    /// Unix seconds when the account was created.
    pub created: i64,
}

/// What the client is told about the signed-in account: never the hash.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccountSummary {
    /// The account's id.
    pub id: String,
    /// The sign-in address.
    pub email: String,
    /// Contributor roles, as the spec's numeric ids.
    pub roles: Vec<ContributorRole>,
    /// A site member.
    pub member: bool,
    /// The site owner.
    pub owner: bool,
}

impl Account {
    /// A new account with a fresh id, hashing `password` (slow: tens of milliseconds).
    pub fn new(email: Email, password: &Password, roles: &[AccountRole], now: i64) -> Result<Account, PasswordError> {
        let mut contributor: Vec<ContributorRole> = roles
            .iter()
            .filter_map(|r| match r {
                AccountRole::Contributor(c) => Some(*c),
                _ => None,
            })
            .collect();
        contributor.sort();
        contributor.dedup();
        Ok(Account {
            id: AccountId::generate(),
            email,
            password_hash: PasswordDigest::hash(password)?,
            owner: roles.contains(&AccountRole::Owner),
            roles: contributor,
            member: roles.contains(&AccountRole::Member),
            created: now,
        })
    }

    /// The account as the client sees it.
    pub fn summary(&self) -> AccountSummary {
        AccountSummary {
            id: self.id.as_str().to_string(),
            email: self.email.as_str().to_string(),
            roles: self.roles.clone(),
            member: self.member,
            owner: self.owner,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_ids_are_24_lowercase_letters_and_digits() {
        let id = AccountId::generate();
        assert_eq!(AccountId::parse(id.as_str()), Ok(id.clone()));
        assert_ne!(AccountId::generate(), id);
        assert!(AccountId::parse("ABCDEFGHIJKLMNOPQRSTUVWX").is_err());
        assert!(AccountId::parse("short").is_err());
    }

    #[test]
    fn role_names_cover_owner_member_and_every_contributor_role() {
        assert_eq!(AccountRole::parse("owner"), Ok(AccountRole::Owner));
        assert_eq!(AccountRole::parse("Member"), Ok(AccountRole::Member));
        assert_eq!(AccountRole::parse("store-manager"), Ok(AccountRole::Contributor(ContributorRole::StoreManager)));
        for role in ContributorRole::ALL {
            assert_eq!(AccountRole::parse(role.name()), Ok(AccountRole::Contributor(*role)));
        }
        let err = AccountRole::parse("wizard").expect_err("unknown");
        assert!(err.to_string().contains("viewer"), "{err}");
    }

    #[test]
    fn a_new_account_stores_roles_as_flags_and_contributor_roles() {
        let email = Email::parse("ann@example.com").expect("valid");
        let password = Password::parse("secret").expect("valid");
        let roles = [AccountRole::Owner, AccountRole::Contributor(ContributorRole::Viewer), AccountRole::Member];
        let account = Account::new(email, &password, &roles, 1_700_000_000).expect("hashes");
        assert!(account.owner && account.member);
        assert_eq!(account.roles, vec![ContributorRole::Viewer]);
        assert!(account.password_hash.verify("secret"));
        let json = serde_json::to_value(&account).expect("serialises");
        assert_eq!(json["email"], "ann@example.com");
        assert!(json["password_hash"].as_str().is_some_and(|h| h.starts_with("$argon2id$")));
        let back: Account = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, account);
        assert!(serde_json::to_value(account.summary()).expect("serialises").get("password_hash").is_none());
    }
}
