//! Accounts in the store: the accounts tree holds each account as JSON under its
//! lowercase email, plus an index entry `id:<account id>` → email (no email lacks an
//! `@`, so index keys never collide with accounts).
//!
//! The sled store is single-process: `veranda user add` opens it directly, so it runs
//! while the server is stopped.

use super::account::Account;
use super::email::Email;
use crate::store::{Store, StoreError, Tree};

/// The prefix of the id index's keys.
const ID_INDEX_PREFIX: &str = "id:";

/// Why an account operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// An account with this email already exists.
    #[error("an account for {0} already exists")]
    Duplicate(Email),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored account could not be read.
    #[error("the stored account {key} is unreadable: {reason}")]
    Corrupt {
        /// The key of the unreadable record.
        key: String,
        /// What went wrong.
        reason: String,
    },
}

/// Stores a new account; refuses a second account for the same email. Resolves once
/// the account is on disk.
pub async fn create_account(store: &dyn Store, account: &Account) -> Result<(), AccountError> {
    let key = account.email.as_str().as_bytes();
    if store.get(Tree::Accounts, key)?.is_some() {
        return Err(AccountError::Duplicate(account.email.clone()));
    }
    let bytes = serde_json::to_vec(account)
        .map_err(|e| AccountError::Corrupt { key: account.email.to_string(), reason: e.to_string() })?;
    // The index first: should the second write never happen, a dangling index entry
    // leads nowhere, while an account without one could not be looked up by id.
    let index = format!("{ID_INDEX_PREFIX}{}", account.id.as_str());
    store.put(Tree::Accounts, index.as_bytes(), key).await?;
    store.put(Tree::Accounts, key, &bytes).await?;
    Ok(())
}

/// The account signing in with `email`, if any.
pub fn find_by_email(store: &dyn Store, email: &Email) -> Result<Option<Account>, AccountError> {
    let Some(bytes) = store.get(Tree::Accounts, email.as_str().as_bytes())? else { return Ok(None) };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| AccountError::Corrupt { key: email.to_string(), reason: e.to_string() })
}

/// The account with id `id`, if any.
pub fn find_by_id(store: &dyn Store, id: &str) -> Result<Option<Account>, AccountError> {
    let index = format!("{ID_INDEX_PREFIX}{id}");
    let Some(email) = store.get(Tree::Accounts, index.as_bytes())? else { return Ok(None) };
    let Ok(email) = Email::parse(&String::from_utf8_lossy(&email)) else { return Ok(None) };
    Ok(find_by_email(store, &email)?.filter(|a| a.id.as_str() == id))
}

/// Makes the account signing in with `email` a site member (joining a member area, once
/// its order is paid). `Ok(false)` when there is no such account; granting twice is the
/// same as once. Resolves once the account is on disk.
pub async fn grant_membership(store: &dyn Store, email: &Email) -> Result<bool, AccountError> {
    let Some(mut account) = find_by_email(store, email)? else { return Ok(false) };
    if account.member {
        return Ok(true);
    }
    account.member = true;
    let bytes = serde_json::to_vec(&account)
        .map_err(|e| AccountError::Corrupt { key: account.email.to_string(), reason: e.to_string() })?;
    store.put(Tree::Accounts, account.email.as_str().as_bytes(), &bytes).await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{AccountRole, Password};
    use crate::store::SledStore;

    fn account(email: &str) -> Account {
        let password = Password::parse("secret").expect("valid");
        Account::new(Email::parse(email).expect("valid"), &password, &[AccountRole::Member], 0).expect("hashes")
    }

    #[actix::test]
    async fn accounts_are_found_by_email_and_id_and_never_duplicated() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let ann = account("ann@example.com");
        create_account(&store, &ann).await.expect("created");
        let email = Email::parse("ANN@example.com").expect("valid");
        assert_eq!(find_by_email(&store, &email).expect("reads"), Some(ann.clone()));
        assert_eq!(find_by_id(&store, ann.id.as_str()).expect("reads"), Some(ann.clone()));
        assert_eq!(find_by_id(&store, "nobody").expect("reads"), None);
        let again = account("Ann@Example.com");
        assert!(matches!(create_account(&store, &again).await, Err(AccountError::Duplicate(_))));
        assert_eq!(find_by_email(&store, &email).expect("reads").map(|a| a.id), Some(ann.id));
    }

    #[actix::test]
    async fn membership_is_granted_to_an_existing_account_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let mut bob = account("bob@example.com");
        bob.member = false;
        create_account(&store, &bob).await.expect("created");
        let email = Email::parse("Bob@example.com").expect("valid");
        assert!(grant_membership(&store, &email).await.expect("granted"));
        let stored = find_by_email(&store, &email).expect("reads").expect("kept");
        assert!(stored.member);
        assert_eq!((stored.id, stored.password_hash), (bob.id, bob.password_hash), "nothing else changes");
        assert!(grant_membership(&store, &email).await.expect("granted again"), "twice is once");
        let nobody = Email::parse("nobody@example.com").expect("valid");
        assert!(!grant_membership(&store, &nobody).await.expect("reads"));
        assert_eq!(find_by_email(&store, &nobody).expect("reads"), None, "no account is made");
    }
}
