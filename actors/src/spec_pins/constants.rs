//! Timings, limits, cookie names and messages of 000 and 001 that live in this crate.

use super::{constant, named_list, number, string, text};
use crate::accounts::EMAIL_LENGTH;
use crate::commerce::money::{Currency, FORMAT_EXPECTS_MONEY, MAX_INTEGER_PLACES};
use crate::commerce::rules::MAX_DONATION_CENTS;
use crate::forms::{messages, value};
use crate::site::blocks::FieldKind;
use crate::site::blocks::{MapBlock, GALLERY_CLICK_BEHAVIORS, INVALID_VIDEO_EMBED, MAP_STYLES, VIDEO_MODES};
use crate::site::load::rules;
use crate::site::settings::SUPPORTED_CURRENCIES;
use crate::telemetry::{cookie, errors::MAX_STACK_CHARS, session_ids, traces::TRACE_FLUSH_INTERVAL};
use serde_json::json;

const DAY_SECS: f64 = 86_400.0;

#[test]
fn analytics_cookies_carry_the_spec_names_and_lifetimes() {
    assert_eq!(cookie::VISITOR_COOKIE, text("cookies.visitor"));
    assert_eq!(cookie::VISIT_TIMESTAMP_COOKIE, text("cookies.visitTimestamp"));
    assert_eq!(cookie::CONSENT_COOKIE, text("cookies.consent"));
    assert_eq!(session_ids::SESSION_ID_COOKIE, text("cookies.sessionId"));
    assert_eq!(session_ids::ANALYTICS_ID_COOKIE, text("cookies.analyticsId"));
    // "2 years" read as two 365-day years.
    assert_eq!(cookie::VISITOR_COOKIE_MAX_AGE_SECS as f64, number("cookies.visitorMaxAgeYears") * 365.0 * DAY_SECS);
    assert_eq!(cookie::VISIT_TIMESTAMP_MAX_AGE_SECS as f64, number("cookies.visitTimestampMaxAgeMinutes") * 60.0);
    assert_eq!(cookie::VISIT_LENGTH_MS as f64, number("cookies.visitTimestampMaxAgeMinutes") * 60_000.0);
    assert_eq!(session_ids::ANALYTICS_ID_MAX_AGE_SECS as f64, number("cookies.analyticsIdMaxAgeDays") * DAY_SECS);
}

#[test]
fn error_reports_and_traces_keep_the_spec_limits() {
    assert_eq!(MAX_STACK_CHARS as f64, number("errorReports.maxStackChars"));
    assert_eq!(TRACE_FLUSH_INTERVAL.as_secs_f64(), number("trace.flushSeconds"));
    assert_eq!(TRACE_FLUSH_INTERVAL.as_secs_f64(), number("log.flushSeconds"));
}

#[test]
fn products_emails_and_tags_keep_the_spec_limits() {
    assert_eq!(rules::MAX_PRICE_CENTS as f64, number("product.maxPriceCents"));
    assert_eq!(MAX_DONATION_CENTS as f64, number("product.maxPriceCents"), "a donation is held to the price limit");
    assert_eq!(rules::MAX_SKU_LEN as f64, number("product.maxSkuLength"));
    assert_eq!(rules::MAX_PRODUCTS_PER_COLLECTION as f64, number("limits.productsPerCollection"));
    assert_eq!(rules::MAX_TAG_LEN as f64, number("tags.maxTagLength"));
    assert_eq!(rules::MAX_CATEGORY_LEN as f64, number("tags.maxCategoryLength"));
    assert_eq!(*EMAIL_LENGTH.start() as f64, number("validation.emailMinLength"));
    assert_eq!(*EMAIL_LENGTH.end() as f64, number("validation.emailMaxLength"));

    let sku = rules::generated_sku("5f2a9c0e4b1d7a3c8e6f0b12", 3);
    let prefix = text("product.generatedSkuPrefix");
    assert!(sku.starts_with(prefix), "{sku}");
    assert_eq!((sku.len() - prefix.len()) as f64, number("product.generatedSkuDigits"), "{sku}");

    let id_length = number("routes.panelLinkIdLength") as usize;
    assert_eq!(rules::id_problem(&"a1".repeat(id_length / 2)), None);
    assert!(rules::id_problem(&"a".repeat(id_length + 1)).is_some());
}

#[test]
fn currencies_are_the_spec_list_with_its_fraction_digits() {
    assert_eq!(json!(SUPPORTED_CURRENCIES), *constant("currencies.supported"));
    assert_eq!(json!(Currency::ALL), *constant("currencies.supported"));
    assert_eq!(SUPPORTED_CURRENCIES.len() as f64, number("currencies.count"));
    assert_eq!(json!(Currency::default()), *constant("currencies.default"));
    for currency in Currency::ALL {
        let key = if currency == Currency::JPY { "money.fractionDigitsJpy" } else { "money.fractionDigits" };
        assert_eq!(f64::from(currency.fraction_digits()), number(key), "{currency:?}");
    }
    assert_eq!(f64::from(MAX_INTEGER_PLACES), number("money.maxIntegerPlaces"));
    assert_eq!(FORMAT_EXPECTS_MONEY, string("money.formatExpectsMoney"));
}

