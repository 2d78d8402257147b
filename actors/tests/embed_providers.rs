//! The embed provider allow-list at site load: a video from a provider that is not
//! allowed is a site problem with file and field; `[embeds] providers` extends the list;
//! bad provider entries and tile addresses are problems of `site.toml`; objects with an
//! embed from an allowed provider load, with safe attributes only.

use veranda_actors::site::{BlockData, Site};

/// A minimal site with `settings` appended to `site.toml` and `blocks` on its home page.
fn site_with(settings: &str, blocks: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a file has a parent")).expect("create folders");
        std::fs::write(full, text).expect("write file");
    };
    write(
        "site.toml",
        &format!(
            "[website]\nid = \"0123456789abcdef01234567\"\ntitle = \"Test\"\nbaseUrl = \"https://example.com\"\n{settings}"
        ),
    );
    write("pages/home.toml", &format!("id = \"aaaaaaaaaaaaaaaaaaaaaa01\"\nurl = \"/\"\ntitle = \"Home\"\n{blocks}"));
    dir
}

fn video(id: &str, html: &str) -> String {
    format!("\n[[blocks]]\nkind = \"video\"\nid = \"{id}\"\ntitle = \"Clip\"\nhtml = '''{html}'''\n")
}

fn problems(dir: &tempfile::TempDir) -> Vec<String> {
    match Site::load(dir.path()) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.0.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn videos_from_providers_not_allowed_are_load_problems() {
    let blocks = [
        video("aaaaaaaaaaaaaaaaaaaaaa02", r#"<iframe src="https://www.youtube-nocookie.com/embed/a"></iframe>"#),
        video("aaaaaaaaaaaaaaaaaaaaaa03", r#"<iframe src="https://youtube.com.evil.example/embed/a"></iframe>"#),
        video("aaaaaaaaaaaaaaaaaaaaaa04", r#"<iframe src="https://user@player.vimeo.com/video/1"></iframe>"#),
        video("aaaaaaaaaaaaaaaaaaaaaa05", r#"<iframe src="https://player.vimeo.com:8443/video/1"></iframe>"#),
        video(
            "aaaaaaaaaaaaaaaaaaaaaa06",
            r#"<object data="https://www.youtube.com/v/a"><embed src="https://evil.example/x.swf"></object>"#,
        ),
        video("aaaaaaaaaaaaaaaaaaaaaa07", r#"<iframe src="https://videos.example.net/v/1"></iframe>"#),
    ]
    .concat();
    let lines = problems(&site_with("", &blocks));
    let expected: Vec<String> = [
        (1, "https://youtube.com.evil.example/embed/a"),
        (2, "https://user@player.vimeo.com/video/1"),
        (3, "https://player.vimeo.com:8443/video/1"),
        (4, "https://evil.example/x.swf"),
        (5, "https://videos.example.net/v/1"),
    ]
    .iter()
    .map(|(i, src)| {
        format!(
            "pages/home.toml: blocks[{i}].html: '{src}' is not from an allowed embed provider (add its domain to [embeds] providers in site.toml)"
        )
    })
    .collect();
    assert_eq!(lines, expected);
}

#[test]
fn the_site_setting_extends_the_list() {
    let blocks = video("aaaaaaaaaaaaaaaaaaaaaa02", r#"<iframe src="https://cdn.videos.example.net/v/1"></iframe>"#);
    let dir = site_with("\n[embeds]\nproviders = [\"videos.example.net\"]\n", &blocks);
    assert_eq!(problems(&dir), Vec::<String>::new());
}

#[test]
fn bad_provider_entries_and_tile_addresses_are_settings_problems() {
    let settings = "\n[embeds]\nproviders = [\"https://videos.example.net\", \"ok.example.net\"]\n\n[maps]\ntileUrl = \"javascript:alert(1)\"\n";
    let lines = problems(&site_with(settings, ""));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("site.toml: embeds.providers[0]: 'https://videos.example.net' is not a provider domain"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("site.toml: maps.tileUrl: 'javascript:alert(1)' is not a tile address"), "{lines:?}");
}

#[test]
fn objects_from_allowed_providers_load_with_safe_attributes() {
    let html = r#"<object data="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="640" height="360" onload="x()"><param name="movie" value="https://www.youtube.com/v/a"><embed src="https://www.youtube.com/v/a" allowscriptaccess="always"></object>"#;
    let dir = site_with("", &video("aaaaaaaaaaaaaaaaaaaaaa02", html));
    let site = Site::load(dir.path()).unwrap_or_else(|p| panic!("{p}"));
    let BlockData::Video(block) = &site.pages[0].blocks[0].data else { panic!("a video block") };
    assert_eq!(
        block.html,
        r#"<object data="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="640" height="360"><embed src="https://www.youtube.com/v/a"></object>"#
    );
}
