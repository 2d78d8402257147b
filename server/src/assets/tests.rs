//! The client manifest, asset names and serving built files.

use actix_web::body::to_bytes;

use super::*;

const MANIFEST: &str = r#"{
  "_react-abc.js": { "file": "assets/react-abc.js", "name": "react", "css": ["assets/shared-1.css"] },
  "src/dashboard/main.tsx": { "file": "assets/dashboard-d1.js", "name": "dashboard", "src": "src/dashboard/main.tsx",
    "isEntry": true, "imports": ["_react-abc.js"], "css": ["assets/dashboard-d2.css"] },
  "src/islands/menu-tabs/index.tsx": { "file": "assets/menu-tabs-m1.js", "name": "menu-tabs", "isDynamicEntry": true,
    "imports": ["_react-abc.js"], "css": ["assets/menu-tabs-m2.css"] },
  "src/loader/index.ts": { "file": "assets/loader-l1.js", "name": "loader", "src": "src/loader/index.ts",
    "isEntry": true, "dynamicImports": ["src/islands/menu-tabs/index.tsx"] }
}"#;

fn disk(dir: &tempfile::TempDir) -> AssetSource {
    AssetSource::Disk(dir.path().to_path_buf())
}

fn build(manifest: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("assets")).expect("assets dir");
    if let Some(text) = manifest {
        std::fs::create_dir_all(dir.path().join(".vite")).expect(".vite dir");
        std::fs::write(dir.path().join(MANIFEST_PATH), text).expect("manifest");
    }
    dir
}

#[test]
fn the_manifest_gives_hashed_urls_and_every_stylesheet_an_entry_needs() {
    let dir = build(Some(MANIFEST));
    let assets = Assets::load(dir.path()).expect("valid manifest");
    assert_eq!(assets.loader_js.as_deref(), Some("/assets/loader-l1.js"));
    assert!(assets.loader_css.is_empty(), "dynamic imports' styles are not the loader's");
    assert_eq!(assets.dashboard_js.as_deref(), Some("/assets/dashboard-d1.js"));
    assert_eq!(assets.dashboard_css, ["/assets/dashboard-d2.css", "/assets/shared-1.css"]);
    assert_eq!(assets.source, AssetSource::Disk(dir.path().to_path_buf()));
}

#[test]
fn a_missing_build_is_not_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let assets = Assets::load(&dir.path().join("no-such-dist")).expect("missing dist is fine");
    assert!(assets.loader_js.is_none() && assets.dashboard_js.is_none());
    let assets = Assets::load(build(None).path()).expect("missing manifest is fine");
    assert!(assets.loader_js.is_none() && assets.loader_css.is_empty());
}

#[test]
fn a_corrupt_manifest_is_an_error_naming_the_file_and_why() {
    let dir = build(Some("{\"src/loader/index.ts\": {"));
    let message = Assets::load(dir.path()).expect_err("corrupt manifest").to_string();
    assert!(message.contains("manifest.json"), "{message}");
    assert!(message.contains("not valid") && message.contains("EOF"), "{message}");

    let dir = build(Some(r#"{"x": {"file": "assets/x.js", "name": "dashboard", "isEntry": true}}"#));
    let message = Assets::load(dir.path()).expect_err("no loader entry").to_string();
    assert!(message.contains("manifest.json") && message.contains("`loader`"), "{message}");

    let dir = build(Some(
        r#"{"a": {"file": "../../etc/passwd", "name": "loader", "isEntry": true},
        "b": {"file": "assets/d.js", "name": "dashboard", "isEntry": true}}"#,
    ));
    let message = Assets::load(dir.path()).expect_err("file outside assets/").to_string();
    assert!(message.contains("../../etc/passwd"), "{message}");
}

#[test]
fn asset_names_are_single_plain_segments() {
    assert!(AssetName::parse("loader-B5SAekn8.js").is_ok());
    assert!(AssetName::parse("react-WGfG_Ba-.js").is_ok());
    for bad in ["", ".vite", "..", "../x.js", "a/b.js", "a\\b.js", "x.js\0", "%2e%2e", "a b.js", "ü.js"] {
        assert_eq!(AssetName::parse(bad), Err(UnsafeAssetName), "{bad:?}");
    }
}

#[actix_web::test]
async fn text_files_come_compressed_once_and_images_as_they_are() {
    let dir = build(Some(MANIFEST));
    let script = "export const porch = 'swing';\n".repeat(200);
    std::fs::write(dir.path().join("assets/loader-l1.js"), &script).expect("script");
    std::fs::write(dir.path().join("assets/logo.png"), vec![7u8; 4096]).expect("image");
    let kept = KeptFiles::default();
    let res = respond(&disk(&dir), &kept, Coding::Brotli, "loader-l1.js").await;
    assert_eq!(res.headers().get("content-encoding").map(|v| v.as_bytes()), Some(&b"br"[..]));
    assert_eq!(res.headers().get("vary").map(|v| v.as_bytes()), Some(&b"Accept-Encoding"[..]));
    let body = to_bytes(res.into_body()).await.ok().unwrap_or_default();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut brotli::Decompressor::new(&body[..], 4096), &mut plain).expect("brotli");
    assert_eq!(plain, script.as_bytes());
    // Kept: the file on disk is not read again.
    std::fs::remove_file(dir.path().join("assets/loader-l1.js")).expect("removed");
    let again = respond(&disk(&dir), &kept, Coding::Gzip, "loader-l1.js").await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.headers().get("content-encoding").map(|v| v.as_bytes()), Some(&b"gzip"[..]));
    let image = respond(&disk(&dir), &kept, Coding::Brotli, "logo.png").await;
    assert_eq!(image.headers().get("content-encoding"), None);
    assert_eq!(to_bytes(image.into_body()).await.ok().map(|b| b.len()), Some(4096));
    assert!(kept.get("logo.png").is_none(), "only text is kept");
}

