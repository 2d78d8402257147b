//! Site-file fields and limits taken from the spec's block data and content limits: each
//! one read from a site file into the block data the page carries, or refused with its
//! file and field.

mod support;

use support::{load, site_with};

use std::path::Path;

use serde_json::json;
use veranda_actors::site::{Site, SiteProblem};

fn problems_of(dir: &Path) -> Vec<SiteProblem> {
    match Site::load(dir) {
        Ok(_) => panic!("the site loaded"),
        Err(problems) => problems.0,
    }
}

fn has(problems: &[SiteProblem], file: &str, field: &str, words: &str) -> bool {
    problems.iter().any(|p| p.file == file && p.field == field && p.message.contains(words))
}

/// The JSON a page carries for the first block of the site's home page.
fn first_block_json(site: &Site) -> serde_json::Value {
    serde_json::to_value(&site.pages[0].blocks[0].data).expect("block data serialises")
}

const MAP: &str = "[[blocks]]\nkind = \"map\"\nid = \"aaaaaaaaaaaaaaaaaaaaaa02\"\n";

#[test]
fn a_map_takes_the_spec_display_options_from_the_site_file() {
    // 001 §3: display options include disableDefaultUI, markerDraggable, linkOnClick.
    let dir = site_with(&format!("{MAP}disableDefaultUI = true\nmarkerDraggable = true\nlinkOnClick = true\n"), &[]);
    let data = first_block_json(&load(dir.path()));
    assert_eq!(data["disableDefaultUI"], true);
    assert_eq!(data["markerDraggable"], true);
    assert_eq!(data["linkOnClick"], true);
}

#[test]
fn a_map_view_config_of_location_and_ui_reaches_the_block_data() {
    // 001 §3: "Map view config: location and ui {showControls, showTerrain, showLabels, style}".
    let blocks = format!(
        "{MAP}showLabels = true\n[blocks.location]\nmapLat = 51.5\nmapLng = -0.12\nmapZoom = 9\naddressTitle = \"Porch\"\n\
         [blocks.ui]\nshowControls = false\nshowTerrain = true\nshowLabels = false\nstyle = \"MinimalDark\"\n"
    );
    let dir = site_with(&blocks, &[]);
    let data = first_block_json(&load(dir.path()));
    assert_eq!(data["mapLat"], json!(51.5));
    assert_eq!(data["mapLng"], json!(-0.12));
    assert_eq!(data["mapZoom"], json!(9));
    assert_eq!(data["addressTitle"], "Porch");
    assert_eq!(data["showControls"], false);
    assert_eq!(data["showTerrain"], true);
    assert_eq!(data["style"], "MinimalDark");
    assert_eq!(data["showLabels"], true, "a flat field wins over the same field in the view config");
    assert!(data.get("location").is_none() && data.get("ui").is_none(), "the config is folded in: {data}");
}

#[test]
fn bad_values_in_a_map_view_config_are_refused_with_their_nested_field() {
    let problems_for = |body: &str| {
        let dir = site_with(&format!("{MAP}{body}"), &[]);
        problems_of(dir.path())
    };
    let file = "pages/home.toml";
    let p = problems_for("[blocks.ui]\nstyle = \"Sepia\"\n");
    assert!(has(&p, file, "blocks[0].ui.style", "'Sepia' must be one of"), "{p:?}");
    let p = problems_for("[blocks.location]\nmapLat = 91.0\nmarkerLng = 181.0\n");
    assert!(has(&p, file, "blocks[0].location.mapLat", "between -90 and 90"), "{p:?}");
    assert!(has(&p, file, "blocks[0].location.markerLng", "between -180 and 180"), "{p:?}");
    let p = problems_for("[blocks.ui]\nshowRoads = true\n");
    assert!(has(&p, file, "blocks[0].ui.showRoads", "not a known field"), "{p:?}");
    let p = problems_for("[blocks.ui]\nshowTerrain = \"yes\"\n");
    assert!(p.iter().any(|p| p.field == "blocks[0].ui.showTerrain"), "{p:?}");
    let p = problems_for("disableDefaultUI = \"yes\"\n");
    assert!(p.iter().any(|p| p.field == "blocks[0].disableDefaultUI"), "{p:?}");
}

#[test]
fn blocks_carry_the_spec_layout_variant_of_their_design() {
    // 001 §3 line 95: slideshow, carousel, grid, stack, summary wall/carousel/list/grid,
    // bar/line/pie chart, ... (ids 1000-1019), numbered in the order listed.
    let gallery = |n: usize, design: &str| {
        format!(
            "[[blocks]]\nkind = \"gallery\"\nid = \"aaaaaaaaaaaaaaaaaaaab{n:03}\"\ndesign = \"{design}\"\n\n\
             [[blocks.slides]]\nsrc = \"a.png\"\nalt = \"A\"\n\n"
        )
    };
    let summary = |n: usize, design: &str| {
        format!("[[blocks]]\nkind = \"summary\"\nid = \"aaaaaaaaaaaaaaaaaaaab{n:03}\"\ncollection = \"blog\"\ndesign = \"{design}\"\n\n")
    };
    let chart = |n: usize, chart_type: &str| {
        format!(
            "[[blocks]]\nkind = \"chart\"\nid = \"aaaaaaaaaaaaaaaaaaaab{n:03}\"\nchartType = \"{chart_type}\"\ntitle = \"T\"\n\
             labels = [\"a\"]\n\n[[blocks.series]]\nname = \"s\"\nvalues = [1.0]\n\n"
        )
    };
    let expected: [(String, Option<u64>); 12] = [
        (gallery(0, "slideshow"), Some(1000)),
        (gallery(1, "carousel"), Some(1001)),
        (gallery(2, "grid"), Some(1002)),
        (gallery(3, "stacked"), Some(1003)),
        (gallery(4, "slider"), None),
        (summary(5, "wall"), Some(1004)),
        (summary(6, "carousel"), Some(1005)),
        (summary(7, "list"), Some(1006)),
        (summary(8, "grid"), Some(1007)),
        (chart(9, "bar"), Some(1008)),
        (chart(10, "line"), Some(1009)),
        (chart(11, "pie"), Some(1010)),
    ];
    let blocks: String = expected.iter().map(|(toml, _)| toml.as_str()).collect();
    let blog = "id = \"aaaaaaaaaaaaaaaaaaaaaa04\"\nurl = \"/blog\"\ntitle = \"Blog\"\nkind = \"blog\"\n";
    let dir = site_with(&blocks, &[("images/a.png", "x"), ("collections/blog/collection.toml", blog)]);
    let site = load(dir.path());
    for (block, (toml, id)) in site.pages[0].blocks.iter().zip(&expected) {
        let data = serde_json::to_value(&block.data).expect("block data serialises");
        assert_eq!(data.get("layoutVariant").and_then(|v| v.as_u64()), *id, "{toml}");
    }
}

