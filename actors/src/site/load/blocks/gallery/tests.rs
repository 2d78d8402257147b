//! A site file's gallery block data as `check-site` reads it (001 §3 "Gallery block data").

use crate::domain::enums::GalleryDesign;
use crate::site::blocks::BlockData;
use crate::site::Site;

/// A site whose home page holds one gallery with `fields` and one slide.
fn site_with_gallery(fields: &str) -> tempfile::TempDir {
    super::super::test_site::site_with_block(
        "gallery",
        &format!("{fields}\n[[blocks.slides]]\nsrc = \"a.png\"\nalt = \"A\""),
    )
}

#[test]
fn every_field_of_the_spec_gallery_block_data_is_accepted() {
    let dir = site_with_gallery(
        "design = \"slideshow\"\nimageAspectRatio = \"1.5\"\nmixedContent = false\nlistImageSize = 40\n\
         square-thumbs = false\nauto-crop = true\nthumbnails = true\nthumbnail-strip-height = 80\n\
         thumbnail-strip-margin = 12\nthumbnails-per-row = 4\nactive-alignment = \"left\"\npadding = 10\nvSize = 5\n\
         meta-position = \"bottom\"\nautoplay = true\nautoplay-duration = 3\nslidesPerRow = 2\ncolumnWidth = 200\n\
         gutter = 4\nlightbox = true\nlightboxTheme = \"light\"\nautoplay-randomize = true",
    );
    let site = Site::load(dir.path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    assert!(!gallery.mixed_content && !gallery.square_thumbs && gallery.auto_crop && gallery.autoplay_randomize);
    assert_eq!(gallery.list_image_size, Some(40));
    assert_eq!((gallery.thumbnail_strip_height, gallery.thumbnail_strip_margin), (Some(80), Some(12)));
}

#[test]
fn a_gallery_without_a_design_is_the_spec_default_base_design() {
    let site = Site::load(site_with_gallery("").path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    // 001 §9: "default base"; the block design that maps to base is "stacked".
    assert_eq!(serde_json::to_value(gallery.design).expect("a design"), serde_json::json!("stacked"));
    assert_eq!(gallery.design, GalleryDesign::Stacked);
    assert!(gallery.mixed_content && gallery.square_thumbs && !gallery.auto_crop && !gallery.autoplay_randomize);
}

#[test]
fn gallery_sizes_out_of_their_range_are_refused_with_file_and_field() {
    for (fields, field, words) in [
        ("imageAspectRatio = \"wide\"", "imageAspectRatio", "'Auto' or a positive ratio"),
        ("imageAspectRatio = \"-2\"", "imageAspectRatio", "'Auto' or a positive ratio"),
        ("listImageSize = 0", "listImageSize", "from 1 to 100"),
        ("listImageSize = 101", "listImageSize", "from 1 to 100"),
        ("thumbnail-strip-height = 0", "thumbnail-strip-height", "at least 1"),
    ] {
        let problems = Site::load(site_with_gallery(fields).path()).expect_err(fields).0;
        let at = format!("blocks[0].{field}");
        assert!(
            problems.iter().any(|p| p.file == "pages/home.toml" && p.field == at && p.message.contains(words)),
            "{fields}: {problems:?}"
        );
    }
}

#[test]
fn a_column_width_given_as_a_string_is_read_as_a_whole_number() {
    let site = Site::load(site_with_gallery("design = \"autocolumns\"\ncolumnWidth = \"300\"").path())
        .unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    assert_eq!(gallery.column_width, Some(300));
    let problems = Site::load(site_with_gallery("columnWidth = \"wide\"").path()).expect_err("not a number").0;
    assert!(
        problems.iter().any(|p| p.field.ends_with("columnWidth") || p.message.contains("columnWidth")),
        "{problems:?}"
    );
}

#[test]
fn an_auto_columns_gallery_rounds_down_unless_its_behavior_is_max() {
    // 001 §9: "autocolumns/autogrid columnWidth 250, gutter 0, behaviour min (floor) else ceil".
    let dir = site_with_gallery("design = \"autocolumns\"\nbehavior = \"max\"");
    let site = Site::load(dir.path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    assert_eq!(gallery.behavior.as_deref(), Some("max"));
    let plain = Site::load(site_with_gallery("design = \"autogrid\"").path()).unwrap_or_else(|p| panic!("{p}"));
    let BlockData::Gallery(gallery) = &plain.pages[0].blocks[0].data else { panic!("a gallery block") };
    assert_eq!(gallery.behavior, None, "min, the client's default, when not given");
    let problems = Site::load(site_with_gallery("behavior = \"widest\"").path()).expect_err("refused").0;
    assert!(
        problems
            .iter()
            .any(|p| p.field == "blocks[0].behavior" && p.message.contains("'widest' must be one of min, max")),
        "{problems:?}"
    );
}

#[test]
fn new_swipe_boundaries_and_snap_points_are_read_and_travel_to_the_page() {
    // 001 §5: "newSwipe boundaries each none, hard or inertial; snapPoints end with % or be none".
    use crate::site::blocks::{SnapPoints, SwipeBoundaries, SwipeBoundary};
    let fields = "transition = \"newSwipe\"\nboundaries = { start = \"hard\", end = \"inertial\" }\n\
                  snapPoints = [\"0%\", \"50%\"]";
    let site = Site::load(site_with_gallery(fields).path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    let start_end = SwipeBoundaries { start: SwipeBoundary::Hard, end: SwipeBoundary::Inertial };
    assert_eq!(gallery.boundaries, Some(start_end));
    assert_eq!(gallery.snap_points, Some(SnapPoints::At(vec!["0%".into(), "50%".into()])));
    let json = serde_json::to_value(gallery).expect("block json");
    assert_eq!(json["boundaries"], serde_json::json!({ "start": "hard", "end": "inertial" }));
    assert_eq!(json["snapPoints"], serde_json::json!(["0%", "50%"]));

    let plain = "boundaries = { end = \"none\" }\nsnapPoints = \"none\"";
    let site = Site::load(site_with_gallery(plain).path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    let none = SwipeBoundaries { start: SwipeBoundary::Wrap, end: SwipeBoundary::Wrap };
    assert_eq!(gallery.boundaries, Some(none), "an end not given has no boundary");
    assert_eq!(serde_json::to_value(gallery).expect("block json")["boundaries"]["start"], "none");
    assert_eq!(gallery.snap_points, Some(SnapPoints::Named("none".into())));
}

#[test]
fn a_gallery_without_swipe_options_has_none() {
    let site = Site::load(site_with_gallery("").path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Gallery(gallery) = &site.pages[0].blocks[0].data else { panic!("a gallery block") };
    assert_eq!((gallery.boundaries, &gallery.snap_points), (None, &None));
    let json = serde_json::to_value(gallery).expect("block json");
    assert!(json.get("boundaries").is_none_or(|v| v.is_null()) && json.get("snapPoints").is_none_or(|v| v.is_null()));
}

#[test]
fn bad_new_swipe_boundaries_and_snap_points_are_refused_with_file_and_field() {
    for (fields, field, words) in [
        ("boundaries = { start = \"soft\" }", "blocks[0].boundaries.start", "'soft'"),
        ("boundaries = { end = \"bouncy\" }", "blocks[0].boundaries.end", "'bouncy'"),
        ("boundaries = { middle = \"hard\" }", "blocks[0].boundaries.middle", "not a known field"),
        ("boundaries = \"hard\"", "blocks[0].boundaries", "table"),
        ("snapPoints = \"half\"", "blocks[0].snapPoints", "'half' must be none or a list of percentages"),
        ("snapPoints = [\"0%\", \"50\"]", "blocks[0].snapPoints[1]", "'50' must be a percentage from 0% to 100%"),
        ("snapPoints = [\"150%\"]", "blocks[0].snapPoints[0]", "'150%' must be a percentage"),
        ("snapPoints = [\"-10%\"]", "blocks[0].snapPoints[0]", "'-10%' must be a percentage"),
        ("snapPoints = [\"x%\"]", "blocks[0].snapPoints[0]", "'x%' must be a percentage"),
        ("snapPoints = 50", "blocks[0].snapPoints", "must be none or a list of percentages"),
    ] {
        let problems = Site::load(site_with_gallery(fields).path()).expect_err(fields).0;
        assert!(
            problems.iter().any(|p| p.file == "pages/home.toml" && p.field == field && p.message.contains(words)),
            "{fields}: {problems:?}"
        );
    }
}
