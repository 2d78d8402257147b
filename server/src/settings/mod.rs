//! Settings: the one place configuration is read.
//!
//! Layers, later wins: built-in defaults, the TOML file (`--config`, or
//! `config/veranda.toml` when it exists), `VERANDA_*` environment variables, then
//! command-line flags. `config/veranda.toml` documents every key with its default.

mod commerce;
mod pages;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::providers::{Format, Serialized, Toml};
use figment::Figment;
use serde::{Deserialize, Serialize};

pub use commerce::CommerceSettings;
pub use pages::{PageSettings, DEFAULT_PAGE_CACHE_MB};

/// The file read when `--config` is not given, if it exists.
pub const DEFAULT_CONFIG_FILE: &str = "config/veranda.toml";
/// The default `site`; when it is not beside the working directory, the demo built into the
/// binary is served (see [`crate::embedded::ServedSite`]).
pub const DEFAULT_SITE: &str = "config/sites/demo";
/// The default `assets_dir`; when it is not beside the working directory, the client built
/// into the binary is served (see [`crate::assets::Assets::choose`]).
pub const DEFAULT_ASSETS_DIR: &str = "client/dist";

/// Every setting of `veranda serve`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Public listener for visitors.
    pub listen: SocketAddr,
    /// Ops listener for `/metrics` and health probes; never the public one.
    pub ops_listen: SocketAddr,
    /// The site directory served.
    pub site: PathBuf,
    /// Where the store keeps its data.
    pub data_dir: PathBuf,
    /// The page cache the store (sled) may fill, in MiB; at least 1.
    pub store_cache_mb: std::num::NonZeroU64,
    /// Redis URL shared by several instances: every tree is kept there; none means sled alone.
    pub redis_url: Option<String>,
    /// How the store uses that Redis (`[redis]`).
    #[serde(default)]
    pub redis: veranda_actors::store::redis_store::RedisSettings,
    /// Where the built client is (Vite's output folder).
    pub assets_dir: PathBuf,
    /// Log filter (tracing's `EnvFilter` syntax).
    pub log: String,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Seconds a graceful shutdown waits for requests in flight.
    pub shutdown_timeout_secs: u64,
    /// Seconds a request body may take to arrive whole (408 past it).
    pub body_read_timeout_secs: u64,
    /// Limits of the visitor-telemetry ingest endpoints (`[telemetry]`).
    #[serde(default)]
    pub telemetry: veranda_actors::telemetry::TelemetryLimits,
    /// History and pacing of the dashboard's live streams (`[streams]`).
    #[serde(default)]
    pub streams: veranda_actors::streams::StreamLimits,
    /// Rate limits and reCAPTCHA of the forms routes (`[forms]`).
    #[serde(default)]
    pub forms: veranda_actors::forms::config::FormSettings,
    /// The crumb key's source and the trusted proxies (`[security]`).
    #[serde(default)]
    pub security: SecuritySettings,
    /// Where place search is forwarded (`[maps]`).
    #[serde(default)]
    pub maps: MapsSettings,
    /// The bounds on checkouts (`[commerce]`).
    #[serde(default)]
    pub commerce: CommerceSettings,
    /// The page cache (`[pages]`).
    #[serde(default)]
    pub pages: PageSettings,
}

/// `[maps]`: the operator's side of place search: where it is forwarded, with which key, and how much of it one
/// address may use. The browser key in the site's `site.toml` is only for the map in visitors' browsers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapsSettings {
    /// Base address of the Places web service that `/api/google-maps/places/*` forward to
    /// (`<base>/autocomplete/json`, `<base>/details/json`): Google's by default; another is
    /// for an egress proxy, or a stand-in while testing.
    pub places_upstream: String,
    /// The Places key the server sends upstream: a server key, restricted to this server's address, kept here and
    /// never in a page. Empty: place search answers 503 (the browser key is never forwarded).
    pub server_key: String,
    /// Place searches one client address may make per minute (also the burst); over it, 429 with `Retry-After`.
    pub places_per_minute: u32,
    /// Upstream place-search calls in flight at once, over all clients; more are answered 503 with `Retry-After`.
    pub places_concurrency: usize,
    /// Most client addresses the place-search limiter remembers (least recently seen forgotten first).
    pub limited_addresses: usize,
}

