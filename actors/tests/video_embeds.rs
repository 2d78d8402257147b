//! Video embeds (spec 001 §5): an iframe or an object with an embed, nested or not, is
//! accepted; an object without an embed and missing html are 'Invalid video embed.',
//! reported with the file and field; what is kept is sanitised. Video modes and map
//! styles are checked against the spec's lists.

use std::path::Path;

use veranda_actors::site::blocks::{video_embed_type, VideoEmbedType};
use veranda_actors::site::{BlockData, Site};

#[test]
fn embed_types_follow_the_spec() {
    use VideoEmbedType::*;
    for (html, expected) in [
        (r#"<iframe src="https://player.vimeo.com/1"></iframe>"#, Iframe),
        (r#"<div class="wrap"><p><IFRAME src="https://player.vimeo.com/1"></IFRAME></p></div>"#, Iframe),
        (r#"<object data="v.swf"><param name="movie" value="v.swf"><embed src="v.swf"></object>"#, Object),
        (r#"<span><object data="v.swf"><embed src="v.swf"/></object></span>"#, Object),
        (r#"<object data="v.swf"><param name="movie" value="v.swf"></object><embed src="x">"#, Invalid),
        (r#"<object data="v.swf"></object>"#, Invalid),
        ("", Invalid),
        ("   ", Invalid),
        (r#"<p>just text</p><iframes></iframes>"#, Invalid),
        (r#"<script src="https://player.vimeo.com/1"></script>"#, Invalid),
    ] {
        assert_eq!(video_embed_type(html), expected, "{html}");
    }
}

/// A minimal site whose home page holds `blocks`.
fn site_with(blocks: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a file has a parent")).expect("create folders");
        std::fs::write(full, text).expect("write file");
    };
    write(
        "site.toml",
        "[website]\nid = \"0123456789abcdef01234567\"\ntitle = \"Test\"\nbaseUrl = \"https://example.com\"\n",
    );
    write("pages/home.toml", &format!("id = \"aaaaaaaaaaaaaaaaaaaaaa01\"\nurl = \"/\"\ntitle = \"Home\"\n{blocks}"));
    dir
}

fn video(id: &str, html: Option<&str>) -> String {
    let html = html.map(|h| format!("html = '''{h}'''\n")).unwrap_or_default();
    format!(
        "\n[[blocks]]\nkind = \"video\"\nid = \"{id}\"\ntitle = \"Clip\"\nurl = \"https://video.example/1\"\n{html}"
    )
}

#[test]
fn invalid_embeds_are_site_problems_with_file_and_field() {
    let blocks = [
        video("aaaaaaaaaaaaaaaaaaaaaa02", Some(r#"<iframe src="https://player.vimeo.com/1"></iframe>"#)),
        video("aaaaaaaaaaaaaaaaaaaaaa03", Some(r#"<object data="v.swf"></object>"#)),
        video("aaaaaaaaaaaaaaaaaaaaaa04", None),
        video(
            "aaaaaaaaaaaaaaaaaaaaaa05",
            Some(r#"<object data="https://www.youtube.com/v/a"><embed src="https://www.youtube.com/v/a"></object>"#),
        ),
    ]
    .concat();
    let dir = site_with(&blocks);
    let problems = match Site::load(dir.path()) {
        Ok(_) => panic!("the site loaded"),
        Err(problems) => problems.0,
    };
    let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        lines,
        [
            "pages/home.toml: blocks[1].html: Invalid video embed.",
            "pages/home.toml: blocks[2].html: Invalid video embed."
        ],
    );
}

#[test]
fn kept_embeds_lose_scripts_handlers_and_plain_http_frames() {
    let html = r#"<div><iframe src="https://player.vimeo.com/1" onload="x()"></iframe><script>steal()</script></div>"#;
    let dir = site_with(&video("aaaaaaaaaaaaaaaaaaaaaa02", Some(html)));
    let site = load(dir.path());
    let BlockData::Video(block) = &site.pages[0].blocks[0].data else { panic!("a video block") };
    assert!(block.html.contains(r#"<iframe src="https://player.vimeo.com/1">"#), "{}", block.html);
    for bad in ["script", "steal", "onload"] {
        assert!(!block.html.contains(bad), "{bad} left in {}", block.html);
    }
}

fn load(dir: &Path) -> Site {
    match Site::load(dir) {
        Ok(site) => site,
        Err(problems) => panic!("{problems}"),
    }
}

#[test]
fn video_modes_and_map_styles_come_from_the_spec() {
    let blocks = format!(
        "{}mode = \"stretch\"\n{}mode = \"fill\"\n{}",
        video("aaaaaaaaaaaaaaaaaaaaaa02", Some(r#"<iframe src="https://player.vimeo.com/1"></iframe>"#)),
        video("aaaaaaaaaaaaaaaaaaaaaa03", Some(r#"<iframe src="https://player.vimeo.com/2"></iframe>"#)),
        "\n[[blocks]]\nkind = \"map\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa04\"\nstyle = \"Neon\"\n\n[[blocks]]\nkind = \"map\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa05\"\nstyle = \"MinimalBlue\"\n",
    );
    let dir = site_with(&blocks);
    let problems = match Site::load(dir.path()) {
        Ok(_) => panic!("the site loaded"),
        Err(problems) => problems.0,
    };
    let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        lines,
        [
            "pages/home.toml: blocks[0].mode: 'stretch' must be one of none, fit, fill",
            "pages/home.toml: blocks[2].style: 'Neon' must be one of Original, Grayscale, Satellite, MinimalLight, MinimalDark, MinimalBlue",
        ],
    );
}
