//! Security at the edge: who is signed in, the crumb (CSRF) check, and the owner redirect.

pub mod crumb;
pub mod owner_redirect;
pub mod session;
