//! Visitor telemetry: census hits and visitor cookies, recording rules, error reports,
//! events, traces, performance records, limits and backpressure.

mod census;
mod crash;
mod ingest;
mod metrics;
mod retention;
mod session_ids;
mod shutdown;
mod statuses;
mod vitals;

use std::path::Path;
use std::time::Duration;

use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::store::Tree;
use veranda_actors::telemetry::{census as stored_census, TelemetryLimits};
use veranda_tests::{crumb, demo_site_dir, eventually, spawn_app_configured, TestApp};

/// A running server with the telemetry limits a test chose; derefs to the shared [`TestApp`].
pub struct App(TestApp);

impl std::ops::Deref for App {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.0
    }
}

/// Starts the demo site (or `dir`) with `limits`.
pub async fn spawn(dir: Option<&Path>, limits: TelemetryLimits) -> App {
    let dir = dir.map(Path::to_path_buf).unwrap_or_else(demo_site_dir);
    App(spawn_app_configured(&dir, |settings| settings.telemetry = limits).await)
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

    /// A valid crumb, as handed out by a page.
    pub async fn crumb(&self) -> String {
        crumb(self).await
    }

    /// Stores a session and returns its cookie pair.
    pub async fn sign_in(&self, owner: bool, roles: &[ContributorRole]) -> String {
        self.0.sign_in(owner, roles, false).await
    }

    /// The records of `tree`, once at least `n` are there (waits up to 5 s).
    pub async fn records(&self, tree: Tree, n: usize) -> Vec<serde_json::Value> {
        self.records_under(tree, b"", n).await
    }

    /// The records of `tree` whose keys start with `prefix`, once at least `n` are there
    /// (waits up to 5 s).
    /// A census record holds the hits of one writer round: they are listed one by one.
    pub async fn records_under(&self, tree: Tree, prefix: &[u8], n: usize) -> Vec<serde_json::Value> {
        let what = format!("{n} records in {tree:?}");
        eventually(Duration::from_secs(5), &what, || async {
            let rows = self.store.scan_prefix(tree, prefix, 10_000).expect("scans");
            let records: Vec<serde_json::Value> = if tree == Tree::Census {
                rows.iter().flat_map(|(_, v)| stored_census::hits(v).expect("JSON census records")).collect()
            } else {
                rows.iter().map(|(_, v)| serde_json::from_slice(v).expect("JSON records")).collect()
            };
            (records.len() >= n).then_some(records)
        })
        .await
    }
}
