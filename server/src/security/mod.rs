//! Security at the edge: who is signed in, the crumb (CSRF) check and where its key comes
//! from, which proxies' forwarded headers are believed, and the owner redirect.

pub mod crumb;
pub mod crumb_source;
pub mod owner_redirect;
pub mod proxy;
pub mod session;
