//! Accounts and signed-in sessions: who may sign in, with which password and roles,
//! and who is signed in now.
//!
//! ## Layout
//!
//! - `email`: [`Email`], an address parsed once (lowercase, the spec's pattern).
//! - `password`: [`Password`] and [`PasswordDigest`] (argon2id, PHC strings).
//! - `account`: the [`Account`] record, its id and the roles given at creation.
//! - `registry`: accounts in the store (by email, by id), never duplicated; membership
//!   granted to an account.
//! - `session`: [`SessionRecord`], session ids, starting and ending a session.

mod account;
mod email;
mod password;
mod registry;
mod session;

pub use account::{Account, AccountId, AccountIdError, AccountRole, AccountSummary, RoleError, ACCOUNT_ID_LEN};
pub use email::{check_email, Email, EmailError, EMAIL_LENGTH};
pub use password::{Password, PasswordDigest, PasswordError, MAX_PASSWORD_BYTES};
pub use registry::{create_account, find_by_email, find_by_id, grant_membership, AccountError};
pub use session::{
    end_session, start_session, SessionId, SessionRecord, BROWSER_SESSION_SECS, REMEMBERED_SESSION_SECS, SESSION_COOKIE,
};
