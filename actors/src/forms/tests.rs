//! Unit tests of the forms domain.

use serde_json::json;

use super::definition::NEWSLETTER_EMAIL_FIELD;
use super::export::{escape, to_csv};
use super::messages;
use super::record::{self, StoredSubmission};
use super::*;
use crate::site::blocks::{FieldKind, FormField};
use crate::site::Site;

fn field(id: &str, kind: FieldKind) -> FormField {
    FormField {
        id: id.into(),
        kind,
        title: String::new(),
        description: String::new(),
        placeholder: String::new(),
        required: false,
        options: Vec::new(),
        max_length: None,
        currency_symbol: None,
        show_country_code: false,
        underline: false,
        key: None,
        value: None,
    }
}

fn demo_forms() -> FormIndex {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo");
    FormIndex::of_site(&Site::load(dir).expect("the demo site loads"))
}

fn contact() -> FormDefinition {
    demo_forms().get("contact").expect("the demo has a contact form").clone()
}

/// A complete, valid contact form submission.
fn contact_values() -> serde_json::Value {
    json!({
        "name": ["Ada", "Lovelace"],
        "email": "ada@example.com",
        "phone": ["555", "014", "2000"],
        "address": {"Line1": "12 Linden Street", "City": "Riverton", "State": "NY", "Zip": "10001", "Country": "United States"},
        "website": "https://ada.example",
        "twitter": "@ada",
        "subject": "Porch party",
        "message": "Could we book the porch?",
        "guests": 12,
        "budget": "25.50",
        "date": ["06", "21", "2025"],
        "time": ["7", "30", "", "PM"],
        "occasion": ["Birthday", "Work gathering"],
        "extras": ["Cake", "Live music"],
        "heard-from": "A friend",
        "visit": {"The coffee": "2", "The food": 1},
        "booking-code": "PORCH-7",
        "about-you": "ignored",
        "not-a-field": "dropped"
    })
}

#[test]
fn every_field_kind_yields_the_value_spec_3_gives_it() {
    let values = read_form(&contact(), &contact_values()).expect("the submission is valid");
    let text = |s: &str| FieldValue::Text(s.into());
    let list = |items: &[&str]| FieldValue::List(items.iter().map(|s| s.to_string()).collect());
    assert_eq!(values["name"], list(&["Ada", "Lovelace"]));
    assert_eq!(values["phone"], list(&["", "555", "014", "2000"]), "3 parts get a blank country first");
    assert_eq!(values["address"], list(&["12 Linden Street", "", "Riverton", "NY", "10001", "United States"]));
    assert_eq!(values["date"], list(&["06", "21", "2025"]));
    assert_eq!(values["time"], list(&["7", "30", "", "PM"]));
    assert_eq!(values["occasion"], text("Birthday"), "radio keeps the first checked value");
    assert_eq!(values["extras"], list(&["Cake", "Live music"]));
    assert_eq!(values["heard-from"], text("A friend"));
    // Spec 000 §3: "likert: map from question to checked answers".
    let likert = FieldValue::Map(
        [("The coffee".to_string(), vec!["2".to_string()]), ("The food".into(), vec!["1".to_string()])].into(),
    );
    assert_eq!(values["visit"], likert);
    assert_eq!(serde_json::to_value(&values["visit"]).expect("json"), json!({"The coffee": ["2"], "The food": ["1"]}));
    assert_eq!(values["guests"], text("12"));
    assert_eq!(values["source"], text("contact-page"), "hidden falls back to its default");
    assert!(!values.contains_key("about-you"), "sections are skipped");
    assert!(!values.contains_key("not-a-field"));
}

#[test]
fn a_hidden_field_keeps_what_the_page_sent_and_form_may_be_a_json_string() {
    let mut sent = contact_values();
    sent["source"] = json!("newsletter-april");
    let values = read_form(&contact(), &json!(sent.to_string())).expect("valid");
    assert_eq!(values["source"], FieldValue::Text("newsletter-april".into()));
}

