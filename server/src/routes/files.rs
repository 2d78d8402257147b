//! `/s/...`: the site's uploaded files, from its `files/` folder. Paths are decoded once
//! and checked segment by segment; anything that could leave the folder is refused.
//! Files are streamed from disk (single byte ranges answered 206), never read whole.

use std::path::PathBuf;

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::media::stream::{self, open_inside};
use crate::pages;
use crate::pages::html;
use crate::state::AppState;

/// A relative file path whose every segment is a plain name.
#[derive(Debug, PartialEq, Eq)]
pub struct FilePath(pub(crate) PathBuf);

/// Why a `/s/` path was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum FilePathError {
    /// Empty, `.`/`..` segments, hidden names, backslashes, NUL or control characters.
    Unsafe,
}

impl FilePath {
    /// Parses the percent-decoded tail of a `/s/` URL.
    pub fn parse(decoded: &str) -> Result<FilePath, FilePathError> {
        if decoded.is_empty() || decoded.len() > 1024 {
            return Err(FilePathError::Unsafe);
        }
        let mut path = PathBuf::new();
        for segment in decoded.split('/') {
            let plain = !segment.is_empty()
                && !segment.starts_with('.')
                && !segment.chars().any(|c| c == '\\' || c == ':' || c.is_control());
            if !plain {
                return Err(FilePathError::Unsafe);
            }
            path.push(segment);
        }
        Ok(FilePath(path))
    }
}

/// Serves a file with its content type, or 404 / 400.
pub async fn serve(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    // Decode the raw tail ourselves: once, with every `%xx` (including `%2e`, `%2f`, `%5c`).
    let raw = req.uri().path().strip_prefix("/s/").unwrap_or_default();
    let decoded = match percent_encoding::percent_decode_str(raw).decode_utf8() {
        Ok(d) => d.into_owned(),
        Err(_) => return html::plain(StatusCode::BAD_REQUEST, "File paths must be UTF-8."),
    };
    let path = match FilePath::parse(&decoded) {
        Ok(path) => path,
        Err(FilePathError::Unsafe) => return html::plain(StatusCode::BAD_REQUEST, "That is not a valid file path."),
    };
    let root = state.services.site.current().dir.join("files");
    match open_inside(&root, &path.0).await {
        Some(file) => {
            let mime = mime_guess::from_path(&path.0).first_or_octet_stream();
            let mut res = HttpResponse::Ok();
            res.content_type(mime.as_ref())
                .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600")))
                .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
                .insert_header(("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox"));
            stream::respond(&req, res, &file, None)
        }
        None => pages::not_found(&req, &state),
    }
}

/// `/assets/*`: a file of the built client (see [`crate::assets::respond`]).
pub async fn assets(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let raw = req.uri().path().strip_prefix("/assets/").unwrap_or_default();
    let coding = crate::compression::Coding::of(&req);
    crate::assets::respond(&state.assets.source, &state.assets.kept, coding, raw).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_parse() {
        assert!(FilePath::parse("menu.pdf").is_ok());
        assert!(FilePath::parse("docs/2026/menu.pdf").is_ok());
    }

    #[test]
    fn escaping_paths_are_refused() {
        for bad in ["", "../etc/passwd", "a/../../b", "./x", ".env", "a//b", "a\\..\\b", "C:x", "a/\0b", "/etc/passwd"]
        {
            assert_eq!(FilePath::parse(bad), Err(FilePathError::Unsafe), "{bad:?}");
        }
    }
}
