//! Loading reports every problem of a site directory with its file and field, and
//! sanitises rich text on the way in.

mod support;

use support::{load, site_with};

use std::path::{Path, PathBuf};

use veranda_actors::site::{BlockData, Resolved, Site, SiteProblem};

fn broken() -> Vec<SiteProblem> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken-site");
    match Site::load(dir) {
        Ok(_) => panic!("the broken site loaded"),
        Err(problems) => problems.0,
    }
}

fn has(problems: &[SiteProblem], file: &str, field: &str, words: &str) -> bool {
    problems.iter().any(|p| p.file == file && p.field == field && p.message.contains(words))
}

#[test]
fn every_problem_of_the_broken_site_is_reported_with_its_file_and_field() {
    let problems = broken();
    let expected = [
        ("site.toml", "website.id", "24 lowercase"),
        ("site.toml", "website.baseUrl", "http"),
        ("site.toml", "store.selectedCurrency", "not supported"),
        ("site.toml", "features.hero.variants", "not 100"),
        ("site.toml", "features.hero.default", "not one of the variants"),
        ("site.toml", "popupOverlay.formId", "no-such-form"),
        ("navigation.toml", "main[1].url", "/nowhere"),
        ("pages/about.toml", "id", "24 lowercase"),
        ("pages/about.toml", "url", "must start with /"),
        ("pages/again.toml", "title", "is required"),
        ("pages/api.toml", "url", "reserved"),
        ("pages/bad-syntax.toml", "", "line 3"),
        ("pages/contact.toml", "mood", "not a known field"),
        ("pages/contact.toml", "blocks[1].src", "files/song.mp3"),
        ("pages/contact.toml", "blocks[2].collection", "events collection"),
        ("pages/home.toml", "blocks[1].kind", "'carousel' is not a block kind"),
        ("pages/home.toml", "blocks[2].src", "images/missing.png"),
        ("pages/home.toml", "blocks[3].colour", "not a known field"),
        ("pages/home.toml", "blocks[4].collection", "no collection 'nope'"),
        ("pages/home.toml", "blocks[5].product", "shop/not-there"),
        ("pages/home.toml", "blocks[6].pricingOptions", "exactly two"),
        ("pages/home.toml", "blocks[7].id", "already used"),
        ("pages/home.toml", "blocks[8].slides[0].alt", "alternative text"),
        ("pages/home.toml", "blocks[9].formId", "already used"),
        ("pages/home.toml", "blocks[9].fields[1].id", "two fields"),
        ("pages/home.toml", "blocks[10].clickthroughUrl", "javascript:"),
        ("pages/home.toml", "url", "also used"),
        ("pages/locked.toml", "passwordHash", "required"),
        ("collections/blog/items/bad-date.toml", "publishedOn", "31/12/2024"),
        ("collections/events/items/no-event.toml", "event", "is required"),
        ("collections/shop/items/empty.toml", "product.variants", "at least one variant"),
        ("collections/shop/items/pricey.toml", "tags[0]", "1 to 50"),
        ("collections/shop/items/pricey.toml", "categories[0]", "1 to 25"),
        ("collections/shop/items/pricey.toml", "product.variants[0].price", "maximum"),
        ("collections/shop/items/pricey.toml", "product.variants[0].sku", "at most 60"),
    ];
    let missing: Vec<_> = expected.iter().filter(|(f, field, words)| !has(&problems, f, field, words)).collect();
    let all: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert!(missing.is_empty(), "not reported: {missing:?}\nreported:\n{}", all.join("\n"));
    assert_eq!(problems.len(), expected.len(), "unexpected problems:\n{}", all.join("\n"));
}