#[actix_web::test]
async fn built_files_are_served_with_their_type_and_a_year_of_cache() {
    let dir = build(Some(MANIFEST));
    std::fs::write(dir.path().join("assets/loader-l1.js"), "console.log(1)").expect("write js");
    std::fs::write(dir.path().join("assets/menu-tabs-m2.css"), "a{}").expect("write css");

    let res = respond(&disk(&dir), &KeptFiles::default(), Coding::Identity, "loader-l1.js").await;
    assert_eq!(res.status(), StatusCode::OK);
    let content_type = res.headers().get(header::CONTENT_TYPE).expect("content type");
    assert!(content_type.to_str().unwrap_or_default().contains("javascript"), "{content_type:?}");
    assert_eq!(res.headers().get(header::CACHE_CONTROL).expect("cache"), IMMUTABLE);
    let body = to_bytes(res.into_body()).await.expect("body");
    assert_eq!(&body[..], b"console.log(1)");

    let res = respond(&disk(&dir), &KeptFiles::default(), Coding::Identity, "menu-tabs-m2.css").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers().get(header::CONTENT_TYPE).expect("content type"), "text/css");
}

#[actix_web::test]
async fn anything_outside_the_assets_folder_is_not_found() {
    let dir = build(Some(MANIFEST));
    std::fs::write(dir.path().join("secret.txt"), "secret").expect("write secret");
    std::fs::create_dir_all(dir.path().join("assets/sub")).expect("sub dir");
    for raw in [
        "missing.js",
        "",
        "sub",
        "../secret.txt",
        "%2e%2e%2fsecret.txt",
        "..%2fsecret.txt",
        "..%5csecret.txt",
        "%2evite",
    ] {
        let res = respond(&disk(&dir), &KeptFiles::default(), Coding::Identity, raw).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{raw:?}");
        assert!(res.headers().get(header::CACHE_CONTROL).is_some_and(|v| v != IMMUTABLE), "{raw:?}");
    }
    assert_eq!(
        respond(&disk(&dir), &KeptFiles::default(), Coding::Identity, ".vite%2fmanifest.json").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[cfg(unix)]
#[actix_web::test]
async fn symlinks_leaving_the_assets_folder_are_not_followed() {
    let dir = build(Some(MANIFEST));
    std::fs::write(dir.path().join("secret.txt"), "secret").expect("write secret");
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), dir.path().join("assets/link.js")).expect("symlink");
    assert_eq!(
        respond(&disk(&dir), &KeptFiles::default(), Coding::Identity, "link.js").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[actix_web::test]
async fn the_built_in_client_serves_nothing_outside_its_assets_folder() {
    for raw in ["", "..%2f.vite%2fmanifest.json", "%2e%2e%2fCargo.toml", "..%2f..%2fCargo.toml", "missing.js"] {
        let res = respond(&AssetSource::Embedded, &KeptFiles::default(), Coding::Identity, raw).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{raw:?}");
    }
}
