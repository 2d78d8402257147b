//! Helpers for black-box tests: `spawn_app()` starts the server on port 0 with a
//! temporary data dir and the demo site (or a site you pass), plus a client that does
//! not follow redirects.
//!
//! # Layout
//! - [`accounts`]: site accounts, stored and signed in.
//! - [`cookies`]: the cookies an answer sets.
//! - [`crumbs`]: crumbs as a page hands them out.
//! - [`visitor`]: a visitor's cookie jar that sends the crumb header.
//! - [`wait`]: [`eventually`], polling for background work instead of sleeping.
//! - [`process`]: the real binary, for tests that kill it.
//! - [`proxies`]: a server behind trusted proxies, and the per-address form-key limit.
//! - [`stand_in`]: [`serve_stand_in`], a local stand-in for an outside service.
//! - [`spec`]: the spec's literals of `tests/spec/` (page type ids, constants, messages).

pub mod accounts;
pub mod answers;
pub mod codings;
pub mod cookies;
pub mod crumbs;
pub mod metrics;
pub mod process;
pub mod proxies;
pub mod spec;
pub mod stand_in;
pub mod telemetry;
pub mod visitor;
pub mod wait;

pub use accounts::{add_account, add_member_and_sign_in};
pub use answers::{assert_refused, json_with_status, text_with_status};
pub use cookies::{cookie_value, pair, set_cookie};
pub use crumbs::{crumb, crumb_for, spawn_app_with_crumb};
pub use proxies::{form_key_status, form_key_statuses, spawn_app_behind};
pub use stand_in::serve_stand_in;
pub use visitor::Visitor;
pub use wait::eventually;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use veranda_actors::accounts::{SessionRecord, SESSION_COOKIE};
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::site::Site;
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_server::assets::Assets;
use veranda_server::settings::Settings;
use veranda_server::startup::Application;

/// A running server for one test.
pub struct TestApp {
    /// `http://127.0.0.1:<port>` of the public listener.
    pub address: String,
    /// `http://127.0.0.1:<port>` of the ops listener.
    pub ops_address: String,
    /// The public port, for raw requests.
    pub port: u16,
    /// The store the server writes to.
    pub store: Arc<dyn Store>,
    /// The site it serves.
    pub site: Site,
    /// A client that keeps no cookies and follows no redirects.
    pub client: reqwest::Client,
    /// Keeps the data dir alive for the test's duration.
    _data_dir: tempfile::TempDir,
}

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The demo site's folder.
pub fn demo_site_dir() -> PathBuf {
    repo_root().join("config/sites/demo")
}

/// Starts the server with the demo site.
pub async fn spawn_app() -> TestApp {
    spawn_app_with_site(&demo_site_dir()).await
}

/// Starts the server with the site in `dir`.
pub async fn spawn_app_with_site(dir: &Path) -> TestApp {
    spawn_app_configured(dir, |_| {}).await
}

/// Starts the server with the site in `dir` and settings changed by `configure`.
pub async fn spawn_app_configured(dir: &Path, configure: impl FnOnce(&mut Settings)) -> TestApp {
    let site = Site::load(dir).unwrap_or_else(|e| panic!("test site {} must load: {e}", dir.display()));
    let assets = Assets::load(&repo_root().join("client/dist")).expect("client/dist is readable");
    spawn_site(site, assets, configure).await
}

/// Starts the server with `site` (already loaded, or built in the test) and `assets`,
/// with settings changed by `configure`.
pub async fn spawn_site(site: Site, assets: Assets, configure: impl FnOnce(&mut Settings)) -> TestApp {
    let data_dir = tempfile::tempdir().expect("a temporary data dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(data_dir.path()).expect("store opens"));
    let mut settings = Settings {
        listen: "127.0.0.1:0".parse().expect("valid address"),
        ops_listen: "127.0.0.1:0".parse().expect("valid address"),
        site: site.dir.clone(),
        data_dir: data_dir.path().to_path_buf(),
        ..Settings::default()
    };
    configure(&mut settings);
    let app = Application::build_with(settings, site.clone(), store.clone(), assets).await.expect("the app binds");
    let (port, ops_port) = (app.port(), app.ops_port());
    actix_rt::spawn(app.run_until_stopped());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client builds");
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        ops_address: format!("http://127.0.0.1:{ops_port}"),
        port,
        store,
        site,
        client,
        _data_dir: data_dir,
    }
}