#[test]
fn wrong_shapes_and_unknown_choices_are_unparseable() {
    for (id, bad) in [
        ("name", json!(["only one"])),
        ("phone", json!(["1", "2"])),
        ("extras", json!(["Fireworks"])),
        ("occasion", json!("Wedding")),
        ("visit", json!({"The weather": "1"})),
        ("visit", json!({"The coffee": "5"})),
        ("subject", json!({"nested": true})),
        ("address", json!({"Planet": "Mars"})),
    ] {
        let mut sent = contact_values();
        sent[id] = bad.clone();
        assert_eq!(read_form(&contact(), &sent), Err(FormError::Unparseable), "{id} = {bad}");
    }
    assert_eq!(read_form(&contact(), &json!("{not json")), Err(FormError::Unparseable));
    assert_eq!(read_form(&contact(), &json!([1, 2])), Err(FormError::Unparseable));
    assert_eq!(read_form(&contact(), &json!(null)), Err(FormError::Unparseable));
}

fn errors_of(definition: &FormDefinition, sent: serde_json::Value) -> FieldErrors {
    match read_form(definition, &sent) {
        Err(FormError::Invalid(errors)) => errors,
        other => panic!("expected field errors, got {other:?}"),
    }
}

#[test]
fn email_must_follow_the_simple_pattern() {
    for good in ["a@b.co", "first.last+tag@mail.example.info", "x@sub.domain.org1"] {
        assert!(validate::is_email(good), "{good}");
    }
    let long_local = format!("{}@example.com", "a".repeat(250));
    for bad in [
        "",
        "a@",
        "@b.co",
        "a@b",
        "a@b.c",
        "a@b.toolong",
        "a b@c.de",
        "a@b..com",
        "a@@b.com",
        "a@b.c-m",
        long_local.as_str(),
    ] {
        assert!(!validate::is_email(bad), "{bad:?} must be refused");
    }
    let mut sent = contact_values();
    sent["email"] = json!("not-an-address");
    let errors = errors_of(&contact(), sent);
    assert_eq!(errors["email"], "Email is not valid. Email addresses should follow the format name@example.com.");
    assert_eq!(messages::EMAIL_INVALID, "Email is not valid. Email addresses should follow the format {email}.");
}

#[test]
fn an_optional_empty_email_is_valid() {
    let mut form = contact();
    form.fields.iter_mut().filter(|f| f.id == "email").for_each(|f| f.required = false);
    let mut sent = contact_values();
    sent["email"] = json!("");
    assert!(read_form(&form, &sent).is_ok());
}

#[test]
fn a_textarea_over_its_maximum_exceeds_the_character_limit() {
    let mut sent = contact_values();
    sent["message"] = json!("é".repeat(501));
    assert_eq!(errors_of(&contact(), sent.clone())["message"], "You have exceeded the character limit.");
    sent["message"] = json!("é".repeat(500));
    assert!(read_form(&contact(), &sent).is_ok(), "exactly the maximum is fine");
    for no_limit in [Some(0), Some(-3), None] {
        let mut form = contact();
        form.fields.iter_mut().filter(|f| f.id == "message").for_each(|f| f.max_length = no_limit);
        sent["message"] = json!("x".repeat(5000));
        assert!(read_form(&form, &sent).is_ok(), "{no_limit:?} means no limit");
    }
}

#[test]
fn a_us_address_needs_a_five_digit_zip() {
    for (zip, country, ok) in [
        ("1234", "United States", false),
        ("123456", "US", false),
        ("1234a", "us", false),
        ("10001", "US", true),
        ("SW1A 1AA", "United Kingdom", true),
    ] {
        let mut sent = contact_values();
        sent["address"] = json!(["1 Main St", "", "Town", "ST", zip, country]);
        let result = read_form(&contact(), &sent);
        if ok {
            assert!(result.is_ok(), "{zip} in {country}");
        } else {
            assert_eq!(errors_of(&contact(), sent)["address"], messages::US_ZIP_INVALID, "{zip} in {country}");
        }
    }
}