#[test]
fn rich_text_is_sanitised_when_the_site_is_loaded() {
    let blocks = r#"
[[blocks]]
kind = "text"
id = "aaaaaaaaaaaaaaaaaaaaaa02"
html = '''<p onmouseover="steal()">Hi <a href="javascript:alert(1)">x</a></p><script>alert(1)</script><img src="/x.png" onerror="alert(2)" alt="x"><svg><script>1</script></svg>'''

[[blocks]]
kind = "embed"
id = "aaaaaaaaaaaaaaaaaaaaaa03"
title = "Player"
html = '''<iframe src="https://player.example/1" onload="x()"></iframe><iframe src="javascript:alert(1)"></iframe>'''
"#;
    let post = "id = \"aaaaaaaaaaaaaaaaaaaaaa05\"\ntitle = \"Post\"\npublishedOn = \"2024-01-02\"\nbody = '<p>ok</p><script>bad()</script>'\n";
    let blog = "id = \"aaaaaaaaaaaaaaaaaaaaaa04\"\nurl = \"/blog\"\ntitle = \"Blog\"\nkind = \"blog\"\n";
    let dir =
        site_with(blocks, &[("collections/blog/collection.toml", blog), ("collections/blog/items/post.toml", post)]);
    let site = load(dir.path());
    let BlockData::Text(text) = &site.pages[0].blocks[0].data else { panic!("a text block") };
    for bad in ["script", "onmouseover", "onerror", "javascript:", "svg"] {
        assert!(!text.html.contains(bad), "{bad} left in {}", text.html);
    }
    assert!(text.html.contains("<p>Hi"), "{}", text.html);
    let BlockData::Embed(embed) = &site.pages[0].blocks[1].data else { panic!("an embed block") };
    assert!(embed.html.contains(r#"src="https://player.example/1""#), "{}", embed.html);
    assert!(!embed.html.contains("onload") && !embed.html.contains("javascript:"), "{}", embed.html);
    let Some(Resolved::Item(_, item)) = site.resolve("/blog/post") else { panic!("the post resolves") };
    assert_eq!(item.body_html, "<p>ok</p>");
}

#[test]
fn ids_must_be_24_lowercase_alphanumerics_and_unique_across_the_site() {
    let blocks = "[[blocks]]\nkind = \"text\"\nid = \"AAAAAAAAAAAAAAAAAAAAAA02\"\nhtml = \"x\"\n\n[[blocks]]\nkind = \"text\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa01\"\nhtml = \"y\"\n";
    let blog = "id = \"aaaaaaaaaaaaaaaaaaaaaa01\"\nurl = \"/blog\"\ntitle = \"Blog\"\nkind = \"blog\"\n";
    let dir = site_with(blocks, &[("collections/blog/collection.toml", blog)]);
    let problems = Site::load(dir.path()).expect_err("bad ids").0;
    assert!(has(&problems, "pages/home.toml", "blocks[0].id", "24 lowercase"), "{problems:?}");
    assert!(has(&problems, "pages/home.toml", "blocks[1].id", "already used by pages/home.toml id"), "{problems:?}");
    assert!(has(&problems, "collections/blog/collection.toml", "id", "already used"), "{problems:?}");
}

#[test]
fn a_missing_site_toml_is_reported() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let problems = Site::load(dir.path()).expect_err("no site.toml").0;
    assert!(problems.iter().any(|p| p.file == "site.toml" && p.message.contains("cannot be read")), "{problems:?}");
}

#[test]
fn gallery_click_behaviours_must_be_known() {
    let gallery = |fields: &str| {
        format!("[[blocks]]\nkind = \"gallery\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa02\"\ndesign = \"slideshow\"\n{fields}\n[[blocks.slides]]\nsrc = \"a.png\"\nalt = \"A\"\n")
    };
    let bad = site_with(
        &gallery("clickBehavior = \"spin\"\nactiveSlideClickBehavior = \"open\"\n"),
        &[("images/a.png", "x")],
    );
    let problems = Site::load(bad.path()).expect_err("unknown click behaviours").0;
    assert!(has(&problems, "pages/home.toml", "blocks[0].clickBehavior", "next, previous, side"), "{problems:?}");
    assert!(
        has(&problems, "pages/home.toml", "blocks[0].activeSlideClickBehavior", "next, previous, none"),
        "{problems:?}"
    );
    let good = site_with(
        &gallery("clickBehavior = \"side\"\nactiveSlideClickBehavior = \"none\"\n"),
        &[("images/a.png", "x")],
    );
    load(good.path());
}

#[test]
fn a_gallery_video_slide_needs_an_allowed_iframe_and_no_click_through() {
    let gallery = |slide: &str| {
        format!("[[blocks]]\nkind = \"gallery\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa02\"\ndesign = \"slideshow\"\n\n[[blocks.slides]]\nsrc = \"a.png\"\nalt = \"A\"\n{slide}\n")
    };
    let youtube =
        r#"videoHtml = '<iframe src="https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ" title="Film"></iframe>'"#;
    let good = site_with(&gallery(youtube), &[("images/a.png", "x")]);
    let site = load(good.path());
    let BlockData::Gallery(block) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    assert_eq!(block.slides[0].video_src.as_deref(), Some("https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ"));

    let elsewhere = r#"videoHtml = '<iframe src="https://videos.example/1"></iframe>'"#;
    let linked = format!("{youtube}\nclickThroughUrl = \"/menu\"");
    for (slide, words) in [(elsewhere, "not from an allowed embed provider"), (linked.as_str(), "clickThroughUrl")] {
        let bad = site_with(&gallery(slide), &[("images/a.png", "x")]);
        let problems = Site::load(bad.path()).expect_err("a bad video slide").0;
        assert!(has(&problems, "pages/home.toml", "blocks[0].slides[0].videoHtml", words), "{problems:?}");
    }
}

/// Loads `dir`, which must fail, and gives its problems.
fn problems_of(dir: &Path) -> Vec<SiteProblem> {
    match Site::load(dir) {
        Ok(_) => panic!("the site loaded"),
        Err(problems) => problems.0,
    }
}

/// `n` text blocks, ids counting up from `aaaa…b000`.
fn text_blocks(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!("[[blocks]]\nkind = \"text\"\nid = \"aaaaaaaaaaaaaaaaaaaab{i:03}\"\nhtml = \"<p>{i}</p>\"\n\n")
        })
        .collect()
}