impl MapsSettings {
    /// The server key, when one is set.
    pub fn server_key(&self) -> Option<&str> {
        Some(self.server_key.trim()).filter(|k| !k.is_empty())
    }
}

/// Google's Places web service.
pub const GOOGLE_PLACES: &str = "https://maps.googleapis.com/maps/api/place";

impl Default for MapsSettings {
    fn default() -> Self {
        MapsSettings {
            places_upstream: GOOGLE_PLACES.to_string(),
            server_key: String::new(),
            places_per_minute: 30,
            places_concurrency: 8,
            limited_addresses: 10_000,
        }
    }
}

/// The default of `[security] throttle_max_entries`.
pub const DEFAULT_THROTTLE_MAX_ENTRIES: usize = 100_000;

/// `[security]`: what several instances share, and whose forwarded headers are believed.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecuritySettings {
    /// A file of at least 32 bytes every instance signs crumbs with; unset, the key
    /// comes from Redis (`redis_url`) or the data directory
    /// (see [`crate::security::crumb_source`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crumb_key_file: Option<PathBuf>,
    /// Proxies (addresses or CIDR blocks) whose `Forwarded` / `X-Forwarded-*` headers
    /// are believed; empty: they are ignored (see [`crate::security::proxy`]).
    pub trusted_proxies: Vec<crate::security::proxy::ProxyNet>,
    /// Which header a trusted proxy names the client in: `x-forwarded-for` (default),
    /// `forwarded` or `x-real-ip`. Read only from `trusted_proxies`, so a server without
    /// them uses the peer address whatever this says.
    pub client_ip_header: crate::security::proxy::ClientIpHeader,
    /// The address visitors reach the site at (`https://shop.example.com`); an https one
    /// means every cookie is `Secure` and answers carry `Strict-Transport-Security` even
    /// when the proxy in front sends no scheme header. Unset: the connection's scheme (or
    /// a trusted proxy's) decides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_url: Option<String>,
    /// Most keys each of the sign-in and page-unlock throttles keeps (accounts,
    /// addresses, pairs and devices); when full, the least recently used is forgotten.
    pub throttle_max_entries: usize,
}

impl Default for SecuritySettings {
    fn default() -> Self {
        SecuritySettings {
            crumb_key_file: None,
            trusted_proxies: Vec::new(),
            client_ip_header: crate::security::proxy::ClientIpHeader::default(),
            public_url: None,
            throttle_max_entries: DEFAULT_THROTTLE_MAX_ENTRIES,
        }
    }
}

impl SecuritySettings {
    /// Whether `public_url` says the site is served over https.
    pub fn serves_https(&self) -> bool {
        self.public_url.as_deref().and_then(|u| reqwest::Url::parse(u).ok()).is_some_and(|u| u.scheme() == "https")
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            ops_listen: SocketAddr::from(([127, 0, 0, 1], 9090)),
            site: PathBuf::from(DEFAULT_SITE),
            data_dir: PathBuf::from("data"),
            store_cache_mb: veranda_actors::store::DEFAULT_CACHE_MB,
            redis_url: None,
            redis: Default::default(),
            assets_dir: PathBuf::from(DEFAULT_ASSETS_DIR),
            log: "info".into(),
            max_body_bytes: 256 * 1024,
            shutdown_timeout_secs: 10,
            body_read_timeout_secs: 15,
            telemetry: veranda_actors::telemetry::TelemetryLimits::default(),
            streams: veranda_actors::streams::StreamLimits::default(),
            forms: veranda_actors::forms::config::FormSettings::default(),
            security: SecuritySettings::default(),
            maps: MapsSettings::default(),
            commerce: Default::default(),
            pages: Default::default(),
        }
    }
}

