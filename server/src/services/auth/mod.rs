//! [`Auth`]: what signing in and unlocking password pages keep between requests: the
//! sign-in and unlock throttles, the key that signs unlock grants, and the password
//! pages' locks.
//!
//! ## Layout
//!
//! - `throttle`: failed sign-ins (and unlocks) per account, address and device.
//! - `device`: the signed device cookie a sign-in sets, which the throttle trusts.
//! - `grant`: the signed cookie an unlock sets, and its key.
//! - `locks`: the password pages' hashes, parsed once.

pub mod device;
mod grant;
mod locks;
pub mod throttle;

use std::collections::HashMap;

use veranda_actors::accounts::PasswordDigest;
use veranda_actors::site::Site;
use veranda_actors::store::Store;

pub use grant::{UnlockKey, UNLOCK_COOKIE_PREFIX};
pub use locks::{page_locks, PageLock};

/// State the auth routes share across workers.
pub struct Auth {
    /// Failed sign-ins per account, client address and device.
    pub throttle: throttle::LoginThrottle,
    /// Checked against when the account does not exist, so that takes as long as a
    /// real check.
    pub dummy_digest: PasswordDigest,
    /// Wrong page passwords per page and client address (kept apart from sign-ins).
    pub unlock_throttle: throttle::LoginThrottle,
    /// Signs the grants that open password pages.
    pub unlock_key: UnlockKey,
    /// The password pages' hashes, by page id, parsed once.
    pub page_locks: HashMap<String, PageLock>,
}

impl Auth {
    /// Builds the state once at start-up (hashes the dummy password: a few
    /// milliseconds; loads or creates the unlock key). Should the store refuse the key,
    /// a key for this process only is used and grants end with it.
    pub async fn start(store: &dyn Store, site: &Site, throttle_max_entries: usize) -> Auth {
        let unlock_key = match UnlockKey::load_or_create(store).await {
            Ok(key) => key,
            Err(e) => {
                tracing::warn!(error = %e, "the unlock key could not be stored; page unlocks end at restart");
                UnlockKey::random()
            }
        };
        Auth {
            throttle: throttle::LoginThrottle::new(throttle_max_entries, "sign_in"),
            dummy_digest: PasswordDigest::dummy(),
            unlock_throttle: throttle::LoginThrottle::new(throttle_max_entries, "unlock"),
            unlock_key,
            page_locks: page_locks(site),
        }
    }
}
