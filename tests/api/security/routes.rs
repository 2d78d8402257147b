//! The table of state-changing routes the suite drives: one row per method and path,
//! saying how the page echoes its crumb, what a plausible body looks like, and what the
//! caller needs first. A new route is one more row.

use veranda_actors::domain::enums::ContributorRole;
use veranda_tests::TestApp;

use veranda_tests::{cookie_value, crumb, crumb_for};

use crate::commerce::support::BUYER;

/// How a page echoes the crumb on this route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// The `X-CSRF-Token` header (the data layer's calls).
    Header,
    /// A hidden `crumb` form field (plain HTML forms).
    Field,
    /// Nothing echoed: the crumb cookie must verify and the post must not come from
    /// another site (a form block posted without JavaScript).
    CookieOnly,
    /// The route takes no crumb (telemetry beacons); only its body is checked.
    None,
}

/// A plausible body for the route.
#[derive(Debug, Clone, Copy)]
pub enum Body {
    /// No body.
    Empty,
    /// A JSON document.
    Json(&'static str),
    /// Form-encoded fields.
    Form(&'static [(&'static str, &'static str)]),
}

/// What the caller needs before the call.
#[derive(Debug, Clone, Copy)]
pub enum Setup {
    /// A visitor with a crumb.
    Visitor,
    /// A visitor whose cart holds one of this SKU.
    Cart(&'static str),
    /// A signed-in admin.
    Admin,
}

/// One state-changing route.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The HTTP method.
    pub method: &'static str,
    /// The path with any query string; `{cart}` stands for the caller's cart id.
    pub path: &'static str,
    /// How the crumb is echoed.
    pub carrier: Carrier,
    /// A plausible body.
    pub body: Body,
    /// What the caller needs first.
    pub setup: Setup,
    /// Whether `GET` on the path is 405 (false where the path also shows a page).
    pub get_is_405: bool,
    /// The route's body limit in bytes.
    pub limit: usize,
}

/// The default body limit (`max_body_bytes`).
const DEFAULT_LIMIT: usize = 256 * 1024;
/// The sign-in routes' body limit.
const AUTH_LIMIT: usize = 16 * 1024;

const fn row(method: &'static str, path: &'static str, carrier: Carrier, body: Body, setup: Setup) -> Row {
    Row { method, path, carrier, body, setup, get_is_405: true, limit: DEFAULT_LIMIT }
}

impl Row {
    const fn shows_a_page(mut self) -> Row {
        self.get_is_405 = false;
        self
    }

    const fn limit(mut self, limit: usize) -> Row {
        self.limit = limit;
        self
    }

    /// Whether the route's body is JSON.
    pub fn is_json(&self) -> bool {
        matches!(self.body, Body::Json(_))
    }
}

use Body::{Empty, Form, Json};
use Carrier::{CookieOnly, Field, Header};
use Setup::{Admin, Cart, Visitor};

/// Every state-changing route of the public listener.
pub const ROUTES: &[Row] = &[
    // Accounts (spec 000 §4, §7).
    row(
        "POST",
        "/api/site-users/account/session",
        Header,
        Json(r#"{"email":"ann@example.com","password":"porch swing","rememberMe":false}"#),
        Visitor,
    )
    .limit(AUTH_LIMIT),
    row("DELETE", "/api/site-users/account/session", Header, Empty, Visitor),
    row("POST", "/api/auth/Logout", Header, Empty, Visitor),
    row(
        "POST",
        "/account/login",
        Field,
        Form(&[("email", "ann@example.com"), ("password", "porch swing"), ("redirect", "/")]),
        Visitor,
    )
    .shows_a_page()
    .limit(AUTH_LIMIT),
    // Password pages.
    row("POST", "/private", Field, Form(&[("password", "veranda")]), Visitor).shows_a_page(),
    // The cart and checkout (spec 000 §2, §7).
    row("POST", "/api/commerce/cart/entries", Header, Json(r#"{"sku":"VER-HB-12OZ","quantity":1}"#), Visitor),
    row("PUT", "/api/commerce/cart/entries/VER-HB-12OZ", Header, Json(r#"{"quantity":2}"#), Cart("VER-HB-12OZ")),
    row("DELETE", "/api/commerce/cart/entries/VER-HB-12OZ", Header, Empty, Cart("VER-HB-12OZ")),
    row("POST", "/api/commerce/cart/coupons", Header, Json(r#"{"code":"WELCOME10"}"#), Cart("VER-HB-12OZ")),
    row("DELETE", "/api/commerce/cart/coupons/WELCOME10", Header, Empty, Cart("VER-HB-12OZ")),
    row("PUT", "/api/commerce/cart/shipping-option", Header, Json(r#"{"id":"standard"}"#), Cart("VER-HB-12OZ")),
    row(
        "PUT",
        "/api/commerce/cart/shipping-location",
        Header,
        Json(r#"{"country":"US","region":"NY","postalCode":"10001"}"#),
        Cart("VER-HB-12OZ"),
    ),
    row("POST", "/checkout", Field, Form(&BUYER), Cart("VER-HB-12OZ")).shows_a_page(),
    row("POST", "/checkout/subscribe?cartToken={cart}", Field, Form(&BUYER), Cart("VER-SUB-MONTHLY")).shows_a_page(),
    row(
        "POST",
        "/checkout/donate?donatePageId=80547c31754bff4a36b499a9",
        Field,
        Form(&[("amount", "25"), ("email", "ada@example.com"), ("name", "Ada")]),
        Visitor,
    )
    .shows_a_page(),
    row(
        "POST",
        "/checkout/giftcard?websiteId=51ee8ec89a317a31733c9281&giftCardProductId=6e5c69da604552c2465b161c&sku=VER-GIFT-50",
        Field,
        Form(&[("email", "ada@example.com"), ("name", "Ada")]),
        Visitor,
    )
    .shows_a_page(),
    // Forms (spec 000 §7).
    row("POST", "/api/form/FormSubmissionKey", Header, Empty, Visitor),
    row("POST", "/api/form/SaveFormSubmission", Header, Json(r#"{"formId":"newsletter"}"#), Visitor),
    row(
        "POST",
        "/api/form/SaveFormSubmission",
        CookieOnly,
        Form(&[("formId", "newsletter"), ("email", "reader@example.com")]),
        Visitor,
    ),
    // Edits.
    row("PUT", "/api/site-header-footer", Header, Json(r#"{"header":"Open daily","footer":"Us"}"#), Admin)
        .shows_a_page(),
    row("PUT", "/api/multilingual/languages", Header, Json(r#"{"languages":["fr"]}"#), Admin),
    // Telemetry: error reports and analytics events carry the crumb (spec 000 §7).
    row("POST", "/api/events/RecordJavascriptErrors", Header, Json("[]"), Visitor).limit(128 * 1024),
    row("POST", "/api/events/RecordEvent", Field, Form(&[("event", "signup"), ("data", "{}")]), Visitor).limit(16 * 1024),
];

/// JSON telemetry routes that take no crumb: only their bodies are checked.
pub const BEACONS: &[Row] = &[
    row("POST", "/api/1/performance/records", Carrier::None, Json("[]"), Visitor).limit(32 * 1024),
    row("POST", "/api/v1/events", Carrier::None, Json("{}"), Visitor).limit(16 * 1024),
];

/// Telemetry beacons that take no crumb (a beacon cannot set headers): still POST only.
pub const CRUMBLESS_POSTS: &[&str] = &[
    "/api/census/RecordHit",
    "/api/census/button-click",
    "/api/census/button-render",
    "/api/census/form-render",
    "/api/census/overlay",
    "/api/census/RecordQuickView/6e5c69da604552c2465b161c",
    "/api/v1/events",
    "/api/events/Trace",
    "/api/1/performance/records",
];

/// A caller ready for one row: its own crumb and the cookies its setup made.
pub struct Caller {
    /// The caller's crumb (valid, from the home page).
    pub crumb: String,
    /// Other cookies (`cart=…`, `session=…`), `; `-joined, maybe empty.
    pub cookies: String,
    /// The row's path for this caller.
    pub path: String,
}

impl Caller {
    /// Prepares a caller for `row`.
    pub async fn new(app: &TestApp, row: &Row) -> Caller {
        let mut crumb = crumb(app).await;
        let mut cart = String::new();
        let cookies = match row.setup {
            Visitor => String::new(),
            Admin => {
                let admin = app.sign_in(false, &[ContributorRole::Admin], false).await;
                crumb = crumb_for(app, &admin).await;
                admin
            }
            Cart(sku) => {
                let res = app
                    .client
                    .post(format!("{}/api/commerce/cart/entries", app.address))
                    .header("cookie", format!("crumb={crumb}"))
                    .header("x-csrf-token", &crumb)
                    .json(&serde_json::json!({ "sku": sku, "quantity": 1 }))
                    .send()
                    .await
                    .expect("answered");
                assert_eq!(res.status(), 200, "adding {sku} to a cart");
                cart = cookie_value(&res, "cart").expect("a cart cookie");
                format!("cart={cart}")
            }
        };
        Caller { crumb, cookies, path: row.path.replace("{cart}", &cart) }
    }

    /// The `Cookie` header with `crumb_cookie` (if any) and the setup's cookies.
    pub fn cookie_header(&self, crumb_cookie: Option<&str>) -> String {
        let mut parts = Vec::new();
        if let Some(crumb) = crumb_cookie {
            parts.push(format!("crumb={crumb}"));
        }
        if !self.cookies.is_empty() {
            parts.push(self.cookies.clone());
        }
        parts.join("; ")
    }

    /// Sends `row` with `crumb_cookie` as the crumb cookie and `echoed` echoed the way
    /// the route expects, plus `headers`.
    pub async fn send(
        &self,
        app: &TestApp,
        row: &Row,
        crumb_cookie: Option<&str>,
        echoed: Option<&str>,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let method = reqwest::Method::from_bytes(row.method.as_bytes()).expect("a method");
        let mut req = app.client.request(method, format!("{}{}", app.address, self.path));
        let cookie = self.cookie_header(crumb_cookie);
        if !cookie.is_empty() {
            req = req.header("cookie", cookie);
        }
        if let (Carrier::Header, Some(echoed)) = (row.carrier, echoed) {
            req = req.header("x-csrf-token", echoed);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req = match row.body {
            Body::Empty => req,
            Body::Json(json) => req.header("content-type", "application/json").body(json),
            Body::Form(fields) => {
                let mut all: Vec<(&str, &str)> = fields.to_vec();
                if let (Carrier::Field, Some(echoed)) = (row.carrier, echoed) {
                    all.push(("crumb", echoed));
                }
                req.form(&all)
            }
        };
        req.send().await.expect("answered")
    }

    /// The headers a raw request of `row` needs: cookies and the echoed crumb.
    pub fn raw_headers(&self, row: &Row, content_type: &str) -> Vec<(String, String)> {
        let mut headers = vec![
            ("Content-Type".to_string(), content_type.to_string()),
            ("Cookie".to_string(), self.cookie_header(Some(&self.crumb))),
        ];
        if row.carrier == Carrier::Header {
            headers.push(("X-CSRF-Token".to_string(), self.crumb.clone()));
        }
        headers
    }
}