/// Values given on the command line; `None` leaves the lower layers' value.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Overrides {
    /// `--listen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<SocketAddr>,
    /// `--ops-listen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ops_listen: Option<SocketAddr>,
    /// `--site`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<PathBuf>,
    /// `--data-dir`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    /// `--redis-url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redis_url: Option<String>,
}

/// Why settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// `--config` names a file that does not exist.
    #[error("{0}: the configuration file does not exist")]
    MissingFile(String),
    /// A key is missing, unknown or of the wrong type.
    #[error("{0}")]
    Invalid(String),
}

impl Settings {
    /// Reads the layers. `config` is `--config`; `env` is the process environment
    /// (passed in so tests control it).
    pub fn load(
        config: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
        overrides: &Overrides,
    ) -> Result<Settings, SettingsError> {
        let file = match config {
            Some(path) if !path.is_file() => return Err(SettingsError::MissingFile(path.display().to_string())),
            Some(path) => Some(path.to_path_buf()),
            None => Some(PathBuf::from(DEFAULT_CONFIG_FILE)).filter(|p| p.is_file()),
        };
        let mut figment = Figment::from(Serialized::defaults(Settings::default()));
        if let Some(file) = &file {
            figment = figment.merge(Toml::file_exact(file));
        }
        let env_pairs: Vec<(String, String)> = env.into_iter().filter(|(k, _)| k.starts_with("VERANDA_")).collect();
        // Only variables naming a setting are read: `VERANDA_BIN` and friends belong to others.
        let known = serde_json::to_value(Settings::default()).unwrap_or_default();
        for (key, value) in env_pairs {
            let key = key["VERANDA_".len()..].to_ascii_lowercase();
            if known.get(&key).is_none() {
                continue;
            }
            // Parsed as TOML-like scalars, so `VERANDA_MAX_BODY_BYTES=1000` is a number.
            let value: figment::value::Value = value.parse().unwrap_or_else(|_| figment::value::Value::from(value));
            figment = figment.merge(Serialized::default(&key, value));
        }
        figment = figment.merge(Serialized::defaults(overrides));
        let settings: Settings = figment.extract().map_err(|e| describe(e, file.as_deref()))?;
        settings.check_crumb_key_file(file.as_deref())?;
        settings.check_places_upstream(file.as_deref())?;
        settings.check_public_url(file.as_deref())?;
        Ok(settings)
    }

    /// A crumb key file that cannot be read or is too short stops start-up here, naming
    /// the settings file, the field and the key file.
    fn check_crumb_key_file(&self, file: Option<&Path>) -> Result<(), SettingsError> {
        let Some(path) = &self.security.crumb_key_file else { return Ok(()) };
        crate::security::crumb_source::key_from_file(path).map(|_| ()).map_err(|why| {
            let source = file.map(|f| f.display().to_string()).unwrap_or_else(|| "settings".to_string());
            SettingsError::Invalid(format!("{source}: security.crumb_key_file: {why}"))
        })
    }

    /// A public address that is not an http(s) URL stops start-up here, naming the
    /// settings file and the field.
    fn check_public_url(&self, file: Option<&Path>) -> Result<(), SettingsError> {
        let Some(url) = &self.security.public_url else { return Ok(()) };
        match reqwest::Url::parse(url) {
            Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.has_host() => Ok(()),
            _ => {
                let source = file.map(|f| f.display().to_string()).unwrap_or_else(|| "settings".to_string());
                Err(SettingsError::Invalid(format!(
                    "{source}: security.public_url: '{url}' is not an http or https address"
                )))
            }
        }
    }

