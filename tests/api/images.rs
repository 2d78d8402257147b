//! `/images/...?format=750w`: every width of the size ladder, refusals, the disk cache,
//! revalidation, and hostile originals answered with 4xx.

use std::io::Cursor;
use std::path::Path;

use image::{ImageFormat, RgbImage};
use veranda_tests::{demo_site_copy, spawn_app, spawn_app_configured, TestApp};

/// The size ladder of 001 §9.
const LADDER: [u32; 7] = [2500, 1500, 1000, 750, 500, 300, 100];

/// A site with a 2600 × 1300 PNG, a JPEG, a truncated PNG and a PNG claiming huge
/// dimensions; resized images cached in `cache_root`.
async fn app_with_images(cache_root: &Path) -> (TestApp, tempfile::TempDir) {
    let site = demo_site_copy(|_| {});
    let images = site.path().join("images");
    let mut png = Cursor::new(Vec::new());
    RgbImage::from_fn(2600, 1300, |x, _| image::Rgb([(x % 256) as u8, 120, 40]))
        .write_to(&mut png, ImageFormat::Png)
        .expect("encodes");
    let png = png.into_inner();
    std::fs::write(images.join("wide.png"), &png).expect("writes");
    std::fs::write(images.join("truncated.png"), &png[..png.len() / 3]).expect("writes");
    let mut jpeg = Cursor::new(Vec::new());
    RgbImage::new(1200, 900).write_to(&mut jpeg, ImageFormat::Jpeg).expect("encodes");
    std::fs::write(images.join("photo.jpg"), jpeg.into_inner()).expect("writes");
    std::fs::write(images.join("huge.png"), forged_png(100_000)).expect("writes");
    let data_dir = cache_root.to_path_buf();
    let app = spawn_app_configured(site.path(), move |s| s.data_dir = data_dir).await;
    (app, site)
}

/// A 1 × 1 PNG whose header is rewritten to claim `side` × `side` pixels (CRC fixed up).
fn forged_png(side: u32) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    RgbImage::new(1, 1).write_to(&mut out, ImageFormat::Png).expect("encodes");
    let mut bytes = out.into_inner();
    bytes[16..20].copy_from_slice(&side.to_be_bytes());
    bytes[20..24].copy_from_slice(&side.to_be_bytes());
    let mut crc = 0xFFFF_FFFFu32;
    for byte in &bytes[12..29] {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    bytes[29..33].copy_from_slice(&(!crc).to_be_bytes());
    bytes
}

fn dimensions(bytes: &[u8]) -> (u32, u32) {
    let image = image::load_from_memory(bytes).expect("a decodable image");
    (image.width(), image.height())
}

#[actix_rt::test]
async fn every_ladder_width_is_served_resized_with_long_caching() {
    let cache = tempfile::tempdir().expect("temp dir");
    let (app, _site) = app_with_images(cache.path()).await;
    for width in LADDER {
        let res = app.get(&format!("/images/wide.png?format={width}w")).await;
        assert_eq!(res.status(), 200, "{width}w");
        assert_eq!(res.headers()["content-type"], "image/png");
        assert_eq!(res.headers()["cache-control"], "public, max-age=2592000");
        assert!(res.headers()["etag"].to_str().expect("ascii").ends_with(&format!("-{width}\"")));
        let bytes = res.bytes().await.expect("body");
        assert_eq!(dimensions(&bytes), (width, width / 2), "{width}w");
    }
    let jpeg = app.get("/images/photo.jpg?format=300w").await;
    assert_eq!(jpeg.headers()["content-type"], "image/jpeg");
    assert_eq!(dimensions(&jpeg.bytes().await.expect("body")), (300, 225));
}

#[actix_rt::test]
async fn a_width_after_the_file_name_is_served_like_the_query_string_one() {
    let cache = tempfile::tempdir().expect("temp dir");
    let (app, _site) = app_with_images(cache.path()).await;
    let res = app.get("/images/wide.png/500w").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/png");
    assert_eq!(dimensions(&res.bytes().await.expect("body")), (500, 250));
    assert_eq!(app.get("/images/wide.png/751w").await.status(), 400);
}

#[actix_rt::test]
async fn widths_not_on_the_ladder_are_refused_with_a_message() {
    let app = spawn_app().await;
    for bad in ["751w", "0w", "2501w", "750", "huge", "-100w"] {
        let res = app.get(&format!("/images/porch.png?format={bad}")).await;
        assert_eq!(res.status(), 400, "{bad}");
        let text = res.text().await.expect("body");
        assert!(text.contains("is not available; use one of 2500w, 1500w"), "{bad}: {text}");
    }
}

