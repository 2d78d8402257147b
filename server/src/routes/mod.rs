//! The public route table. One module per area; handlers parse, call one function and
//! map the result.

pub mod auth;
pub mod commerce;
mod config_area;
mod files;
mod form_list;
pub mod forms;
pub mod google_maps;
mod images;
mod openapi;
mod panel;
mod sitemap;
pub mod streams;
pub mod telemetry;
mod visitor_stats;
pub mod widget;

use actix_web::http::Method;
use actix_web::{guard, web, FromRequest, HttpRequest, HttpResponse};

use crate::edge::method;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// Registers every public route.
///
/// Actix tries the routes' patterns one after another, and a published page, the most
/// requested address, matches none of them. So the routes are grouped by the start of
/// their paths: a path outside a group passes it with one comparison instead of one
/// pattern match per route, and every group but the API's sits in one outer group whose
/// guard reads the same table ([`GROUPS`]), so a page passes the whole table with two
/// pattern matches and two guards.
/// Content links are the default service, of the app and of each group, so that an
/// address inside a group that none of its routes takes is answered as anywhere else,
/// and a page runs no route's pattern at all (a catch-all route's pattern is a regular
/// expression, run once per method route).
pub fn configure(cfg: &mut web::ServiceConfig) {
    // The API first and on its own: its fixed paths take the ingest, the most requests after
    // pages, so that they pass one group, not two.
    let outer = web::scope("")
        .guard(guard::fn_guard(|ctx| GROUPS.iter().any(|(starts, _)| starts_with_any(ctx.head().uri.path(), starts))))
        .configure(|cfg| {
            for (starts, routes) in GROUPS {
                cfg.service(group(starts, routes));
            }
        })
        .default_service(web::to(content));
    cfg.service(group(&["api/"], api)).service(outer).default_service(web::to(content));
}

/// The routes of a group.
type Routes = fn(&mut web::ServiceConfig);

/// Every group outside the API, in the order they are tried: how its paths start (after
/// their `/`) and its routes. The outer group's guard reads the same starts, so a route
/// is reachable exactly when its group is listed here.
const GROUPS: [(&[&str], Routes); 11] = [
    (&commerce::PAGE_PREFIXES, commerce::configure_pages),
    (&["account/"], auth::configure_login_page),
    (&["assets/"], |cfg| {
        cfg.route("/assets/{file:.*}", method::read().to(files::assets));
    }),
    (&["s/"], |cfg| {
        cfg.route("/s/{path:.*}", method::read().to(files::serve));
    }),
    (&["images/"], |cfg| {
        cfg.route("/images/{path:.*}", method::read().to(images::serve));
    }),
    (&["pages/"], |cfg| {
        cfg.route("/pages/{id:.*}", method::read().to(panel::follow));
    }),
    (&["config"], |cfg| {
        cfg.route("/config", method::read().to(config_area::show))
            .route("/config/{tail:.*}", method::read().to(config_area::show));
    }),
    (&["cart"], commerce::configure_cart_page),
    (&["sitemap.xml"], |cfg| {
        cfg.route("/sitemap.xml", method::read().to(sitemap::sitemap));
    }),
    (&["robots.txt"], |cfg| {
        cfg.route("/robots.txt", method::read().to(sitemap::robots));
    }),
    (&["search"], |cfg| {
        cfg.route("/search", method::read().to(crate::pages::search));
    }),
];

/// The API's routes.
fn api(cfg: &mut web::ServiceConfig) {
    // Telemetry ingest first: these fixed paths take the most requests.
    cfg.configure(telemetry::configure)
        .configure(auth::configure_api)
        .configure(commerce::configure_api)
        .configure(streams::configure)
        .configure(forms::configure)
        .configure(form_list::configure)
        .configure(visitor_stats::configure)
        .configure(widget::configure)
        .configure(google_maps::configure)
        .configure(openapi::configure);
}

/// Whether `path` is `/` and then one of `starts`.
fn starts_with_any(path: &str, starts: &[&str]) -> bool {
    let path = path.strip_prefix('/').unwrap_or_default();
    starts.iter().any(|start| path.starts_with(start))
}

/// The routes whose paths start with `/` and one of `prefixes` (`"api/"` for `/api/…`),
/// with content links as their default.
fn group(prefixes: &'static [&'static str], routes: impl FnOnce(&mut web::ServiceConfig)) -> actix_web::Scope {
    web::scope("")
        .guard(guard::fn_guard(move |ctx| starts_with_any(ctx.head().uri.path(), prefixes)))
        .configure(routes)
        .default_service(web::to(content))
}

/// Every path no route takes is a content link (metrics label it
/// [`CONTENT_ROUTE`](crate::ops::metrics::CONTENT_ROUTE)); a POST to one is a password
/// page's unlock form.
async fn content(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    session: CurrentSession,
) -> HttpResponse {
    if req.method() == Method::POST {
        let form = web::Form::<auth::UnlockForm>::from_request(&req, &mut payload.into_inner()).await;
        return auth::unlock(req, state, form).await;
    }
    crate::pages::show(req, state, session).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `path` is inside the outer group.
    fn routed_path(path: &str) -> bool {
        GROUPS.iter().any(|(starts, _)| starts_with_any(path, starts))
    }

    #[test]
    fn every_group_and_single_route_is_inside_the_outer_group() {
        for start in commerce::PAGE_PREFIXES {
            assert!(routed_path(&format!("/{start}")), "{start}");
        }
        for path in [commerce::cart_root::CART_PAGE, "/sitemap.xml", "/robots.txt", "/search", "/config", "/config/x"] {
            assert!(routed_path(path), "{path}");
        }
        for page in ["/", "/about", "/menu", "/blog/first-post"] {
            assert!(!routed_path(page), "{page} is a content link");
        }
    }
}