#[test]
fn form_messages_are_the_spec_wording() {
    let pairs = [
        (messages::EMAIL_INVALID, "validation.emailInvalid"),
        (messages::CHARACTER_LIMIT, "validation.characterLimit"),
        (messages::FORM_INVALID, "validation.formInvalid"),
        (messages::CAPTCHA_MISSING, "validation.captchaRequired"),
        (messages::RECAPTCHA_NOT_SET_UP, "captcha.notSetUp"),
        (messages::FIELDS_UNPARSEABLE, "form.fieldsUnparseable"),
        (messages::FORM_NOT_CONFIGURED, "form.status404"),
        (messages::RATE_LIMITED, "form.status429"),
        (messages::SEND_FAILED, "form.status500"),
    ];
    for (ours, key) in pairs {
        assert_eq!(ours, string(key), "{key}");
    }
}

#[test]
fn the_likert_scale_runs_from_the_spec_minimum_to_its_maximum() {
    let ends = (value::LIKERT_VALUES.first().copied(), value::LIKERT_VALUES.last().copied());
    let (min, max) = (number("form.likertMin"), number("form.likertMax"));
    assert_eq!(ends, (Some(min.to_string().as_str()), Some(max.to_string().as_str())));
    assert_eq!(value::LIKERT_VALUES.len() as f64, max - min + 1.0);
}

#[test]
fn media_blocks_use_the_spec_modes_styles_and_map_defaults() {
    assert_eq!(json!(VIDEO_MODES), json!(named_list("VideoMode")));
    assert_eq!(json!(GALLERY_CLICK_BEHAVIORS), json!(named_list("ClickBehavior")));
    assert_eq!(INVALID_VIDEO_EMBED, string("video.invalidEmbed"));
    let ids = &super::enums()["numeric"]["MapStyle"]["values"];
    let spec_ids: Vec<(String, u64)> = ids
        .as_array()
        .expect("map styles")
        .iter()
        .map(|e| (e["variant"].as_str().expect("variant").to_owned(), e["id"].as_u64().expect("id")))
        .collect();
    let ours: Vec<(String, u64)> = MAP_STYLES.iter().map(|(name, id)| ((*name).to_owned(), u64::from(*id))).collect();
    assert_eq!(ours, spec_ids);
    let mut names: Vec<&str> = MAP_STYLES.iter().map(|(name, _)| *name).collect();
    let mut spec_names: Vec<&str> = named_list("MapStyleName").iter().filter_map(|v| v.as_str()).collect();
    names.sort_unstable();
    spec_names.sort_unstable();
    assert_eq!(names, spec_names);

    let map: MapBlock = serde_json::from_value(json!({})).expect("every map field has a default");
    assert_eq!((map.map_lat, map.map_lng), (number("map.defaultCenterLat"), number("map.defaultCenterLng")));
    assert_eq!(f64::from(map.map_zoom), number("map.defaultZoom"));
    assert_eq!(map.style, text("map.defaultStyle"));
    assert_eq!((map.marker_lat, map.marker_lng), (None, None), "the marker falls back to the centre");
    // The options of 001 §3 under the spec's own names, each off unless set.
    assert_eq!((map.disable_default_ui, map.marker_draggable, map.link_on_click), (false, false, false));
    let set: MapBlock =
        serde_json::from_value(json!({"disableDefaultUI": true, "markerDraggable": true, "linkOnClick": true}))
            .expect("the spec's option names are map fields");
    assert_eq!((set.disable_default_ui, set.marker_draggable, set.link_on_click), (true, true, true));
    let written = serde_json::to_value(&set).expect("serialises");
    assert_eq!(written["disableDefaultUI"], true, "and are written back under them");
}

#[test]
fn multi_part_fields_have_the_spec_summary_sub_fields_in_order() {
    let spec = &super::enums()["maps"]["SummarySubFields"]["values"];
    let kinds = [
        ("name", FieldKind::Name),
        ("phone", FieldKind::Phone),
        ("address", FieldKind::Address),
        ("date", FieldKind::Date),
        ("time", FieldKind::Time),
    ];
    for (name, kind) in kinds {
        let ours: Vec<&str> = value::parts(kind).iter().map(|(part, _)| *part).collect();
        assert_eq!(json!(ours), spec[name], "{name}");
    }
}

#[test]
fn image_shapes_take_the_spec_mask_heights() {
    use crate::site::blocks::{shape_proportion, ShapeProportion};
    let height = |name: &str| shape_proportion(name).map(ShapeProportion::aspect_height).map(f64::from);
    assert_eq!(height("circle"), Some(number("shapeMask.heightMost")));
    assert_eq!(height("tall-oval"), Some(number("shapeMask.heightTall")));
    assert_eq!(height("wide-oval"), Some(number("shapeMask.heightWide")));
}