impl TestApp {
    /// GET `path` on the public listener.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{}", self.address, path)).send().await.expect("request is answered")
    }

    /// GET `path` on the ops listener.
    pub async fn get_ops(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{}", self.ops_address, path)).send().await.expect("request is answered")
    }

    /// GET `path` with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut req = self.client.get(format!("{}{}", self.address, path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.expect("request is answered")
    }

    /// GET `path` as the holder of `cookie` (a `Cookie` header value); the body as JSON.
    pub async fn get_json(&self, path: &str, cookie: &str) -> serde_json::Value {
        self.get_with(path, &[("cookie", cookie)]).await.json().await.expect("the body is JSON")
    }

    /// POST `path` with the urlencoded `form` and `crumb` as the crumb cookie, as a page's
    /// form is sent (the form carries its own `crumb` field when it should).
    pub async fn post_form(&self, path: &str, crumb: &str, form: &[(&str, &str)]) -> reqwest::Response {
        let req = self.client.post(format!("{}{path}", self.address)).header("cookie", format!("crumb={crumb}"));
        req.form(form).send().await.expect("request is answered")
    }

    /// `req` with `crumb` as the crumb cookie and the `X-CSRF-Token` header, as the site's
    /// own script sends a call.
    pub fn with_crumb(req: reqwest::RequestBuilder, crumb: &str) -> reqwest::RequestBuilder {
        req.header("cookie", format!("crumb={crumb}")).header("x-csrf-token", crumb)
    }

    /// Stores a signed-in session and returns its `Cookie` header value.
    pub async fn sign_in(&self, owner: bool, roles: &[ContributorRole], member: bool) -> String {
        let id = format!("test-session-{}", rand_suffix());
        let record = SessionRecord {
            account_id: format!("account-{id}"),
            owner,
            roles: roles.to_vec(),
            member,
            expires_at: i64::MAX,
        };
        let bytes = serde_json::to_vec(&record).expect("a session serialises");
        self.store.put(Tree::Sessions, id.as_bytes(), &bytes).await.expect("session stored");
        format!("{SESSION_COOKIE}={id}")
    }

    /// Sends `request_target` verbatim (no client-side normalisation) and returns the
    /// status code and the whole response. For path-traversal tests.
    pub async fn raw_get(&self, request_target: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.expect("connects");
        let request = format!("GET {request_target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("writes");
        let mut response = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await;
        let text = String::from_utf8_lossy(&response).to_string();
        let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, text)
    }
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// The page context JSON embedded in an HTML page.
pub fn page_context(html: &str) -> serde_json::Value {
    let start_tag = "<script id=\"page-context\" type=\"application/json\">";
    let start = html.find(start_tag).expect("the page embeds its context") + start_tag.len();
    let end = html[start..].find("</script>").expect("the context script ends") + start;
    serde_json::from_str(&html[start..end]).expect("the page context is JSON")
}

/// Copies the demo site into a temporary folder and lets `edit` change its
/// `site.toml` (parsed as a TOML table).
pub fn demo_site_copy(edit: impl FnOnce(&mut toml::Table)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(&demo_site_dir(), dir.path());
    let path = dir.path().join("site.toml");
    let mut table: toml::Table = std::fs::read_to_string(&path).expect("site.toml").parse().expect("site.toml parses");
    edit(&mut table);
    std::fs::write(&path, toml::to_string(&table).expect("serialises")).expect("writes");
    dir
}

/// A copy of the demo site whose contact form asks for no captcha (for tests that submit
/// it many times without solving one).
pub fn demo_site_without_captcha() -> tempfile::TempDir {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("pages/contact.toml");
    let text = std::fs::read_to_string(&path).expect("contact page");
    std::fs::write(&path, text.replacen("captcha = true", "captcha = false", 1)).expect("written");
    dir
}

/// A copy of the demo site (its `site.toml` changed by `edit`) whose contact form
/// sends visitors to `redirect` after success.
pub fn demo_site_with_redirect(redirect: &str, edit: impl FnOnce(&mut toml::Table)) -> tempfile::TempDir {
    let dir = demo_site_copy(edit);
    let path = dir.path().join("pages/contact.toml");
    let text = std::fs::read_to_string(&path).expect("contact page");
    let line = format!("captcha = true\nsuccessRedirect = {}", toml::Value::String(redirect.to_string()));
    std::fs::write(&path, text.replacen("captcha = true", &line, 1)).expect("written");
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
