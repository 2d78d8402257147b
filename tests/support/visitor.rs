//! A visitor's cookie jar: it keeps every cookie the server sets (the crumb, the
//! session, the cart…), sends them back on each request, and sends the crumb as the
//! `X-CSRF-Token` header, as the site's own script does.

use std::collections::BTreeMap;

use reqwest::{Method, RequestBuilder, Response};
use serde_json::Value;

use crate::cookies::{pair, set_cookies};
use crate::TestApp;

/// One visitor of a [`TestApp`], with its cookies.
pub struct Visitor<'a> {
    /// The server visited.
    pub app: &'a TestApp,
    /// Cookie name → value, as the server last set them.
    jar: BTreeMap<String, String>,
}

impl<'a> Visitor<'a> {
    /// A visitor that has opened the home page, so holds a crumb.
    pub async fn new(app: &'a TestApp) -> Visitor<'a> {
        let mut visitor = Visitor::without_cookies(app);
        let res = visitor.get("/").await;
        assert!(visitor.crumb().is_some(), "the home page hands out a crumb ({})", res.status());
        visitor
    }

    /// A visitor that has not been to the site yet.
    pub fn without_cookies(app: &'a TestApp) -> Visitor<'a> {
        Visitor { app, jar: BTreeMap::new() }
    }

    /// A visitor holding `cookies` (a `Cookie` header value such as
    /// [`TestApp::sign_in`] returns) that has opened the home page for its crumb.
    pub async fn with_cookies(app: &'a TestApp, cookies: &str) -> Visitor<'a> {
        let mut visitor = Visitor::without_cookies(app);
        visitor.keep(cookies);
        visitor.get("/?noredirect").await;
        visitor
    }

    /// Keeps the `name=value` pairs of `cookies` (a `Cookie` header value).
    pub fn keep(&mut self, cookies: &str) {
        for kv in cookies.split(';') {
            if let Some((name, value)) = kv.trim().split_once('=') {
                self.jar.insert(name.to_string(), value.to_string());
            }
        }
    }

    /// The value of cookie `name`, if the visitor holds it.
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.jar.get(name).map(String::as_str)
    }

    /// The crumb the visitor holds.
    pub fn crumb(&self) -> Option<&str> {
        self.cookie("crumb")
    }

    /// The `Cookie` header the visitor sends.
    pub fn cookies(&self) -> String {
        self.jar.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join("; ")
    }

    /// A request to `path` carrying the cookies and the crumb header; send it with [`Visitor::send`].
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let mut req = self.app.client.request(method, format!("{}{path}", self.app.address));
        if !self.jar.is_empty() {
            req = req.header("cookie", self.cookies());
        }
        if let Some(crumb) = self.crumb() {
            req = req.header("X-CSRF-Token", crumb);
        }
        req
    }

    /// Sends `req` and keeps the cookies the answer sets (an empty value or
    /// `Max-Age=0` removes one).
    pub async fn send(&mut self, req: RequestBuilder) -> Response {
        let res = req.send().await.expect("the request is answered");
        for header in set_cookies(&res) {
            let Some((name, value)) = pair(header).split_once('=').map(|(n, v)| (n.to_string(), v.to_string())) else {
                continue;
            };
            if value.is_empty() || header.to_ascii_lowercase().contains("max-age=0") {
                self.jar.remove(&name);
            } else {
                self.jar.insert(name, value);
            }
        }
        res
    }

    /// `GET path`.
    pub async fn get(&mut self, path: &str) -> Response {
        let req = self.request(Method::GET, path);
        self.send(req).await
    }

    /// `method path` with `body` as JSON.
    pub async fn json(&mut self, method: Method, path: &str, body: &Value) -> Response {
        let req = self.request(method, path).json(body);
        self.send(req).await
    }

    /// `method path` with `body`, if any, as JSON.
    pub async fn call(&mut self, method: Method, path: &str, body: Option<Value>) -> Response {
        let mut req = self.request(method, path);
        if let Some(body) = body {
            req = req.json(&body);
        }
        self.send(req).await
    }

    /// `POST path` with `body` as JSON.
    pub async fn post(&mut self, path: &str, body: &Value) -> Response {
        self.json(Method::POST, path, body).await
    }

    /// `POST path` with a urlencoded form: the crumb field (as a page's form sends it) and `fields`.
    pub async fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Response {
        let crumb = self.crumb().unwrap_or_default().to_string();
        let mut all: Vec<(&str, &str)> = vec![("crumb", crumb.as_str())];
        all.extend_from_slice(fields);
        let req =
            self.app.client.post(format!("{}{path}", self.app.address)).header("cookie", self.cookies()).form(&all);
        self.send(req).await
    }
}
