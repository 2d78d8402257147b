//! Security at the edge: who is signed in, the crumb (CSRF) check and where its key comes
//! from, which proxies' forwarded headers are believed, the owner redirect, and the one
//! builder of the cookies the server sets.

pub mod cookies;
pub mod crumb;
pub mod crumb_source;
pub mod owner_redirect;
pub mod permissions;
pub mod proxy;
pub mod session;

use std::sync::Arc;

use veranda_actors::store::Store;

/// What the extractors of this module read from the running server, registered as app
/// data beside the application state so that security depends on nothing above it.
pub struct EdgeState {
    /// Peers whose forwarded headers are believed (`[security] trusted_proxies`).
    pub trusted_proxies: Vec<proxy::ProxyNet>,
    /// Which forwarded header names the client (`[security] client_ip_header`).
    pub client_ip_header: proxy::ClientIpHeader,
    /// Whether `[security] public_url` is an https address: the site is served over
    /// https whatever the connection says.
    pub public_https: bool,
    /// Where sessions are kept.
    pub sessions: Arc<dyn Store>,
}