#[test]
fn required_fields_name_their_title() {
    let mut sent = contact_values();
    sent["subject"] = json!("   ");
    sent["name"] = json!(["Ada", ""]);
    sent.as_object_mut().map(|m| m.remove("message"));
    let errors = errors_of(&contact(), sent);
    assert_eq!(errors["subject"], "Subject is required.");
    assert_eq!(errors["name"], "Your name is required.");
    assert_eq!(errors["message"], "Message is required.");
    assert_eq!(errors.len(), 3);
    let mut likert = field("mood", FieldKind::Likert);
    likert.required = true;
    likert.options = vec!["Q1".into(), "Q2".into()];
    let mut checkbox = field("opts", FieldKind::Checkbox);
    checkbox.required = true;
    checkbox.options = vec!["A".into()];
    let form = FormDefinition { fields: vec![likert, checkbox], ..contact() };
    let errors = errors_of(&form, json!({"mood": {"Q1": "0"}}));
    assert_eq!(errors["mood"], "mood is required.", "a field without a title is named by its id");
    assert_eq!(errors["opts"], "opts is required.");
}

#[test]
fn the_demo_newsletter_is_a_one_email_form_for_its_list() {
    let index = demo_forms();
    let newsletter = index.get("newsletter").expect("the demo has a newsletter");
    assert_eq!(newsletter.destination, Destination::MailingList("porch-letters".into()));
    assert_eq!(errors_of(newsletter, json!({}))[NEWSLETTER_EMAIL_FIELD], "Email Address is required.");
    assert!(read_form(newsletter, &json!({"email": "Reader@Example.com"})).is_ok());
    assert!(index.get("nope").is_none());
    assert_eq!(record::mailing_list_key("porch-letters", " Reader@Example.COM "), "porch-letters\0reader@example.com");
}

#[test]
fn submission_keys_expire_after_an_hour_and_must_look_issued() {
    assert!(record::key_is_fresh(1000, 1000));
    assert!(record::key_is_fresh(1000, 1000 + 3599));
    assert!(!record::key_is_fresh(1000, 1000 + 3600));
    assert!(!record::key_is_fresh(1000, 999));
    assert_eq!(record::key_record_key("abc_-9").as_deref(), Some("key:abc_-9"));
    for bad in ["", "a:b", "a\0b", &"k".repeat(65)] {
        assert_eq!(record::key_record_key(bad), None, "{bad:?}");
    }
}

#[test]
fn stored_submissions_list_newest_first_in_key_order() {
    let older = record::submission_key("contact", 1_000, "a");
    let newer = record::submission_key("contact", 2_000, "b");
    assert!(newer < older);
    assert!(older.starts_with(&record::submissions_prefix("contact")));
    assert!(!older.starts_with(&record::submissions_prefix("contac")));
}

#[test]
fn csv_cells_are_quoted_and_defused() {
    assert_eq!(escape("plain"), "plain");
    assert_eq!(escape("a,b"), "\"a,b\"");
    assert_eq!(escape("say \"hi\""), "\"say \"\"hi\"\"\"");
    assert_eq!(escape("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    for risky in ["+1", "-1", "@SUM(A1)", "\tx"] {
        assert!(escape(risky).trim_start_matches('"').starts_with('\''), "{risky:?}");
    }
    let values = read_form(&contact(), &contact_values()).expect("valid");
    let row = StoredSubmission {
        id: "s1".into(),
        form_id: "contact".into(),
        submitted_at: 0,
        values,
        collection_id: None,
        object_name: None,
        is_overlay_form: false,
        submit_button_text: None,
        page: PageFields::default(),
    };
    let csv = to_csv(["subject", "name", "extras", "visit"], &[row]);
    assert_eq!(
        csv,
        "submittedAt,subject,name,extras,visit\r\n1970-01-01T00:00:00Z,Porch party,\"Ada, Lovelace\",\"Cake, Live music\",The coffee: 2; The food: 1\r\n"
    );
}

#[test]
fn likert_answers_are_each_question_s_list_of_checked_answers() {
    let mut sent = contact_values();
    sent["visit"] = json!({ "The coffee": ["2"], "The food": [] });
    let values = read_form(&contact(), &sent).expect("valid");
    assert_eq!(serde_json::to_value(&values["visit"]).expect("json"), json!({ "The coffee": ["2"] }));
    sent["visit"] = json!({ "The coffee": ["2", "7"] });
    assert!(read_form(&contact(), &sent).is_err(), "every checked answer is on the scale");
    // A record kept when an answer was stored as text reads back as a list of it.
    let stored: FieldValue = serde_json::from_value(json!({ "The coffee": "2" })).expect("a stored likert value");
    assert_eq!(stored, FieldValue::Map([("The coffee".to_string(), vec!["2".to_string()])].into()));
}
