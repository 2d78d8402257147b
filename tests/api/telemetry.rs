//! Visitor telemetry: census hits and visitor cookies, recording rules, error reports,
//! events, traces, performance records, limits and backpressure.

mod census;
mod ingest;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use veranda_actors::accounts::{SessionRecord, SESSION_COOKIE};
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::site::Site;
use veranda_actors::store::{SledStore, Store, Tree};
use veranda_actors::telemetry::TelemetryLimits;
use veranda_server::assets::Assets;
use veranda_server::settings::Settings;
use veranda_server::startup::Application;
use veranda_tests::{demo_site_dir, repo_root};

/// A running server with the telemetry limits a test chose.
pub struct App {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// The server's store.
    pub store: Arc<dyn Store>,
    /// A client without cookies or redirects.
    pub client: reqwest::Client,
    /// Keeps the data dir alive.
    _data_dir: tempfile::TempDir,
}

/// Starts the demo site (or `dir`) with `limits`.
pub async fn spawn(dir: Option<&Path>, limits: TelemetryLimits) -> App {
    let dir = dir.map(Path::to_path_buf).unwrap_or_else(demo_site_dir);
    let site = Site::load(&dir).expect("the test site loads");
    let data_dir = tempfile::tempdir().expect("a temporary data dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(data_dir.path()).expect("store opens"));
    let settings = Settings {
        listen: "127.0.0.1:0".parse().expect("valid address"),
        ops_listen: "127.0.0.1:0".parse().expect("valid address"),
        site: dir.clone(),
        data_dir: data_dir.path().to_path_buf(),
        telemetry: limits,
        ..Settings::default()
    };
    let assets = Assets::load(&repo_root().join("client/dist")).expect("client/dist is readable");
    let app = Application::build_with(settings, site, store.clone(), assets).await.expect("the app binds");
    let port = app.port();
    actix_rt::spawn(app.run_until_stopped());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client builds");
    App { address: format!("http://127.0.0.1:{port}"), store, client, _data_dir: data_dir }
}

/// The demo site with default limits.
pub async fn demo() -> App {
    spawn(None, TelemetryLimits::default()).await
}

impl App {
    /// `POST path` with a form body and extra headers.
    pub async fn post_form(&self, path: &str, form: &[(&str, &str)], headers: &[(&str, &str)]) -> reqwest::Response {
        let mut req = self.client.post(format!("{}{path}", self.address)).form(form);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.expect("answered")
    }

    /// `POST path` with a raw body, content type and extra headers.
    pub async fn post_body(
        &self,
        path: &str,
        content_type: &str,
        body: String,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut req =
            self.client.post(format!("{}{path}", self.address)).header("content-type", content_type).body(body);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.expect("answered")
    }

    /// `GET path` with extra headers.
    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut req = self.client.get(format!("{}{path}", self.address));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.expect("answered")
    }

    /// Stores a session and returns its cookie pair.
    pub async fn sign_in(&self, owner: bool, roles: &[ContributorRole]) -> String {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let id = format!("telemetry-session-{}", N.fetch_add(1, Ordering::Relaxed));
        let record = SessionRecord {
            account_id: format!("a-{id}"),
            owner,
            roles: roles.to_vec(),
            member: false,
            expires_at: i64::MAX,
        };
        let bytes = serde_json::to_vec(&record).expect("serialises");
        self.store.put(Tree::Sessions, id.as_bytes(), &bytes).await.expect("stored");
        format!("{SESSION_COOKIE}={id}")
    }

    /// A valid crumb, as handed out by a page.
    pub async fn crumb(&self) -> String {
        let res = self.get("/", &[]).await;
        set_cookie(&res, "crumb").expect("pages hand out a crumb")
    }

    /// The records of `tree`, once at least `n` are there (waits up to 5 s).
    pub async fn records(&self, tree: Tree, n: usize) -> Vec<serde_json::Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            let rows = self.store.scan_prefix(tree, b"", 10_000).expect("scans");
            if rows.len() >= n || tokio::time::Instant::now() > deadline {
                return rows.into_iter().map(|(_, v)| serde_json::from_slice(&v).expect("JSON records")).collect();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// The value a response sets for cookie `name`, if any.
pub fn set_cookie(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        let (pair, _) = v.split_once(';').unwrap_or((v, ""));
        let (k, value) = pair.split_once('=')?;
        (k == name).then(|| value.to_string())
    })
}

/// The full `Set-Cookie` header for cookie `name`, if any.
pub fn set_cookie_header(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}
