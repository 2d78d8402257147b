//! Response compression: the coding a request accepts ([`Coding::of`]) and bodies kept
//! in every coding, compressed once on first use ([`Encoded`]).
//!
//! Pages and the built client are compressed with brotli or gzip (brotli preferred at
//! equal quality, as `Accept-Encoding` ranks them); bodies under [`MIN_COMPRESSED_BYTES`]
//! are sent as they are. A request that accepts neither gets the body uncompressed,
//! never a 406. Streams (events, sockets) and API answers are not compressed here.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use actix_web::http::header::{self, AcceptEncoding, Encoding, Header, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponseBuilder};

/// Bodies shorter than this gain too little from compression to be worth it.
pub const MIN_COMPRESSED_BYTES: usize = 1024;

/// Brotli's window: 256 KiB, more than any page; a larger one only costs memory and time.
const WINDOW_BITS: u32 = 18;

/// The `Vary` value of a compressed response whose body also depends on cookies.
pub const VARY_ENCODING_AND_COOKIE: &str = "Accept-Encoding, Cookie";

/// A content coding the server sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Coding {
    /// `br`.
    Brotli,
    /// `gzip`.
    Gzip,
    /// As it is.
    Identity,
}

/// The codings offered, in the server's order of preference.
const OFFERED: [Encoding; 3] = [Encoding::brotli(), Encoding::gzip(), Encoding::identity()];

impl Coding {
    /// The coding `req` accepts best: brotli, then gzip, else none. An unreadable
    /// `Accept-Encoding` counts as none.
    pub fn of(req: &HttpRequest) -> Coding {
        let mut values = req.headers().get_all(header::ACCEPT_ENCODING);
        let Some(first) = values.next() else { return Coding::Identity };
        if values.next().is_none() {
            if let Some(coding) = Coding::of_plain_list(first.as_bytes()) {
                return coding;
            }
        }
        Coding::negotiated(req)
    }

    /// The coding of an `Accept-Encoding` that is a plain list of the usual codings with no
    /// quality values (`gzip, deflate, br, zstd`, as browsers send it): every one listed at
    /// the same quality, so the server's order decides. `None` for anything else (a quality
    /// value, an unusual coding, an empty item), which [`Coding::negotiated`] reads in full.
    /// Parsing and ranking the header took about 2 % of a page's CPU time.
    fn of_plain_list(value: &[u8]) -> Option<Coding> {
        let (mut brotli, mut gzip) = (false, false);
        for item in value.split(|b| *b == b',') {
            match item.trim_ascii() {
                b"br" => brotli = true,
                b"gzip" => gzip = true,
                b"deflate" | b"zstd" | b"identity" | b"*" => {}
                _ => return None,
            }
        }
        Some(if brotli {
            Coding::Brotli
        } else if gzip {
            Coding::Gzip
        } else {
            Coding::Identity
        })
    }

    /// The coding `req` accepts best, as actix-web negotiates it from the parsed header.
    fn negotiated(req: &HttpRequest) -> Coding {
        let Ok(accepted) = AcceptEncoding::parse(req) else { return Coding::Identity };
        match accepted.negotiate(OFFERED.iter()) {
            Some(e) if e == Encoding::brotli() => Coding::Brotli,
            Some(e) if e == Encoding::gzip() => Coding::Gzip,
            _ => Coding::Identity,
        }
    }

    /// The `Content-Encoding` value, none for identity.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }

    /// The suffix that tells this coding's entity tag from the others' (a strong tag
    /// names one representation).
    pub fn etag_suffix(self) -> &'static str {
        match self {
            Coding::Brotli => "-br",
            Coding::Gzip => "-gz",
            Coding::Identity => "",
        }
    }
}

/// How hard to compress: a body kept and sent many times is worth more effort than one
/// compressed for a single answer. For one answer the fastest levels are used: on the demo
/// home page (26 KB) brotli at quality 0 takes about 170 µs and gzip at level 1 about 120 µs,
/// where quality 4 took 720 µs and rendering the page takes 75 µs
/// (`cargo bench -p veranda-benches --bench pages`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// Compressed once, sent many times (cached pages, the built client).
    Kept,
    /// Compressed for one answer.
    Once,
}

