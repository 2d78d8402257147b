//! Answering with a file from disk without reading it whole: the body is read in
//! [`CHUNK`]-byte pieces as the client takes them, with its `Content-Length`, and a single
//! byte range (`Range: bytes=a-b`, `a-` or `-n`) is answered 206 with `Content-Range`
//! (416 when it starts past the end). Other range forms (several ranges) get the whole
//! file, as RFC 9110 allows.

use std::io::SeekFrom;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use actix_web::body::SizedStream;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use tokio::io::{AsyncReadExt, AsyncSeekExt};

/// Bytes read from disk at a time.
pub const CHUNK: usize = 64 * 1024;

/// A regular file inside a served folder, as found when the request came in.
#[derive(Debug, Clone)]
pub struct OpenFile {
    /// Its canonical path (symlinks resolved).
    pub path: PathBuf,
    /// Its length in bytes.
    pub len: u64,
    /// Its modification time, when the file system keeps one.
    pub modified: Option<SystemTime>,
}

/// `root/relative` only if, with symlinks resolved, it is a regular file inside `root`.
pub async fn open_inside(root: &Path, relative: &Path) -> Option<OpenFile> {
    let root = tokio::fs::canonicalize(root).await.ok()?;
    let full = tokio::fs::canonicalize(root.join(relative)).await.ok()?;
    if !full.starts_with(&root) {
        return None;
    }
    let meta = tokio::fs::metadata(&full).await.ok()?;
    meta.is_file().then(|| OpenFile { path: full, len: meta.len(), modified: meta.modified().ok() })
}

/// The part of a `len`-byte file a `Range` header asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum ByteRange {
    /// No (usable) range: the whole file.
    Full,
    /// Bytes `start..=end`.
    Part { start: u64, end: u64 },
    /// A range that starts past the end: 416.
    Unsatisfiable,
}

/// Reads a `Range` header value for a `len`-byte file.
pub fn byte_range(value: Option<&str>, len: u64) -> ByteRange {
    let Some(spec) = value.and_then(|v| v.trim().strip_prefix("bytes=")) else { return ByteRange::Full };
    if spec.contains(',') {
        return ByteRange::Full;
    }
    let Some((first, last)) = spec.trim().split_once('-') else { return ByteRange::Full };
    let (first, last) = (first.trim(), last.trim());
    let parse = |s: &str| s.parse::<u64>().ok();
    match (first.is_empty(), last.is_empty()) {
        // `-n`: the last n bytes.
        (true, false) => match parse(last) {
            Some(0) => ByteRange::Unsatisfiable,
            Some(n) if len > 0 => ByteRange::Part { start: len.saturating_sub(n), end: len - 1 },
            Some(_) => ByteRange::Unsatisfiable,
            None => ByteRange::Full,
        },
        (false, _) => {
            let Some(start) = parse(first) else { return ByteRange::Full };
            let end = if last.is_empty() { Some(u64::MAX) } else { parse(last) };
            match end {
                None => ByteRange::Full,
                Some(end) if end < start => ByteRange::Full,
                Some(_) if start >= len => ByteRange::Unsatisfiable,
                Some(end) => ByteRange::Part { start, end: end.min(len - 1) },
            }
        }
        (true, true) => ByteRange::Full,
    }
}

/// Finishes `builder` (status 200 and headers already set) with `file`'s bytes, or the
/// part of them the request's `Range` asks for. `etag`, when given, is what `If-Range`
/// must match for a range to be honoured.
pub fn respond(
    req: &HttpRequest,
    mut builder: HttpResponseBuilder,
    file: &OpenFile,
    etag: Option<&str>,
) -> HttpResponse {
    builder.insert_header((header::ACCEPT_RANGES, HeaderValue::from_static("bytes")));
    let if_range_holds = match req.headers().get(header::IF_RANGE).and_then(|v| v.to_str().ok()) {
        None => true,
        Some(value) => etag.is_some_and(|etag| value.trim() == etag),
    };
    let range = req.headers().get(header::RANGE).and_then(|v| v.to_str().ok()).filter(|_| if_range_holds);
    match byte_range(range, file.len) {
        ByteRange::Full => builder.body(SizedStream::new(file.len, chunks(file.path.clone(), 0, file.len))),
        ByteRange::Part { start, end } => {
            let length = end - start + 1;
            builder
                .status(StatusCode::PARTIAL_CONTENT)
                .insert_header((header::CONTENT_RANGE, format!("bytes {start}-{end}/{}", file.len)))
                .body(SizedStream::new(length, chunks(file.path.clone(), start, length)))
        }
        ByteRange::Unsatisfiable => builder
            .status(StatusCode::RANGE_NOT_SATISFIABLE)
            .insert_header((header::CONTENT_RANGE, format!("bytes */{}", file.len)))
            .finish(),
    }
}

/// `length` bytes of the file at `path` from `start`, read [`CHUNK`] bytes at a time.
fn chunks(
    path: PathBuf,
    start: u64,
    length: u64,
) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> + 'static {
    futures_util::stream::unfold((None, path, start, length), |(file, path, start, left)| async move {
        if left == 0 {
            return None;
        }
        let mut file = match file {
            Some(file) => file,
            None => match open_at(&path, start).await {
                Ok(file) => file,
                Err(e) => return Some((Err(e), (None, path, start, 0))),
            },
        };
        let mut buf = vec![0; CHUNK.min(usize::try_from(left).unwrap_or(CHUNK))];
        match file.read(&mut buf).await {
            // The file got shorter since the request came in: end the body (the length was promised, so the
            // client sees a cut-off answer rather than a wrong one).
            Ok(0) => Some((Err(std::io::ErrorKind::UnexpectedEof.into()), (None, path, start, 0))),
            Ok(n) => {
                buf.truncate(n);
                let read = n as u64;
                Some((Ok(Bytes::from(buf)), (Some(file), path, start + read, left - read)))
            }
            Err(e) => Some((Err(e), (None, path, start, 0))),
        }
    })
}

async fn open_at(path: &Path, start: u64) -> std::io::Result<tokio::fs::File> {
    let mut file = tokio::fs::File::open(path).await?;
    if start > 0 {
        file.seek(SeekFrom::Start(start)).await?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_byte_ranges_are_read_and_others_give_the_whole_file() {
        let part = |start, end| ByteRange::Part { start, end };
        assert_eq!(byte_range(None, 100), ByteRange::Full);
        assert_eq!(byte_range(Some("bytes=0-9"), 100), part(0, 9));
        assert_eq!(byte_range(Some("bytes=90-"), 100), part(90, 99));
        assert_eq!(byte_range(Some("bytes=90-500"), 100), part(90, 99));
        assert_eq!(byte_range(Some("bytes=-10"), 100), part(90, 99));
        assert_eq!(byte_range(Some("bytes=-500"), 100), part(0, 99));
        assert_eq!(byte_range(Some("bytes=100-"), 100), ByteRange::Unsatisfiable);
        assert_eq!(byte_range(Some("bytes=-0"), 100), ByteRange::Unsatisfiable);
        for ignored in ["bytes=0-1,5-6", "items=0-1", "bytes=9-3", "bytes=x-1", "bytes=-", "bytes=1"] {
            assert_eq!(byte_range(Some(ignored), 100), ByteRange::Full, "{ignored}");
        }
    }
}
