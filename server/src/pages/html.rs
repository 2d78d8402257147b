//! HTML responses: compressed as the request accepts, revalidated with an ETag, never
//! stored by shared caches.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest, HttpResponse};

use crate::compression::{self, Coding, Effort, Encoded, MIN_COMPRESSED_BYTES, VARY_ENCODING_AND_COOKIE};
use crate::page_cache::EntityTags;

/// An HTML response that browsers revalidate (`no-cache` with a strong ETag), in the
/// coding the request accepts best; a matching `If-None-Match` gets 304 for 200 answers.
pub fn page(req: &HttpRequest, status: StatusCode, body: String) -> HttpResponse {
    let tags = EntityTags::of(body.as_bytes());
    let encoded = Encoded::new(Bytes::from(body), Effort::Once);
    send(req, status, &tags, encoded.identity().len(), |coding| encoded.body(coding))
}

/// Marks a request whose page is read back by the server (the cart page fills in the
/// visitor's cart): its page is answered uncompressed and whole, never 304.
#[derive(Debug, Clone, Copy)]
pub struct ReadBack;

/// Answers a page of `len` bytes whose entity tags are `tags`; `body` gives it in a
/// coding, asked for only when the body is sent (not for a 304).
pub fn send(
    req: &HttpRequest,
    status: StatusCode,
    tags: &EntityTags,
    len: usize,
    body: impl FnOnce(Coding) -> (Bytes, Coding),
) -> HttpResponse {
    let read_back = req.extensions().get::<ReadBack>().is_some();
    let wanted = if len < MIN_COMPRESSED_BYTES || read_back { Coding::Identity } else { Coding::of(req) };
    if status == StatusCode::OK && !read_back && matches_if_none_match(req, tags.get(wanted).as_bytes()) {
        let mut builder = HttpResponse::NotModified();
        headers(&mut builder, tags.get(wanted).clone());
        return builder.finish();
    }
    let (bytes, coding) = body(wanted);
    let mut builder = HttpResponse::build(status);
    headers(&mut builder, tags.get(coding).clone());
    compression::mark(&mut builder, coding);
    builder.content_type(HeaderValue::from_static("text/html; charset=utf-8")).body(bytes)
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks of it).
fn matches_if_none_match(req: &HttpRequest, etag: &[u8]) -> bool {
    req.headers().get_all(header::IF_NONE_MATCH).filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|t| {
        let t = t.trim();
        t == "*" || t.strip_prefix("W/").unwrap_or(t).as_bytes() == etag
    })
}

fn headers(builder: &mut actix_web::HttpResponseBuilder, etag: HeaderValue) {
    builder
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache")))
        .insert_header((header::VARY, HeaderValue::from_static(VARY_ENCODING_AND_COOKIE)))
        .insert_header((header::ETAG, etag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .insert_header((header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")));
}

/// A short plain-text 4xx answer for hostile or malformed requests.
pub fn plain(status: StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .body(message.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;
    use actix_web::test::TestRequest;

    fn long_page() -> String {
        format!("<!doctype html><p>{}</p>", "Tea on the veranda. ".repeat(100))
    }

    fn header<'a>(res: &'a HttpResponse, name: &str) -> &'a str {
        res.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }

    #[test]
    fn a_page_is_sent_in_the_coding_asked_for_with_a_tag_per_coding() {
        let req = TestRequest::default().insert_header(("Accept-Encoding", "gzip, deflate, br")).to_http_request();
        let br = page(&req, StatusCode::OK, long_page());
        assert_eq!(header(&br, "content-encoding"), "br");
        assert_eq!(header(&br, "vary"), "Accept-Encoding, Cookie");
        assert!(header(&br, "etag").ends_with("-br\""), "{}", header(&br, "etag"));
        let plain_req = TestRequest::default().to_http_request();
        let identity = page(&plain_req, StatusCode::OK, long_page());
        assert_eq!(header(&identity, "content-encoding"), "");
        assert_eq!(header(&identity, "etag"), format!("\"{}\"", crate::page_cache::entity_tag(long_page().as_bytes())));
        let body = identity.into_body().try_into_bytes().ok().unwrap_or_default();
        assert_eq!(body, long_page().as_bytes());
    }

    #[test]
    fn a_matching_tag_gets_304_for_its_own_coding_only() {
        let gz = TestRequest::default().insert_header(("Accept-Encoding", "gzip")).to_http_request();
        let tag = header(&page(&gz, StatusCode::OK, long_page()), "etag").to_string();
        let again = TestRequest::default()
            .insert_header(("Accept-Encoding", "gzip"))
            .insert_header(("If-None-Match", format!("W/{tag}")))
            .to_http_request();
        assert_eq!(page(&again, StatusCode::OK, long_page()).status(), StatusCode::NOT_MODIFIED);
        let other = TestRequest::default().insert_header(("If-None-Match", tag)).to_http_request();
        assert_eq!(page(&other, StatusCode::OK, long_page()).status(), StatusCode::OK, "the identity body is another");
    }

    #[test]
    fn short_pages_are_not_compressed() {
        let req = TestRequest::default().insert_header(("Accept-Encoding", "br")).to_http_request();
        let res = page(&req, StatusCode::NOT_FOUND, "<p>gone</p>".into());
        assert_eq!(header(&res, "content-encoding"), "");
        assert!(!header(&res, "etag").contains("-br"));
    }
}