/// `body` compressed with `coding`; the body itself for identity. Compression into
/// memory cannot fail; should it, the body is sent as it is.
pub fn compress(body: &[u8], coding: Coding, effort: Effort) -> Option<Bytes> {
    match coding {
        Coding::Identity => None,
        Coding::Gzip => {
            let level = match effort {
                Effort::Kept => flate2::Compression::new(8),
                Effort::Once => flate2::Compression::new(1),
            };
            let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 3), level);
            encoder.write_all(body).ok()?;
            encoder.finish().ok().map(Bytes::from)
        }
        Coding::Brotli => {
            let quality = match effort {
                Effort::Kept => 6,
                Effort::Once => 0,
            };
            let mut out = Vec::with_capacity(body.len() / 3);
            let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, quality, WINDOW_BITS);
            encoder.write_all(body).ok()?;
            drop(encoder);
            Some(Bytes::from(out))
        }
    }
}

/// A body in every coding, each compressed on first use and then kept.
#[derive(Debug)]
pub struct Encoded {
    /// The body as it is.
    identity: Bytes,
    /// Gzip, once asked for.
    gzip: OnceLock<Option<Bytes>>,
    /// Brotli, once asked for.
    brotli: OnceLock<Option<Bytes>>,
    /// How hard to compress.
    effort: Effort,
}

impl Encoded {
    /// `identity`, not compressed yet.
    pub fn new(identity: Bytes, effort: Effort) -> Encoded {
        Encoded { identity, gzip: OnceLock::new(), brotli: OnceLock::new(), effort }
    }

    /// The body as it is.
    pub fn identity(&self) -> &Bytes {
        &self.identity
    }

    /// The body to send for `coding` and the coding it is in: identity for short bodies
    /// and for a compression that failed.
    pub fn body(&self, coding: Coding) -> (Bytes, Coding) {
        let (body, coding, _) = self.body_made(coding);
        (body, coding)
    }

    /// As [`Encoded::body`], with the bytes this call made: the size of the coding when
    /// this call compressed it, else 0 (however many ask at once, one call makes it).
    pub fn body_made(&self, coding: Coding) -> (Bytes, Coding, usize) {
        if self.identity.len() < MIN_COMPRESSED_BYTES {
            return (self.identity.clone(), Coding::Identity, 0);
        }
        let slot = match coding {
            Coding::Identity => return (self.identity.clone(), Coding::Identity, 0),
            Coding::Gzip => &self.gzip,
            Coding::Brotli => &self.brotli,
        };
        let mut made = 0;
        let kept = slot.get_or_init(|| {
            let compressed = compress(&self.identity, coding, self.effort);
            made = compressed.as_ref().map_or(0, Bytes::len);
            compressed
        });
        match kept {
            Some(bytes) => (bytes.clone(), coding, made),
            None => (self.identity.clone(), Coding::Identity, 0),
        }
    }

    /// Whether the body in `coding` is ready (made, or needing no making).
    pub fn is_made(&self, coding: Coding) -> bool {
        match coding {
            _ if self.identity.len() < MIN_COMPRESSED_BYTES => true,
            Coding::Identity => true,
            Coding::Gzip => self.gzip.get().is_some(),
            Coding::Brotli => self.brotli.get().is_some(),
        }
    }

    /// The bytes held: the body and the codings made so far.
    pub fn held_bytes(&self) -> usize {
        let made = |slot: &OnceLock<Option<Bytes>>| slot.get().and_then(Option::as_ref).map_or(0, Bytes::len);
        self.identity.len() + made(&self.gzip) + made(&self.brotli)
    }
}

/// Files of the built client in their codings, by name. Only files that exist are put
/// here, so it holds at most the build's files.
#[derive(Debug, Clone, Default)]
pub struct KeptFiles(Arc<Mutex<HashMap<String, Arc<Encoded>>>>);

impl KeptFiles {
    /// The file `name`, if it was kept.
    pub fn get(&self, name: &str) -> Option<Arc<Encoded>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).get(name).cloned()
    }

    /// Keeps `bytes` as the file `name` (the first kept wins) and returns it.
    pub fn keep(&self, name: &str, bytes: Bytes) -> Arc<Encoded> {
        let mut files = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        files.entry(name.to_string()).or_insert_with(|| Arc::new(Encoded::new(bytes, Effort::Kept))).clone()
    }
}

/// Whether a file of this name is text worth compressing (scripts, styles, SVG, JSON, maps).
pub fn compressible(name: &str) -> bool {
    let extension = name.rsplit('.').next().unwrap_or_default();
    matches!(extension, "js" | "mjs" | "css" | "svg" | "json" | "map" | "txt" | "html")
}

