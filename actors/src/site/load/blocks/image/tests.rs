//! An image block's sizing fields as `check-site` reads them (001 §3 Image).

use crate::site::blocks::BlockData;
use crate::site::Site;

/// A site whose home page holds one image block with `fields`.
fn site_with_image(fields: &str) -> tempfile::TempDir {
    super::super::test_site::site_with_block("image", &format!("src = \"a.png\"\nalt = \"A\"\n{fields}"))
}

#[test]
fn size_adjustment_dpr_bounds_size_format_and_srcset_are_set_from_a_site_file() {
    let dir = site_with_image(
        "sizeAdjustment = 0.5\ndprMin = 1\ndprMax = 2\nsizeFormat = \"filename\"\nsrcset = true\nshape = \"tall-oval\"",
    );
    let site = Site::load(dir.path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Image(image) = &site.pages[0].blocks[0].data else { panic!("an image block") };
    assert_eq!((image.size_adjustment, image.dpr_min, image.dpr_max), (Some(0.5), Some(1.0), Some(2.0)));
    assert_eq!(image.size_format.as_deref(), Some("filename"));
    assert!(image.srcset);
    assert_eq!(image.shape.as_deref(), Some("tall-oval"));
}

#[test]
fn image_sizing_fields_out_of_range_are_refused_with_file_and_field() {
    for (fields, field, words) in [
        ("sizeAdjustment = -1", "sizeAdjustment", "0 or more"),
        ("dprMin = 0", "dprMin", "above 0"),
        ("dprMax = -2", "dprMax", "above 0"),
        ("dprMin = 3\ndprMax = 2", "dprMin", "above dprMax"),
        ("sizeFormat = \"path\"", "sizeFormat", "queryString, filename"),
        (
            "shape = \"star\"",
            "shape",
            "circle, square, rounded, diamond, hexagon, tall-oval, tall-arch, wide-oval, wide-rounded",
        ),
    ] {
        let problems = Site::load(site_with_image(fields).path()).expect_err(fields).0;
        let at = format!("blocks[0].{field}");
        assert!(
            problems.iter().any(|p| p.file == "pages/home.toml" && p.field == at && p.message.contains(words)),
            "{fields}: {problems:?}"
        );
    }
}