#[test]
fn a_layout_holds_at_most_60_blocks() {
    // Spec 000 §9: blocks per layout 60.
    let at_limit = site_with(&text_blocks(60), &[]);
    assert_eq!(load(at_limit.path()).pages[0].blocks.len(), 60);
    let over = site_with(&text_blocks(61), &[]);
    let problems = problems_of(over.path());
    assert!(has(&problems, "pages/home.toml", "blocks", "has 61 blocks; a layout may have at most 60"), "{problems:?}");
}

#[test]
fn a_gallery_holds_at_most_50_slides() {
    // Spec 000 §9: gallery size 50.
    let gallery = |n: usize| {
        let slides: String =
            (0..n).map(|i| format!("[[blocks.slides]]\nsrc = \"porch.png\"\nalt = \"Slide {i}\"\n\n")).collect();
        format!("[[blocks]]\nkind = \"gallery\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa02\"\n\n{slides}")
    };
    let porch =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken-site/images/porch.png"))
            .expect("the fixture image");
    let with_image = |blocks: String| {
        let dir = site_with(&blocks, &[]);
        std::fs::create_dir_all(dir.path().join("images")).expect("images folder");
        std::fs::write(dir.path().join("images/porch.png"), &porch).expect("image");
        dir
    };
    let at_limit = with_image(gallery(50));
    let BlockData::Gallery(loaded) = &load(at_limit.path()).pages[0].blocks[0].data else { panic!("a gallery") };
    assert_eq!(loaded.slides.len(), 50);
    let over = with_image(gallery(51));
    let problems = problems_of(over.path());
    assert!(
        has(&problems, "pages/home.toml", "blocks[0].slides", "has 51 slides; a gallery may have at most 50"),
        "{problems:?}"
    );
}

#[test]
fn links_longer_than_the_spec_allows_are_refused_with_file_and_field() {
    // Spec 000 §5: an internal link is under 150 characters.
    let button = |url: &str| {
        format!("[[blocks]]\nkind = \"button\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa02\"\nbuttonText = \"Go\"\nclickthroughUrl = \"{url}\"\n")
    };
    let fine = site_with(&button(&format!("/{}", "a".repeat(148))), &[]);
    load(fine.path());
    let long = site_with(&button(&format!("/{}", "a".repeat(149))), &[]);
    let problems = problems_of(long.path());
    assert!(has(&problems, "pages/home.toml", "blocks[0].clickthroughUrl", "must be under 150"), "{problems:?}");
}