/// Marks `builder`'s answer as being in `coding` (nothing for identity).
pub fn mark(builder: &mut HttpResponseBuilder, coding: Coding) {
    if let Some(value) = coding.header() {
        builder.insert_header((header::CONTENT_ENCODING, HeaderValue::from_static(value)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;
    use std::io::Read;

    fn coding(accept: &str) -> Coding {
        Coding::of(&TestRequest::default().insert_header(("Accept-Encoding", accept)).to_http_request())
    }

    #[test]
    fn brotli_is_preferred_then_gzip_and_refusals_are_honoured() {
        assert_eq!(coding("gzip, deflate, br, zstd"), Coding::Brotli);
        assert_eq!(coding("gzip, deflate"), Coding::Gzip);
        assert_eq!(coding("br;q=0, gzip"), Coding::Gzip);
        assert_eq!(coding("gzip;q=0.5, br;q=0.1"), Coding::Gzip, "the higher quality wins");
        assert_eq!(coding("deflate"), Coding::Identity);
        assert_eq!(coding("identity;q=0"), Coding::Identity, "never a 406: sent as it is");
        assert_eq!(Coding::of(&TestRequest::default().to_http_request()), Coding::Identity);
        assert_eq!(coding("gzip;q=abc;;;, br;q=7"), Coding::Identity, "unreadable");
    }

    #[test]
    fn plain_lists_are_read_as_the_full_negotiation_reads_them() {
        let values = [
            "gzip, deflate, br, zstd",
            "gzip, deflate, br",
            "gzip, deflate",
            "gzip",
            "br",
            "deflate",
            "identity",
            "*",
            "zstd, *",
            "deflate,gzip",
            " br ,gzip ",
            "",
            ",",
            "gzip,,br",
            "GZIP",
            "x-gzip",
            "compress, gzip",
            "gzip;q=0, br;q=0",
            "br;q=0, gzip",
            "*;q=0",
            "identity;q=0, gzip;q=0",
        ];
        for value in values {
            let req = TestRequest::default().insert_header(("Accept-Encoding", value)).to_http_request();
            assert_eq!(Coding::of(&req), Coding::negotiated(&req), "{value:?}");
        }
        assert_eq!(Coding::of_plain_list(b"gzip, deflate, br, zstd"), Some(Coding::Brotli));
        assert_eq!(Coding::of_plain_list(b"gzip, deflate"), Some(Coding::Gzip));
        assert_eq!(Coding::of_plain_list(b"br;q=0, gzip"), None, "a quality value is read in full");
        assert_eq!(Coding::of_plain_list(b"compress"), None, "an unusual coding is read in full");
        let two = TestRequest::default()
            .append_header(("Accept-Encoding", "deflate"))
            .append_header(("Accept-Encoding", "br;q=0.5"))
            .to_http_request();
        assert_eq!(Coding::of(&two), Coding::Brotli, "every Accept-Encoding header counts");
    }

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).expect("gzip");
        out
    }

    fn unbrotli(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out).expect("brotli");
        out
    }

    #[test]
    fn each_coding_gives_back_the_body_and_is_made_once() {
        let page = "<p>porch swing</p>".repeat(200);
        for effort in [Effort::Kept, Effort::Once] {
            let encoded = Encoded::new(Bytes::from(page.clone()), effort);
            let (gz, used) = encoded.body(Coding::Gzip);
            assert_eq!(used, Coding::Gzip);
            assert_eq!(gunzip(&gz), page.as_bytes());
            let (br, used) = encoded.body(Coding::Brotli);
            assert_eq!(used, Coding::Brotli);
            assert_eq!(unbrotli(&br), page.as_bytes());
            assert!(br.len() < page.len() / 10, "compressed: {} of {}", br.len(), page.len());
            assert_eq!(encoded.held_bytes(), page.len() + gz.len() + br.len());
            let (again, _) = encoded.body(Coding::Brotli);
            assert_eq!(again.as_ptr(), br.as_ptr(), "kept, not compressed again");
        }
    }

    #[test]
    fn short_bodies_and_identity_are_sent_as_they_are() {
        let short = Encoded::new(Bytes::from_static(b"<p>hi</p>"), Effort::Kept);
        assert_eq!(short.body(Coding::Brotli), (Bytes::from_static(b"<p>hi</p>"), Coding::Identity));
        let long = Encoded::new(Bytes::from(vec![b'a'; 4096]), Effort::Once);
        assert_eq!(long.body(Coding::Identity).1, Coding::Identity);
        assert_eq!(long.held_bytes(), 4096, "nothing compressed yet");
    }
}
