//! `/images/...`: the site's images, from its `images/` folder, with a long cache
//! lifetime and a content-hashed ETag. Paths are checked exactly as `/s/` paths are
//! ([`FilePath`]); only image types are served, and SVG runs in a sandbox. Originals are
//! streamed from disk (single byte ranges answered 206) and their hash is computed once
//! per file version ([`crate::media::digest`]), not on every request.
//!
//! `?format=750w` asks for one width of the size ladder ([`crate::media`]): PNG, JPEG
//! and WebP originals are resized once and cached; an original no wider than the width
//! asked for is served unchanged (images are never enlarged), and so are SVG and GIF.
//! The width may also follow the file name (`porch.jpg/750w`, the "filename" size format
//! of spec 001 §3) for caches that ignore query strings; the query string then is not read.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};

use super::files::FilePath;
use crate::media::stream::{self, open_inside};
use crate::media::{digest, ImageVariants, RequestedSize, ResizeError, SizeError, VariantError};
use crate::pages::{self, html};
use crate::state::AppState;

/// How long browsers and caches keep an image (30 days); the ETag revalidates after.
const IMAGE_CACHE_CONTROL: &str = "public, max-age=2592000";

/// Why an image request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// `format` is not a rung of the ladder.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The original could not be resized, or the cache failed.
    #[error(transparent)]
    Variant(#[from] VariantError),
}

impl ResponseError for ImageError {
    fn status_code(&self) -> StatusCode {
        match self {
            ImageError::Size(_) => StatusCode::BAD_REQUEST,
            ImageError::Variant(VariantError::Resize(ResizeError::Undecodable | ResizeError::TooLarge)) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ImageError::Variant(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        html::plain(self.status_code(), &self.to_string())
    }
}

/// Serves an image (or one ladder width of it) with its content type, or 400 / 404 / 422.
pub async fn serve(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let raw = req.uri().path().strip_prefix("/images/").unwrap_or_default();
    let decoded = match percent_encoding::percent_decode_str(raw).decode_utf8() {
        Ok(d) => d.into_owned(),
        Err(_) => return html::plain(StatusCode::BAD_REQUEST, "Image paths must be UTF-8."),
    };
    let (decoded, named_width) = split_width_suffix(&decoded);
    let Ok(path) = FilePath::parse(decoded) else {
        return html::plain(StatusCode::BAD_REQUEST, "That is not a valid image path.");
    };
    let size = match named_width
        .map_or_else(|| RequestedSize::from_query(req.query_string()), |w| RequestedSize::parse(Some(w)))
    {
        Ok(size) => size,
        Err(e) => return ImageError::from(e).error_response(),
    };
    let Some(mime) = image_type(&path) else {
        return pages::not_found(&req, &state);
    };
    let Some(original) = open_inside(&state.services.site.current().dir.join("images"), &path.0).await else {
        return pages::not_found(&req, &state);
    };
    let hash = match digest::content_hash(&original).await {
        Ok(hash) => hash,
        Err(error) => {
            tracing::warn!(%error, "an image could not be read");
            return pages::not_found(&req, &state);
        }
    };
    let width = match size {
        RequestedSize::Width(width) if resizable(&mime) => width,
        _ => return respond(&req, mime.as_ref(), format!("\"{hash}\""), Body::File(&original)),
    };
    let images = ImageVariants::for_data_dir(&state.settings.data_dir);
    match images.variant_of_file(&hash, original.path.clone(), width).await {
        Ok(variant) => {
            let content_type = variant.content_type.unwrap_or(mime.as_ref());
            respond(&req, content_type, variant.etag, Body::Bytes(variant.bytes))
        }
        Err(e) => ImageError::from(e).error_response(),
    }
}

/// What an image answer carries: an original streamed from disk, or a resized variant.
enum Body<'a> {
    File(&'a stream::OpenFile),
    Bytes(Vec<u8>),
}

/// 200 with the image and its caching headers, or 304 when `If-None-Match` matches.
fn respond(req: &HttpRequest, content_type: &str, etag: String, body: Body<'_>) -> HttpResponse {
    let not_modified = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut builder = if not_modified { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    builder
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(IMAGE_CACHE_CONTROL)))
        .insert_header((header::ETAG, etag.clone()))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .insert_header(("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox"));
    if not_modified {
        return builder.finish();
    }
    builder.content_type(content_type);
    match body {
        Body::File(file) => stream::respond(req, builder, file, Some(&etag)),
        Body::Bytes(bytes) => builder.body(bytes),
    }
}

/// The content type of an image path; None for anything that is not an image.
fn image_type(path: &FilePath) -> Option<mime_guess::Mime> {
    mime_guess::from_path(&path.0).first().filter(|m| m.type_() == mime_guess::mime::IMAGE)
}

/// `porch.jpg/750w` as the path `porch.jpg` and the width `750w` (a last segment of digits
/// and `w` after a file name with an extension); any other path unchanged.
fn split_width_suffix(path: &str) -> (&str, Option<&str>) {
    match path.rsplit_once('/') {
        Some((file, width))
            if file.rsplit('/').next().is_some_and(|name| name.contains('.'))
                && width.strip_suffix('w').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            (file, Some(width))
        }
        _ => (path, None),
    }
}

/// Whether images of this type are resized (SVG and GIF are served as uploaded).
fn resizable(mime: &mime_guess::Mime) -> bool {
    matches!(mime.subtype().as_str(), "png" | "jpeg" | "webp")
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

    #[test]
    fn a_width_after_the_file_name_is_the_filename_size_format() {
        assert_eq!(split_width_suffix("porch.jpg/750w"), ("porch.jpg", Some("750w")));
        assert_eq!(split_width_suffix("a/b.webp/100w"), ("a/b.webp", Some("100w")));
        for plain in ["porch.jpg", "750w/porch.jpg", "photos/750w", "porch.jpg/w", "porch.jpg/75x0w"] {
            assert_eq!(split_width_suffix(plain), (plain, None), "{plain}");
        }
    }

    #[test]
    fn raster_images_are_resized_and_vector_and_animated_ones_are_not() {
        let parse = |p: &str| FilePath::parse(p).expect("plain path");
        for yes in ["a.png", "a.jpg", "a.jpeg", "a.webp"] {
            assert!(image_type(&parse(yes)).is_some_and(|m| resizable(&m)), "{yes}");
        }
        for no in ["a.svg", "a.gif"] {
            assert!(image_type(&parse(no)).is_some_and(|m| !resizable(&m)), "{no}");
        }
    }
}
