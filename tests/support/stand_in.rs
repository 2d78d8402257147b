//! Stand-ins for the outside services the server calls (captcha checks, map lookups):
//! one route served on 127.0.0.1 with an OS-chosen port, for the test's duration.

use actix_web::{App, HttpServer, Route};

/// Serves the route `route` makes at `path` in the background; returns the full URL of
/// `path` on the stand-in (`http://127.0.0.1:<port><path>`).
pub fn serve_stand_in(path: &str, route: impl Fn() -> Route + Send + Clone + 'static) -> String {
    let at = path.to_string();
    let server = HttpServer::new(move || App::new().route(&at, route()))
        .workers(1)
        .bind(("127.0.0.1", 0))
        .expect("the stand-in binds");
    let address = server.addrs()[0];
    actix_rt::spawn(server.run());
    format!("http://{address}{path}")
}
