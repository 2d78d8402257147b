//! `/images/...`: the site's images, from its `images/` folder, with a long cache
//! lifetime. Paths are checked exactly as `/s/` paths are ([`FilePath`]); only image
//! types are served, and SVG runs in a sandbox.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

use super::files::{read_inside, FilePath};
use super::{html, pages};
use crate::state::AppState;

/// How long browsers and caches keep an image (30 days).
const IMAGE_CACHE_CONTROL: &str = "public, max-age=2592000";

/// Serves an image with its content type, or 404 / 400.
pub async fn serve(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let raw = req.uri().path().strip_prefix("/images/").unwrap_or_default();
    let decoded = match percent_encoding::percent_decode_str(raw).decode_utf8() {
        Ok(d) => d.into_owned(),
        Err(_) => return html::plain(StatusCode::BAD_REQUEST, "Image paths must be UTF-8."),
    };
    let Ok(path) = FilePath::parse(&decoded) else {
        return html::plain(StatusCode::BAD_REQUEST, "That is not a valid image path.");
    };
    let Some(mime) = image_type(&path) else {
        return pages::not_found(&req, &state);
    };
    match read_inside(&state.site.dir.join("images"), &path.0).await {
        Some(bytes) => HttpResponse::Ok()
            .content_type(mime.as_ref())
            .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(IMAGE_CACHE_CONTROL)))
            .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
            .insert_header(("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox"))
            .body(bytes),
        None => pages::not_found(&req, &state),
    }
}

/// The content type of an image path; None for anything that is not an image.
fn image_type(path: &FilePath) -> Option<mime_guess::Mime> {
    mime_guess::from_path(&path.0).first().filter(|m| m.type_() == mime_guess::mime::IMAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_images_are_served_from_the_images_folder() {
        let parse = |p: &str| FilePath::parse(p).expect("plain path");
        assert_eq!(image_type(&parse("porch.jpg")).map(|m| m.to_string()).as_deref(), Some("image/jpeg"));
        assert_eq!(image_type(&parse("a/b.webp")).map(|m| m.to_string()).as_deref(), Some("image/webp"));
        for other in ["notes.html", "site.toml", "script.js", "noextension"] {
            assert!(image_type(&parse(other)).is_none(), "{other}");
        }
    }
}
