//! Undoing a compressed answer's coding, to compare it with the page sent as it is.

use std::io::Read;

/// The bytes of a gzip body.
pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).expect("gzip");
    out
}

/// The bytes of a brotli body.
pub fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out).expect("brotli");
    out
}
