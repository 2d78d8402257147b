//! A site file's form block as `check-site` reads it.

use crate::site::blocks::BlockData;
use crate::site::Site;

/// A site whose home page holds one form with `fields` and one text field.
fn site_with_form(fields: &str) -> tempfile::TempDir {
    super::test_site::site_with_block(
        "form",
        &format!("formId = \"f\"\n{fields}\n[[blocks.fields]]\nid = \"name\"\ntype = \"name\"\ntitle = \"Name\""),
    )
}

fn form_of(fields: &str) -> crate::site::blocks::FormBlock {
    let site = Site::load(site_with_form(fields).path()).unwrap_or_else(|problems| panic!("{problems}"));
    let BlockData::Form(form) = &site.pages[0].blocks[0].data else { panic!("a form block") };
    form.clone()
}

fn validate_of(fields: &str) -> bool {
    form_of(fields).validate
}

#[test]
fn a_form_is_checked_whole_in_the_browser_unless_its_site_file_switches_it_off() {
    // 000 §5: "Whole form: … The check can be switched off by the caller."
    assert!(validate_of(""), "on when not given");
    assert!(validate_of("validate = true"));
    assert!(!validate_of("validate = false"));
    let json = serde_json::to_value(form_of("validate = false")).expect("a form serialises");
    assert_eq!(json["validate"], serde_json::json!(false), "the island reads `validate` from the block's data");
}
