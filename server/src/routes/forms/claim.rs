//! Claims on single-use tokens (submission keys, solved captcha challenges) while a
//! submission using them is in flight, so a concurrent second use is refused at once.

use super::{lock, FormsState};

/// A token being redeemed; released when dropped.
pub struct Claim<'a> {
    /// Where the claim is held.
    forms: &'a FormsState,
    /// The token's store key.
    key: String,
}

impl<'a> Claim<'a> {
    /// Claims `key`, or `None` when another request holds it.
    pub fn take(forms: &'a FormsState, key: &str) -> Option<Claim<'a>> {
        lock(&forms.redeeming).insert(key.to_string()).then(|| Claim { forms, key: key.to_string() })
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        lock(&self.forms.redeeming).remove(&self.key);
    }
}
