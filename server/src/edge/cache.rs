//! Answers that no cache may keep: every answer carrying an account's, a cart's or a
//! visitor's own data, and every refusal of a state change.

use actix_web::http::header::{self, HeaderValue};
use actix_web::HttpResponseBuilder;

/// The `Cache-Control` value of an answer no cache may keep.
pub const NO_STORE: &str = "no-store";

/// Marks a response builder as not to be stored: `edge::no_store(HttpResponse::Ok())`.
pub fn no_store(mut builder: HttpResponseBuilder) -> HttpResponseBuilder {
    builder.no_store();
    builder
}

/// `Cache-Control: no-store` on a response being built or already built.
pub trait NoStore {
    /// Sets `Cache-Control: no-store`, replacing any other cache directive.
    fn no_store(&mut self) -> &mut Self;
}

impl NoStore for HttpResponseBuilder {
    fn no_store(&mut self) -> &mut Self {
        self.insert_header((header::CACHE_CONTROL, NO_STORE))
    }
}

impl<B> NoStore for actix_web::HttpResponse<B> {
    fn no_store(&mut self) -> &mut Self {
        self.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::HttpResponse;

    #[test]
    fn a_no_store_answer_says_so_once() {
        let response = no_store(HttpResponse::Ok()).finish();
        let values: Vec<_> = response.headers().get_all(header::CACHE_CONTROL).collect();
        assert_eq!(values, ["no-store"]);
        let mut built = HttpResponse::NotFound().insert_header((header::CACHE_CONTROL, "max-age=60")).finish();
        built.no_store();
        assert_eq!(built.headers().get(header::CACHE_CONTROL).unwrap(), "no-store");
    }
}