#[actix_rt::test]
async fn an_image_is_never_enlarged() {
    let app = spawn_app().await;
    let original = app.get("/images/porch.png").await.bytes().await.expect("body");
    assert_eq!(dimensions(&original), (480, 320));
    for width in [2500, 500] {
        let res = app.get(&format!("/images/porch.png?format={width}w")).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.bytes().await.expect("body"), original, "{width}w serves the original");
    }
    let smaller = app.get("/images/porch.png?format=300w").await.bytes().await.expect("body");
    assert_eq!(dimensions(&smaller), (300, 200));
}

#[actix_rt::test]
async fn a_variant_is_resized_once_then_served_from_the_disk_cache() {
    let cache = tempfile::tempdir().expect("temp dir");
    let (app, _site) = app_with_images(cache.path()).await;
    let first = app.get("/images/wide.png?format=500w").await;
    let etag = first.headers()["etag"].to_str().expect("ascii").to_string();
    assert_eq!(dimensions(&first.bytes().await.expect("body")), (500, 250));
    let folder = cache.path().join("image-cache");
    let files: Vec<_> = std::fs::read_dir(&folder).expect("the cache folder exists").flatten().collect();
    assert_eq!(files.len(), 1, "one cached variant");
    // Replace the cached file: the next answer must come from it, not from a new resize.
    std::fs::write(files[0].path(), b"image/png\nfrom-the-cache").expect("writes");
    let second = app.get("/images/wide.png?format=500w").await;
    assert_eq!(second.headers()["etag"].to_str().expect("ascii"), etag);
    assert_eq!(second.bytes().await.expect("body").as_ref(), b"from-the-cache");
}

#[actix_rt::test]
async fn a_matching_etag_gets_304() {
    let app = spawn_app().await;
    for path in ["/images/porch.png?format=300w", "/images/porch.png"] {
        let etag = app.get(path).await.headers()["etag"].to_str().expect("ascii").to_string();
        let again = app.get_with(path, &[("If-None-Match", &etag)]).await;
        assert_eq!(again.status(), 304, "{path}");
        assert!(again.bytes().await.expect("body").is_empty());
    }
}

#[actix_rt::test]
async fn hostile_originals_get_4xx_never_5xx() {
    let cache = tempfile::tempdir().expect("temp dir");
    let (app, _site) = app_with_images(cache.path()).await;
    for (path, status) in [("/images/truncated.png?format=300w", 422), ("/images/huge.png?format=300w", 422)] {
        let res = app.get(path).await;
        assert_eq!(res.status(), status, "{path}");
        assert!(res.text().await.expect("body").starts_with("The image "), "{path}");
    }
    assert_eq!(app.get("/images/missing.png?format=300w").await.status(), 404);
}

/// The first `<img>` tag on `page` whose `src` starts with `src`, up to its closing `>`;
/// `what` names it when the page has none.
async fn img_tag_on(app: &TestApp, page: &str, src: &str, what: &str) -> String {
    let html = app.get(page).await.text().await.expect("html");
    let at = html.find(&format!("<img src=\"{src}")).expect(what);
    tag_at(&html, at).to_string()
}

/// The tag of `html` that opens at `at`, up to its closing `>`.
fn tag_at(html: &str, at: usize) -> &str {
    &html[at..at + html[at..].find('>').expect("the tag ends")]
}

#[actix_rt::test]
async fn an_image_block_without_dimensions_reserves_its_space_from_the_file() {
    // The demo's porch image block names no `imageDimensions`; porch.png is 480×320.
    let app = spawn_app().await;
    let tag = img_tag_on(&app, "/", "/images/porch.png", "the porch image is on the home page").await;
    assert!(tag.contains(r#"width="480""#) && tag.contains(r#"height="320""#), "{tag}");
    assert!(tag.contains(r#"data-image-dimensions="480x320""#), "{tag}");
}

#[actix_rt::test]
async fn item_cards_reserve_the_space_of_their_images() {
    // The shop lists the brewing guide, whose image guide.png is 480×320.
    let app = spawn_app().await;
    let tag = img_tag_on(&app, "/shop", "/images/guide.png\"", "the guide's card image is on /shop").await;
    assert!(tag.contains(r#"width="480""#) && tag.contains(r#"height="320""#), "{tag}");
}

#[actix_rt::test]
async fn gallery_slides_reserve_the_space_of_their_images() {
    let app = spawn_app().await;
    let html = app.get("/gallery-designs").await.text().await.expect("html");
    let tags: Vec<&str> = html.match_indices("<img src=\"/images/").map(|(at, _)| tag_at(&html, at)).collect();
    assert!(tags.len() >= 5, "the gallery page shows its slides: {}", tags.len());
    for tag in tags {
        assert!(tag.contains(" width=\"") && tag.contains(" height=\""), "every slide has its file's size: {tag}");
    }
}
