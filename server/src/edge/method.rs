//! The answer to a method a resource does not take: 405 with `Allow` and one JSON body,
//! `{"error": "This address only answers <methods>."}`, on every route table; published
//! pages answer the same in plain text.

use actix_web::http::header;
use actix_web::HttpResponse;

/// 405 Method Not Allowed listing `allow` (e.g. `"GET, HEAD"`) in `Allow` and the body.
pub fn method_not_allowed(allow: &str) -> HttpResponse {
    HttpResponse::MethodNotAllowed()
        .insert_header((header::ALLOW, allow))
        .json(serde_json::json!({ "error": format!("This address only answers {allow}.") }))
}

/// What a published page answers to a method other than GET and HEAD (an HTML address,
/// so plain text rather than JSON).
pub fn page_method_not_allowed() -> HttpResponse {
    HttpResponse::MethodNotAllowed()
        .insert_header((header::ALLOW, "GET, HEAD"))
        .content_type("text/plain; charset=utf-8")
        .body("Published pages only answer GET and HEAD.")
}

/// A route table's default service answering 405 for every method but `allow`:
/// `.default_service(edge::method::only("GET, HEAD"))`.
pub fn only(allow: &'static str) -> actix_web::Route {
    actix_web::web::to(move || async move { method_not_allowed(allow) })
}

/// A route answering GET and HEAD (HEAD gets the same headers, no body).
pub fn read() -> actix_web::Route {
    use actix_web::guard;
    actix_web::web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

/// A resource at `path` answering 405 to every method but `allow`; its routes are added
/// with `Resource::get`, `put`, …: `method::resource("/x", "GET, PUT").get(show).put(save)`.
pub fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    actix_web::web::resource(path).default_service(only(allow))
}

/// A resource at `path` whose one method is `route`'s (named `allow`), answering 405 to others.
fn single<F, Args>(path: &str, route: actix_web::Route, allow: &'static str, handler: F) -> actix_web::Resource
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    actix_web::web::resource(path).route(route.to(handler)).default_service(only(allow))
}

/// Defines `$name(path, handler)`: a resource at `path` answering `$allow` through
/// `$route` with `handler`, and 405 to every other method (as actix's own
/// `Resource::get`, `post`, … are made by one macro).
macro_rules! single_method {
    ($(#[$doc:meta])* $name:ident, $route:expr, $allow:literal) => {
        $(#[$doc])*
        pub fn $name<F, Args>(path: &str, handler: F) -> actix_web::Resource
        where
            F: actix_web::Handler<Args>,
            Args: actix_web::FromRequest + 'static,
            F::Output: actix_web::Responder + 'static,
        {
            single(path, $route, $allow, handler)
        }
    };
}

single_method!(
    /// A resource at `path` answering only `GET` and `HEAD` with `handler`.
    read_only, read(), "GET, HEAD"
);
single_method!(
    /// A resource at `path` answering only `GET` with `handler`.
    get_only, actix_web::web::get(), "GET"
);
single_method!(
    /// A resource at `path` answering only `POST` with `handler`.
    post_only, actix_web::web::post(), "POST"
);
single_method!(
    /// A resource at `path` answering only `PUT` with `handler`.
    put_only, actix_web::web::put(), "PUT"
);

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::{body::to_bytes, test, web, App};

    #[actix_web::test]
    async fn a_resource_answers_405_with_allow_and_the_methods() {
        let app = test::init_service(
            App::new().service(web::resource("/x").route(web::get().to(HttpResponse::Ok)).default_service(only("GET"))),
        )
        .await;
        let response = test::call_service(&app, test::TestRequest::delete().uri("/x").to_request()).await;
        assert_eq!(response.status(), 405);
        assert_eq!(response.headers().get(header::ALLOW).unwrap(), "GET");
        let body = to_bytes(response.into_body()).await.unwrap();
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(json, serde_json::json!({ "error": "This address only answers GET." }));
    }
}
