//! Form submissions: the save call's JSON body and a plain HTML form post, read against
//! the demo site's forms (the contact form has every field kind; the newsletter one
//! email field).
//!
//! Input: a mode byte. Even: the rest is the JSON body of the save call; its `form` is
//! read against the form named by `formId`, or else against each demo form. Odd: the
//! rest is `name=value` pairs separated by `&` (a plain post), turned into `form` values.
//! Properties: nothing panics; accepted values, written back as the `form` object,
//! read back to the same values.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use veranda_actors::forms::plain::values_from_pairs;
use veranda_actors::forms::{read_form, FormDefinition, FormError, SavePayload, Values};
use veranda_actors::site::{BlockData, Site};

/// Every form and newsletter sign-up of the demo site.
fn forms() -> &'static [FormDefinition] {
    static FORMS: OnceLock<Vec<FormDefinition>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let site = Site::load(veranda_fuzz::demo_site_dir()).expect("the demo site loads");
        let blocks = site
            .pages
            .iter()
            .flat_map(|p| p.blocks.iter())
            .chain(site.collections.iter().flat_map(|c| c.items.iter()).flat_map(|i| i.blocks.iter()));
        let forms: Vec<FormDefinition> = blocks
            .filter_map(|b| match &b.data {
                BlockData::Form(form) => Some(FormDefinition::of_form(form)),
                BlockData::Newsletter(newsletter) => Some(FormDefinition::of_newsletter(newsletter)),
                _ => None,
            })
            .collect();
        assert!(!forms.is_empty(), "the demo site has forms");
        forms
    })
}

/// Reads `form` against `definition`; accepted values must read back unchanged.
fn check(definition: &FormDefinition, form: &Value) {
    match read_form(definition, form) {
        Ok(values) => {
            let written = serde_json::to_value(&values).expect("values serialise");
            let again: Result<Values, FormError> = read_form(definition, &written);
            assert_eq!(again.as_ref(), Ok(&values), "{} values do not read back: {written}", definition.form_id);
            let as_text = Value::String(written.to_string());
            assert_eq!(read_form(definition, &as_text).as_ref(), Ok(&values), "the string form differs");
        }
        Err(FormError::Invalid(errors)) => assert!(!errors.is_empty()),
        Err(FormError::Unparseable) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let forms = forms();
    if mode % 2 == 0 {
        let Ok(payload) = serde_json::from_slice::<SavePayload>(rest) else { return };
        assert!(!payload.form_id.trim().is_empty(), "formId is required");
        match forms.iter().find(|f| f.form_id == payload.form_id) {
            Some(definition) => check(definition, &payload.form),
            None => forms.iter().for_each(|definition| check(definition, &payload.form)),
        }
    } else {
        let Ok(text) = std::str::from_utf8(rest) else { return };
        let pairs: Vec<(String, String)> = text
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (pair.to_string(), String::new()),
            })
            .collect();
        for definition in forms {
            check(definition, &values_from_pairs(definition, &pairs));
        }
    }
});
