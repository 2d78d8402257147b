//! Trusted proxies: whose forwarded headers are believed, and which one names the client.
//!
//! Anyone can send `X-Forwarded-Proto: https` or `X-Forwarded-For: 1.2.3.4`. They are
//! honoured only when the connection's peer is in `[security] trusted_proxies` (addresses
//! or CIDR blocks; none by default, so by default they are ignored, and the first time
//! one arrives from an untrusted peer a warning is logged, once per process). From a
//! trusted peer, only the family of headers named by `[security] client_ip_header` is
//! read, so a header the proxy passes through untouched (nginx forwards a client's own
//! `Forwarded`) cannot speak for the client:
//!
//! - `x-forwarded-for` (the default): the address from `X-Forwarded-For`, the scheme
//!   from `X-Forwarded-Proto`, the host from `X-Forwarded-Host`;
//! - `forwarded`: all three from `Forwarded` (`for=`, `proto=`, `host=`);
//! - `x-real-ip`: the address from `X-Real-IP`, scheme and host as for `x-forwarded-for`.
//!
//! The client address is found by walking the chain from the right, skipping trusted
//! proxies: the first untrusted hop is the client. A chain made only of trusted hops
//! gives its leftmost entry; no usable entry gives the peer.
//!
//! From any other peer the scheme is the listener's (`http`), the host is `Host`, and
//! the client address is the peer's. Secure-cookie decisions, the `Origin` check of
//! plain posts and per-address rate limits all read [`ClientInfo`]; nothing else should
//! read `connection_info()` for those.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use actix_web::http::header::HeaderName;
use actix_web::{web, HttpMessage, HttpRequest};
use serde::{Deserialize, Serialize};

use super::EdgeState;

/// One trusted proxy: an address, or a CIDR block (`10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ProxyNet {
    /// The block's first address (host bits cleared).
    network: IpAddr,
    /// Bits of the prefix (32 or 128 for a single address).
    prefix: u8,
}

impl ProxyNet {
    /// Whether `ip` lies in the block. An IPv4-mapped IPv6 peer (`::ffff:a.b.c.d`) is
    /// compared as its IPv4 address.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(IpAddr::V6(v6)),
            v4 => v4,
        };
        match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => mask_v4(u32::from(ip), self.prefix) == u32::from(net),
            (IpAddr::V6(net), IpAddr::V6(ip)) => mask_v6(u128::from(ip), self.prefix) == u128::from(net),
            _ => false,
        }
    }
}

fn mask_v4(bits: u32, prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        bits & (u32::MAX << (32 - u32::from(prefix)))
    }
}

fn mask_v6(bits: u128, prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        bits & (u128::MAX << (128 - u32::from(prefix)))
    }
}

/// Why a text is not a [`ProxyNet`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProxyNetError {
    /// The address part is not an IP address.
    #[error("{0:?} is not an IP address or a CIDR block such as 10.0.0.0/8")]
    Address(String),
    /// The prefix length is not a number within the address's width.
    #[error("{text:?}: the prefix length must be a number from 0 to {max}")]
    Prefix { text: String, max: u8 },
}

impl FromStr for ProxyNet {
    type Err = ProxyNetError;

    fn from_str(text: &str) -> Result<ProxyNet, ProxyNetError> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let ip: IpAddr = address.parse().map_err(|_| ProxyNetError::Address(text.to_string()))?;
        let max = if ip.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| ProxyNetError::Prefix { text: text.to_string(), max })?,
        };
        let network = match ip {
            IpAddr::V4(v4) => IpAddr::V4(mask_v4(u32::from(v4), prefix).into()),
            IpAddr::V6(v6) => IpAddr::V6(mask_v6(u128::from(v6), prefix).into()),
        };
        Ok(ProxyNet { network, prefix })
    }
}

impl TryFrom<String> for ProxyNet {
    type Error = ProxyNetError;

    fn try_from(text: String) -> Result<ProxyNet, ProxyNetError> {
        text.parse()
    }
}

impl From<ProxyNet> for String {
    fn from(net: ProxyNet) -> String {
        net.to_string()
    }
}

impl fmt::Display for ProxyNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

/// Which forwarded header names the client behind a trusted proxy
/// (`[security] client_ip_header`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClientIpHeader {
    /// `X-Forwarded-For` (with `X-Forwarded-Proto` and `X-Forwarded-Host`): what nginx's
    /// `$proxy_add_x_forwarded_for` and Caddy's `reverse_proxy` send.
    #[default]
    XForwardedFor,
    /// `Forwarded: for=…;proto=…;host=…` (RFC 7239).
    Forwarded,
    /// `X-Real-IP` (one address), with `X-Forwarded-Proto` and `X-Forwarded-Host`.
    XRealIp,
}

