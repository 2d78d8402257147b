//! Release builds carry the built client, the demo site and the starter site (rust-embed,
//! `src/embedded/`), so they are rebuilt when those folders change; debug builds read the
//! folders at run time and need no rebuild. A release build made before the client says so:
//! the binary then serves pages without scripts (and logs it at start).

use std::path::Path;

/// The folders embedded by `src/embedded/bundles.rs`, relative to this crate.
const EMBEDDED: [&str; 3] = ["../client/dist", "../config/sites/demo", "../config/starter"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // PROFILE is `release` for release and every profile inheriting it (`release-debug`).
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        return;
    }
    for folder in EMBEDDED {
        println!("cargo:rerun-if-changed={folder}");
    }
    if !Path::new("../client/dist/.vite/manifest.json").is_file() {
        println!(
            "cargo:warning=client/dist is not built: this binary will serve pages without scripts \
             (run `npm ci && npm run build` in client/ first)"
        );
    }
}
