//! Security at the edge: who is signed in, and the owner redirect.

pub mod owner_redirect;
pub mod session;