/// The headers that carry a forwarded address, scheme or host; from an untrusted peer
/// they are ignored (and the first such request is logged).
static FORWARDED_HEADERS: [HeaderName; 5] = [
    HeaderName::from_static("forwarded"),
    HeaderName::from_static("x-forwarded-for"),
    HeaderName::from_static("x-real-ip"),
    HeaderName::from_static("x-forwarded-proto"),
    HeaderName::from_static("x-forwarded-host"),
];

/// Whether the untrusted-peer warning was logged already.
static WARNED_UNTRUSTED: AtomicBool = AtomicBool::new(false);

/// What a request says about its client, believing forwarded headers only from a
/// trusted proxy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInfo {
    /// `http` or `https`.
    pub scheme: String,
    /// The host the client asked for (with port, if any).
    pub host: String,
    /// The client's address; `None` only when the connection has no peer address (tests).
    pub ip: Option<IpAddr>,
}

impl ClientInfo {
    /// Reads the request, with the trusted proxies, client header and public address of
    /// the running server's settings.
    pub fn of(req: &HttpRequest) -> ClientInfo {
        ClientInfo::kept(req, ClientInfo::clone)
    }

    /// The client's address, as [`ClientInfo::of`] reads it.
    pub fn ip_of(req: &HttpRequest) -> Option<IpAddr> {
        ClientInfo::kept(req, |info| info.ip)
    }

    /// Whether the client reached the site over https, as [`ClientInfo::of`] reads it.
    pub fn https_of(req: &HttpRequest) -> bool {
        ClientInfo::kept(req, ClientInfo::is_https)
    }

    /// Reads the request once (the edge and the handler both ask) and keeps the answer
    /// in its extensions.
    fn kept<T>(req: &HttpRequest, read: impl FnOnce(&ClientInfo) -> T) -> T {
        if let Some(info) = req.extensions().get::<ClientInfo>() {
            return read(info);
        }
        let info = ClientInfo::read(req);
        let answer = read(&info);
        req.extensions_mut().insert(info);
        answer
    }

    fn read(req: &HttpRequest) -> ClientInfo {
        let Some(edge) = req.app_data::<web::Data<EdgeState>>() else {
            return ClientInfo::with(req, &[], ClientIpHeader::default());
        };
        let mut info = ClientInfo::with(req, &edge.trusted_proxies, edge.client_ip_header);
        if edge.public_https {
            info.scheme = "https".to_string();
        }
        info
    }

    /// Reads the request, believing the `header` family from peers in `trusted`.
    pub fn with(req: &HttpRequest, trusted: &[ProxyNet], header: ClientIpHeader) -> ClientInfo {
        let peer = req.peer_addr().map(|a| a.ip());
        let is_trusted = |ip: IpAddr| trusted.iter().any(|net| net.contains(ip));
        if peer.is_some_and(is_trusted) {
            let chain = forwarded_chain(req, header);
            let ip = chain.iter().rev().find(|hop| !is_trusted(**hop)).or(chain.first()).copied();
            let (scheme, host) = forwarded_scheme_and_host(req, header);
            let own = ClientInfo::direct(req, peer);
            return ClientInfo {
                scheme: scheme.unwrap_or(own.scheme),
                host: host.unwrap_or(own.host),
                ip: ip.or(peer),
            };
        }
        if let Some(peer) = peer {
            warn_once_if_forwarded(req, peer);
        }
        ClientInfo::direct(req, peer)
    }

    /// What the connection itself says: the listener's scheme, `Host`, the peer.
    fn direct(req: &HttpRequest, peer: Option<IpAddr>) -> ClientInfo {
        let config = req.app_config();
        let host = req
            .headers()
            .get(actix_web::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_string)
            .or_else(|| req.uri().authority().map(|a| a.to_string()))
            .unwrap_or_else(|| config.host().to_string());
        ClientInfo { scheme: if config.secure() { "https" } else { "http" }.to_string(), host, ip: peer }
    }

    /// Whether the client reached the site over https (so cookies get `Secure`).
    pub fn is_https(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("https")
    }
}

/// The request's client address (see [`ClientInfo`]); the unspecified address when the
/// connection has none.
pub fn client_ip(req: &HttpRequest) -> IpAddr {
    ClientInfo::ip_of(req).unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
}

