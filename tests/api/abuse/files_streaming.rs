//! `/s/` and `/images/` answer large files streamed from disk: the exact length and bytes, the content-hashed ETag
//! of an original (and a new one when the file is replaced), 304 on a matching `If-None-Match`, and a single byte
//! range answered 206 with `Content-Range` (416 past the end), so a client can resume or seek instead of
//! fetching the whole file again.

use sha2::{Digest, Sha256};
use veranda_tests::{demo_site_copy, spawn_app_with_site, TestApp};

const FILE_LEN: usize = 6 * 1024 * 1024 + 123;
const IMAGE_LEN: usize = 3 * 1024 * 1024 + 7;

/// `len` bytes that differ from position to position (and with `seed`).
fn bytes(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

/// The ETag the spec's content hash gives: the first 16 bytes of the SHA-256, in hex, quoted.
fn etag_of(content: &[u8]) -> String {
    let digest = Sha256::digest(content);
    format!("\"{}\"", digest[..16].iter().map(|b| format!("{b:02x}")).collect::<String>())
}

async fn get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    app.get_with(path, headers).await
}

#[actix_rt::test]
async fn a_large_file_is_served_whole_and_by_byte_range() {
    let dir = demo_site_copy(|_| {});
    let content = bytes(FILE_LEN, 1);
    std::fs::write(dir.path().join("files/big.bin"), &content).expect("write");
    let app = spawn_app_with_site(dir.path()).await;

    let res = get(&app, "/s/big.bin", &[]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-length"], FILE_LEN.to_string().as_str());
    assert_eq!(res.headers()["accept-ranges"], "bytes");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let body = res.bytes().await.expect("the body");
    assert!(body.len() == FILE_LEN && body[..] == content[..], "the exact bytes");

    let res = get(&app, "/s/big.bin", &[("range", "bytes=5000000-5000099")]).await;
    assert_eq!(res.status(), 206);
    assert_eq!(res.headers()["content-range"], format!("bytes 5000000-5000099/{FILE_LEN}").as_str());
    assert_eq!(res.bytes().await.expect("the part")[..], content[5_000_000..5_000_100]);

    let res = get(&app, "/s/big.bin", &[("range", "bytes=-10")]).await;
    assert_eq!(res.status(), 206);
    assert_eq!(res.bytes().await.expect("the tail")[..], content[FILE_LEN - 10..]);

    let res = get(&app, "/s/big.bin", &[("range", &format!("bytes={FILE_LEN}-"))]).await;
    assert_eq!(res.status(), 416);
    assert_eq!(res.headers()["content-range"], format!("bytes */{FILE_LEN}").as_str());
}

#[actix_rt::test]
async fn a_large_original_image_keeps_its_content_etag_and_a_replaced_one_gets_a_new_one() {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("images/big.png");
    let content = bytes(IMAGE_LEN, 2);
    std::fs::write(&path, &content).expect("write");
    let app = spawn_app_with_site(dir.path()).await;

    let etag = etag_of(&content);
    for _ in 0..2 {
        let res = get(&app, "/images/big.png", &[]).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["etag"], etag.as_str());
        assert_eq!(res.headers()["content-type"], "image/png");
        assert_eq!(res.headers()["content-length"], IMAGE_LEN.to_string().as_str());
        assert_eq!(res.bytes().await.expect("the body")[..], content[..]);
    }
    let res = get(&app, "/images/big.png", &[("if-none-match", &etag)]).await;
    assert_eq!(res.status(), 304);

    let res = get(&app, "/images/big.png", &[("range", "bytes=0-15"), ("if-range", &etag)]).await;
    assert_eq!(res.status(), 206);
    assert_eq!(res.headers()["content-range"], format!("bytes 0-15/{IMAGE_LEN}").as_str());
    assert_eq!(res.bytes().await.expect("the part")[..], content[..16]);

    // Replaced (another length): the next answer carries the new content and its ETag; a range conditioned
    // on the old ETag gets the whole new file.
    let replaced = bytes(IMAGE_LEN + 1000, 3);
    std::fs::write(&path, &replaced).expect("rewrite");
    let res = get(&app, "/images/big.png", &[("range", "bytes=0-15"), ("if-range", &etag)]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["etag"], etag_of(&replaced).as_str());
    assert_eq!(res.bytes().await.expect("the body")[..], replaced[..]);
}