/// A site whose `gallery` collection holds `n` items, item `i` with the categories `categories(i)`.
fn gallery_collection(n: usize, categories: impl Fn(usize) -> Vec<String>) -> tempfile::TempDir {
    let collection = "id = \"aaaaaaaaaaaaaaaaaaaaaa04\"\nurl = \"/photos\"\ntitle = \"Photos\"\nkind = \"gallery\"\n";
    let items: Vec<(String, String)> = (0..n)
        .map(|i| {
            let list: Vec<String> = categories(i).iter().map(|c| format!("\"{c}\"")).collect();
            let text = format!(
                "id = \"aaaaaaaaaaaaaaaaaa{i:06}\"\ntitle = \"Photo {i}\"\ncategories = [{}]\n",
                list.join(", ")
            );
            (format!("collections/gallery/items/p{i:06}.toml"), text)
        })
        .collect();
    let mut extra: Vec<(&str, &str)> = vec![("collections/gallery/collection.toml", collection)];
    extra.extend(items.iter().map(|(path, text)| (path.as_str(), text.as_str())));
    site_with("", &extra)
}

#[test]
fn a_collection_in_its_owners_order_holds_at_most_250_items() {
    // 000 §9: "items in a user-orderable collection 250".
    load(gallery_collection(250, |_| Vec::new()).path());
    let problems = problems_of(gallery_collection(251, |_| Vec::new()).path());
    assert!(has(&problems, "collections/gallery/items", "", "at most 250"), "{problems:?}");
}

#[test]
fn a_collection_holds_at_most_10000_categories() {
    // 000 §9: "nested categories 10000".
    let spread = |total: usize| move |i: usize| (0..total).filter(|c| c % 100 == i).map(|c| format!("c{c}")).collect();
    load(gallery_collection(100, spread(10_000)).path());
    let problems = problems_of(gallery_collection(100, spread(10_001)).path());
    assert!(has(&problems, "collections/gallery/items", "", "at most 10000"), "{problems:?}");
}

/// A site with a blog (`collection.toml` given `extra` lines) holding one post, `porch-season.toml`.
fn blog_with(extra: &str) -> tempfile::TempDir {
    let blog =
        format!("id = \"aaaaaaaaaaaaaaaaaaaaaa04\"\nurl = \"/blog\"\ntitle = \"Blog\"\nkind = \"blog\"\n{extra}");
    let post = "id = \"aaaaaaaaaaaaaaaaaaaaaa05\"\ntitle = \"Porch season\"\npublishedOn = \"2024-05-31\"\n";
    site_with("", &[("collections/blog/collection.toml", &blog), ("collections/blog/items/porch-season.toml", post)])
}

#[test]
fn blog_posts_follow_the_blogs_url_pattern() {
    // 000 §5 tokens: %y, %m, %d and %t (year, month, day, the post's slug).
    let dir = blog_with("urlPattern = \"%y/%m/%d/%t\"\n");
    let site = load(dir.path());
    let blog = &site.collections[0];
    assert_eq!(blog.item_url(&blog.items[0]), "/blog/2024/05/31/porch-season");
    assert!(matches!(site.resolve("/blog/2024/05/31/porch-season"), Some(veranda_actors::site::Resolved::Item(..))));
    assert!(site.resolve("/blog/porch-season").is_none(), "the post moved to its pattern's path");

    let plain = blog_with("");
    let site = load(plain.path());
    assert_eq!(site.collections[0].item_url(&site.collections[0].items[0]), "/blog/porch-season");
}

#[test]
fn a_blog_url_pattern_must_be_in_its_tokenized_form_and_name_the_post() {
    let file = "collections/blog/collection.toml";
    let p = problems_of(blog_with("urlPattern = \"Posts/%Y//%t%\"\n").path());
    assert!(has(&p, file, "urlPattern", "would read as 'posts/%y/%t'"), "{p:?}");
    let p = problems_of(blog_with("urlPattern = \"%y/%m\"\n").path());
    assert!(has(&p, file, "urlPattern", "must contain %t"), "{p:?}");
    let events = "id = \"aaaaaaaaaaaaaaaaaaaaaa06\"\nurl = \"/events\"\ntitle = \"Events\"\nkind = \"events\"\nurlPattern = \"%t\"\n";
    let p = problems_of(site_with("", &[("collections/events/collection.toml", events)]).path());
    assert!(has(&p, "collections/events/collection.toml", "urlPattern", "only a blog"), "{p:?}");
}