/// Logs, once per process, that forwarded headers came from a peer not listed in
/// `trusted_proxies` (a proxy the operator forgot to list, or a client trying its luck).
fn warn_once_if_forwarded(req: &HttpRequest, peer: IpAddr) {
    if WARNED_UNTRUSTED.load(Ordering::Relaxed) {
        return;
    }
    let Some(name) = FORWARDED_HEADERS.iter().find(|name| req.headers().contains_key(*name)) else { return };
    if !WARNED_UNTRUSTED.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            %peer,
            header = name.as_str(),
            "forwarded headers from a peer not in [security] trusted_proxies are ignored; \
             if it is your proxy, list it there (logged once)"
        );
    }
}

/// Every value of the header `name`, comma-separated lists split, in order.
fn list_values(req: &HttpRequest, name: &str) -> Vec<String> {
    req.headers()
        .get_all(name)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_string())
        .collect()
}

/// The `key=value` pairs of every `Forwarded` element, left to right.
fn forwarded_pairs(req: &HttpRequest, key: &str) -> Vec<String> {
    list_values(req, "forwarded")
        .iter()
        .flat_map(|element| element.split(';'))
        .filter_map(|pair| pair.split_once('='))
        .filter(|(k, _)| k.trim().eq_ignore_ascii_case(key))
        .map(|(_, v)| v.trim().trim_matches('"').to_string())
        .collect()
}

/// The addresses a request passed through, client first, from the `header` family.
/// Entries that are not addresses (`unknown`, obfuscated names) are skipped.
fn forwarded_chain(req: &HttpRequest, header: ClientIpHeader) -> Vec<IpAddr> {
    let entries = match header {
        ClientIpHeader::Forwarded => forwarded_pairs(req, "for"),
        ClientIpHeader::XForwardedFor => list_values(req, "x-forwarded-for"),
        ClientIpHeader::XRealIp => list_values(req, "x-real-ip"),
    };
    entries.iter().filter_map(|entry| parse_node(entry)).collect()
}

/// The scheme and host the nearest trusted proxy reports (the right-most value), from the
/// `header` family; `None` where it reports none.
fn forwarded_scheme_and_host(req: &HttpRequest, header: ClientIpHeader) -> (Option<String>, Option<String>) {
    let last = |values: Vec<String>| values.into_iter().rev().find(|v| !v.is_empty());
    let (scheme, host) = match header {
        ClientIpHeader::Forwarded => (last(forwarded_pairs(req, "proto")), last(forwarded_pairs(req, "host"))),
        ClientIpHeader::XForwardedFor | ClientIpHeader::XRealIp => {
            (last(list_values(req, "x-forwarded-proto")), last(list_values(req, "x-forwarded-host")))
        }
    };
    let scheme = scheme.map(|s| s.to_ascii_lowercase()).filter(|s| s == "http" || s == "https");
    (scheme, host)
}