    /// A place-search address that is not an http(s) URL stops start-up here, naming the
    /// settings file and the field.
    fn check_places_upstream(&self, file: Option<&Path>) -> Result<(), SettingsError> {
        let base = &self.maps.places_upstream;
        match reqwest::Url::parse(base) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.has_host() => Ok(()),
            _ => {
                let source = file.map(|f| f.display().to_string()).unwrap_or_else(|| "settings".to_string());
                Err(SettingsError::Invalid(format!(
                    "{source}: maps.places_upstream: '{base}' is not an http or https address"
                )))
            }
        }
    }
}

/// Turns a figment error into `file: field: why` lines.
fn describe(error: figment::Error, file: Option<&Path>) -> SettingsError {
    let lines: Vec<String> = error
        .into_iter()
        .map(|e| {
            let source = match &e.metadata {
                Some(meta) if meta.name.contains("TOML") => {
                    file.map(|f| f.display().to_string()).unwrap_or_else(|| meta.name.to_string())
                }
                Some(meta) if meta.name.contains("Overrides") => "command-line flags".to_string(),
                Some(meta) if meta.name.contains("Value") => "environment (VERANDA_*)".to_string(),
                Some(meta) if meta.name.contains("Settings") => "built-in defaults".to_string(),
                Some(meta) => meta.name.to_string(),
                None => "settings".to_string(),
            };
            let field = if e.path.is_empty() { String::new() } else { format!("{}: ", e.path.join(".")) };
            format!("{source}: {field}{}", e.kind)
        })
        .collect();
    SettingsError::Invalid(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_documented_file_matches_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/veranda.toml");
        let from_file =
            Settings::load(Some(&path), env(&[]), &Overrides::default()).expect("config/veranda.toml loads");
        let defaults = Settings::default();
        assert_eq!(serde_json::to_value(&from_file).ok(), serde_json::to_value(&defaults).ok());
    }

    #[test]
    fn environment_overrides_the_file_and_flags_override_the_environment() {
        let vars = env(&[
            ("VERANDA_LISTEN", "127.0.0.1:7000"),
            ("VERANDA_MAX_BODY_BYTES", "1000"),
            ("VERANDA_BIN", "not a setting"),
            ("OTHER", "x"),
        ]);
        let s = Settings::load(None, vars.clone(), &Overrides::default()).expect("loads");
        assert_eq!(s.listen.port(), 7000);
        assert_eq!(s.max_body_bytes, 1000);
        let flags =
            Overrides { listen: Some("127.0.0.1:7001".parse().expect("valid address")), ..Overrides::default() };
        assert_eq!(Settings::load(None, vars, &flags).expect("loads").listen.port(), 7001);
    }

    #[test]
    fn a_bad_value_names_its_source_and_field() {
        let err = Settings::load(None, env(&[("VERANDA_LISTEN", "not-an-address")]), &Overrides::default())
            .expect_err("a bad address is refused");
        let text = err.to_string();
        assert!(text.contains("listen"), "{text}");
    }

    #[test]
    fn a_bad_file_names_the_file_and_the_field() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, "listen = 12\nunknown_key = true\n").expect("write");
        let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err("refused").to_string();
        assert!(text.contains("bad.toml"), "{text}");
        assert!(text.contains("listen") || text.contains("unknown_key"), "{text}");
    }

    #[test]
    fn the_store_cache_is_256_mib_unless_set_and_never_zero() {
        assert_eq!(Settings::load(None, env(&[]), &Overrides::default()).expect("loads").store_cache_mb.get(), 256);
        let set = Settings::load(None, env(&[("VERANDA_STORE_CACHE_MB", "64")]), &Overrides::default());
        assert_eq!(set.expect("loads").store_cache_mb.get(), 64);
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("zero.toml");
        std::fs::write(&file, "store_cache_mb = 0\n").expect("write");
        let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err("refused").to_string();
        assert!(text.contains("zero.toml") && text.contains("store_cache_mb"), "{text}");
    }

    #[test]
    fn a_missing_config_file_is_an_error() {
        let err = Settings::load(Some(Path::new("/nonexistent/veranda.toml")), env(&[]), &Overrides::default());
        assert!(matches!(err, Err(SettingsError::MissingFile(_))));
    }

    #[test]
    fn the_security_section_reads_a_key_file_and_trusted_proxies() {
        let dir = tempfile::tempdir().expect("temp dir");
        let key = dir.path().join("crumb.key");
        std::fs::write(&key, "0123456789abcdef0123456789abcdef").expect("write");
        let file = dir.path().join("veranda.toml");
        let toml = format!(
            "[security]\ncrumb_key_file = {:?}\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\"]\n",
            key.display().to_string()
        );
        std::fs::write(&file, toml).expect("write");
        let s = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect("loads");
        assert_eq!(s.security.crumb_key_file.as_deref(), Some(key.as_path()));
        assert_eq!(s.security.trusted_proxies.len(), 2);
        assert!(s.security.trusted_proxies[1].contains("10.9.8.7".parse().expect("ip")));
    }

    #[test]
    fn the_security_section_reads_the_client_header_public_url_and_table_size() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("veranda.toml");
        let toml = "[security]\nclient_ip_header = \"x-real-ip\"\npublic_url = \"https://shop.example.com\"\n\
                    throttle_max_entries = 50\n";
        std::fs::write(&file, toml).expect("write");
        let s = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect("loads");
        assert_eq!(s.security.client_ip_header, crate::security::proxy::ClientIpHeader::XRealIp);
        assert!(s.security.serves_https());
        assert_eq!(s.security.throttle_max_entries, 50);
        assert!(!SecuritySettings::default().serves_https(), "unset: the connection decides");
        std::fs::write(&file, "[security]\npublic_url = \"shop.example.com\"\n").expect("write");
        let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err("refused").to_string();
        assert!(text.contains("security.public_url") && text.contains("veranda.toml"), "{text}");
        std::fs::write(&file, "[security]\nclient_ip_header = \"x-client-ip\"\n").expect("write");
        let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err("refused").to_string();
        assert!(text.contains("client_ip_header"), "{text}");
    }

    #[test]
    fn a_short_key_file_or_a_bad_proxy_names_the_file_and_the_field() {
        let dir = tempfile::tempdir().expect("temp dir");
        let key = dir.path().join("short.key");
        std::fs::write(&key, "too short").expect("write");
        let file = dir.path().join("veranda.toml");
        std::fs::write(&file, format!("[security]\ncrumb_key_file = {:?}\n", key.display().to_string()))
            .expect("write");
        let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err("refused").to_string();
        assert!(text.contains("veranda.toml") && text.contains("security.crumb_key_file"), "{text}");
        assert!(text.contains("short.key") && text.contains("at least 32"), "{text}");
        std::fs::write(&file, "[security]\ntrusted_proxies = [\"10.0.0.0/40\"]\n").expect("write");
        let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err("refused").to_string();
        assert!(text.contains("veranda.toml") && text.contains("trusted_proxies"), "{text}");
    }

    #[test]
    fn a_place_search_address_must_be_http_or_https() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("veranda.toml");
        for bad in ["ftp://places.example/api", "not a url", "file:///etc/passwd"] {
            std::fs::write(&file, format!("[maps]\nplaces_upstream = {bad:?}\n")).expect("write");
            let text = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect_err(bad).to_string();
            assert!(text.contains("veranda.toml: maps.places_upstream:") && text.contains(bad), "{text}");
        }
        std::fs::write(&file, "[maps]\nplaces_upstream = \"http://127.0.0.1:9/place\"\n").expect("write");
        let s = Settings::load(Some(&file), env(&[]), &Overrides::default()).expect("an http address is accepted");
        assert_eq!(s.maps.places_upstream, "http://127.0.0.1:9/place");
        assert_eq!(Settings::default().maps.places_upstream, GOOGLE_PLACES);
    }
}