/// One hop: `1.2.3.4`, `1.2.3.4:80`, `"[2001:db8::1]:443"`, `2001:db8::1`.
fn parse_node(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(ip) = text.parse() {
        return Some(ip);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']').and_then(|(ip, _)| ip.parse().ok());
    }
    text.rsplit_once(':').and_then(|(ip, _)| ip.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    const XFF: ClientIpHeader = ClientIpHeader::XForwardedFor;

    fn nets(list: &[&str]) -> Vec<ProxyNet> {
        list.iter().map(|n| n.parse().expect("a valid block")).collect()
    }

    fn from(peer: &str) -> TestRequest {
        TestRequest::get().peer_addr(peer.parse().expect("an address")).insert_header(("host", "shop.example"))
    }

    #[test]
    fn blocks_contain_their_addresses_only() {
        let list = nets(&["10.0.0.0/8", "192.168.1.7", "fd00::/8", "0.0.0.0/0"]);
        assert!(list[0].contains("10.255.0.1".parse().expect("ip")));
        assert!(!list[0].contains("11.0.0.1".parse().expect("ip")));
        assert!(list[1].contains("192.168.1.7".parse().expect("ip")));
        assert!(!list[1].contains("192.168.1.8".parse().expect("ip")));
        assert!(list[2].contains("fd12::1".parse().expect("ip")));
        assert!(!list[2].contains("10.0.0.1".parse().expect("ip")));
        assert!(list[3].contains("8.8.8.8".parse().expect("ip")));
        assert!(list[0].contains("::ffff:10.1.2.3".parse().expect("ip")), "IPv4-mapped peers");
        assert_eq!(list[0].to_string(), "10.0.0.0/8");
        assert_eq!("10.1.2.3/8".parse::<ProxyNet>().map(|n| n.to_string()), Ok("10.0.0.0/8".to_string()));
    }

    #[test]
    fn bad_blocks_are_refused_with_a_reason() {
        for bad in ["", "localhost", "10.0.0.0/33", "10.0.0.0/x", "::1/129", "1.2.3"] {
            let err = bad.parse::<ProxyNet>().expect_err(bad).to_string();
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn forwarded_headers_from_an_untrusted_peer_are_ignored() {
        let req = from("203.0.113.9:5000")
            .insert_header(("x-forwarded-proto", "https"))
            .insert_header(("x-forwarded-host", "evil.example"))
            .insert_header(("x-forwarded-for", "1.2.3.4"))
            .to_http_request();
        let info = ClientInfo::with(&req, &nets(&["127.0.0.1"]), XFF);
        assert_eq!(info.scheme, "http");
        assert!(!info.is_https());
        assert_eq!(info.host, "shop.example");
        assert_eq!(info.ip, Some("203.0.113.9".parse().expect("ip")));
    }

    #[test]
    fn forwarded_headers_from_a_trusted_peer_are_honoured() {
        let req = from("127.0.0.1:5000")
            .insert_header(("x-forwarded-proto", "https"))
            .insert_header(("x-forwarded-for", "6.6.6.6, 198.51.100.4, 10.0.0.2"))
            .to_http_request();
        let info = ClientInfo::with(&req, &nets(&["127.0.0.1", "10.0.0.0/8"]), XFF);
        assert!(info.is_https());
        assert_eq!(info.ip, Some("198.51.100.4".parse().expect("ip")), "the first untrusted hop from the right");
        let req = from("127.0.0.1:5000")
            .insert_header(("forwarded", "for=\"[2001:db8::7]:4711\";proto=https, for=10.0.0.3"))
            .to_http_request();
        let info = ClientInfo::with(&req, &nets(&["127.0.0.1", "10.0.0.0/8"]), ClientIpHeader::Forwarded);
        assert_eq!(info.ip, Some("2001:db8::7".parse().expect("ip")));
        assert!(info.is_https());
        let only_proxies =
            from("127.0.0.1:1").insert_header(("x-forwarded-for", "10.0.0.9, 10.0.0.2")).to_http_request();
        assert_eq!(
            ClientInfo::with(&only_proxies, &nets(&["127.0.0.0/8", "10.0.0.0/8"]), XFF).ip,
            Some("10.0.0.9".parse().expect("ip"))
        );
        let junk = from("127.0.0.1:1").insert_header(("x-forwarded-for", "unknown, not-an-ip")).to_http_request();
        assert_eq!(ClientInfo::with(&junk, &nets(&["127.0.0.1"]), XFF).ip, Some("127.0.0.1".parse().expect("ip")));
    }

    #[test]
    fn only_the_configured_header_names_the_client() {
        let trusted = nets(&["127.0.0.1"]);
        let req = from("127.0.0.1:5000")
            .insert_header(("forwarded", "for=6.6.6.6;proto=https;host=evil.example"))
            .insert_header(("x-forwarded-for", "198.51.100.4"))
            .insert_header(("x-real-ip", "203.0.113.5"))
            .to_http_request();
        let info = ClientInfo::with(&req, &trusted, XFF);
        assert_eq!(info.ip, Some("198.51.100.4".parse().expect("ip")), "a passed-through Forwarded is not read");
        assert_eq!((info.scheme.as_str(), info.host.as_str()), ("http", "shop.example"));
        let info = ClientInfo::with(&req, &trusted, ClientIpHeader::Forwarded);
        assert_eq!(info.ip, Some("6.6.6.6".parse().expect("ip")));
        assert_eq!((info.scheme.as_str(), info.host.as_str()), ("https", "evil.example"));
        let info = ClientInfo::with(&req, &trusted, ClientIpHeader::XRealIp);
        assert_eq!(info.ip, Some("203.0.113.5".parse().expect("ip")));
        let missing = from("127.0.0.1:5000").insert_header(("forwarded", "for=6.6.6.6")).to_http_request();
        assert_eq!(ClientInfo::with(&missing, &trusted, XFF).ip, Some("127.0.0.1".parse().expect("ip")));
    }

    #[test]
    fn the_header_setting_reads_its_documented_names() {
        for (text, header) in
            [("x-forwarded-for", XFF), ("forwarded", ClientIpHeader::Forwarded), ("x-real-ip", ClientIpHeader::XRealIp)]
        {
            assert_eq!(serde_json::from_value::<ClientIpHeader>(serde_json::json!(text)).ok(), Some(header));
        }
        assert!(serde_json::from_value::<ClientIpHeader>(serde_json::json!("x-client-ip")).is_err());
        assert_eq!(ClientIpHeader::default(), XFF);
    }
}
