//! The enumerations of 000 §3 and 001 §3: every numeric id, every named value.

use super::enums;
use crate::domain::enums::*;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Value};
use std::fmt::Debug;

/// One of our values of a numeric enumeration: variant name, id, its JSON form, and whether
/// the spec's id reads back as the same value.
struct Ours {
    variant: String,
    id: u16,
    wire: Value,
    reads_back: bool,
}

/// Every variant of a `numeric_enum!` type, as [`Ours`].
macro_rules! ours {
    ($ty:ident) => {
        $ty::ALL
            .iter()
            .map(|v| Ours {
                variant: format!("{v:?}"),
                id: v.id(),
                wire: serde_json::to_value(v).expect("serialises"),
                reads_back: serde_json::from_value::<$ty>(json!(v.id())).ok() == Some(*v),
            })
            .collect::<Vec<_>>()
    };
}

/// Compares one numeric enumeration with the spec's table: same count, and each listed value
/// carries the spec's id on the wire and reads back from it.
fn check_numeric(name: &str, ours: Vec<Ours>) {
    let table = &enums()["numeric"][name];
    let values = table["values"].as_array().unwrap_or_else(|| panic!("no numeric enumeration {name}"));
    assert_eq!(ours.len(), values.len(), "{name}: the spec ({}) lists {} values", table["spec"], values.len());
    for entry in values {
        let (variant, quote) = (entry["variant"].as_str().expect("variant"), &entry["quote"]);
        let id = entry["id"].as_u64().expect("id");
        let mine =
            ours.iter().find(|o| o.variant == variant).unwrap_or_else(|| panic!("{name}: no {variant} ({quote})"));
        assert_eq!(u64::from(mine.id), id, "{name}::{variant} must be {id} ({quote}, {})", table["spec"]);
        assert_eq!(mine.wire, json!(id), "{name}::{variant} travels as {id}");
        assert!(mine.reads_back, "{name}: id {id} reads back as {variant}");
    }
}

#[test]
fn every_numeric_enumeration_carries_the_spec_ids() {
    check_numeric("PageType", ours!(PageType));
    check_numeric("ContributorRole", ours!(ContributorRole));
    check_numeric("PublicationState", ours!(PublicationState));
    check_numeric("ItemType", ours!(ItemType));
    check_numeric("BlockType", ours!(BlockType));
    check_numeric("SpecialPageKind", ours!(SpecialPageKind));
    check_numeric("SiteType", ours!(SiteType));
    check_numeric("SiteStatus", ours!(SiteStatus));
    check_numeric("ProductType", ours!(ProductType));
    check_numeric("MeasurementUnit", ours!(MeasurementUnit));
    check_numeric("Theme", ours!(Theme));
    check_numeric("Border", ours!(Border));
    check_numeric("Visibility", ours!(Visibility));
    check_numeric("IconOrDefault", ours!(IconOrDefault));
    check_numeric("FormEditorTab", ours!(FormEditorTab));
    check_numeric("MapStyle", ours!(MapStyle));
    check_numeric("Permission", ours!(Permission));
    check_numeric("LayoutVariant", ours!(LayoutVariant));
}

/// Compares one named enumeration with the spec's list, in the spec's order: each value is
/// written as the spec's word and reads back from it.
fn check_named<T: Serialize + DeserializeOwned + PartialEq + Debug>(name: &str, ours: &[T]) {
    let values = named(name);
    assert_eq!(ours.len(), values.len(), "{name}: the spec lists {values:?}");
    for (mine, word) in ours.iter().zip(values) {
        assert_eq!(&serde_json::to_value(mine).expect("serialises"), word, "{name}::{mine:?}");
        assert_eq!(&serde_json::from_value::<T>(word.clone()).expect("reads the spec's word"), mine, "{name}: {word}");
    }
}

/// The spec's list of one named enumeration.
fn named(name: &str) -> &'static Vec<Value> {
    enums()["named"][name]["values"].as_array().unwrap_or_else(|| panic!("no named enumeration {name}"))
}

#[test]
fn every_named_enumeration_uses_the_spec_words() {
    use CookieBannerCtaVariant as Cta;
    check_named("CookieBannerCtaVariant", &[Cta::Text, Cta::Button, Cta::Icon]);
    check_named("CookieBannerVariant", &[CookieBannerVariant::Bar, CookieBannerVariant::Popup]);
    check_named("CookieBannerTheme", &[CookieBannerTheme::Light, CookieBannerTheme::Dark]);
    check_named("CookieBannerAcceptType", &[CookieBannerAcceptType::OptIn, CookieBannerAcceptType::OptInAndOut]);
    use CollectionViewMode as Mode;
    check_named("CollectionViewMode", &[Mode::List, Mode::Grid, Mode::Product]);
    check_named("DeviceView", &[DeviceView::Desktop, DeviceView::Phone, DeviceView::Tablet]);
    use SurveyCohort as C;
    check_named("SurveyCohort", &[C::A, C::B, C::C, C::D, C::E]);
    check_named("TextFilter", &[TextFilter::UrlSlug, TextFilter::UrlSlugWithSlash]);
    check_named("PlatformVersion", &[PlatformVersion::V7, PlatformVersion::V7_1, PlatformVersion::V8]);
    use ItemVisibility as V;
    check_named("ItemVisibility", &[V::Draft, V::Published, V::NeedsReview, V::Scheduled]);
    use GalleryMediaKind as K;
    let kinds = [K::ImageEmpty, K::ImageFile, K::ImageLicensed, K::ImageReused, K::AssetReused, K::Video];
    check_named("GalleryMediaKind", &kinds);
    check_named("Side", &[Side::Left, Side::Right]);
    use crate::site::blocks::SwipeBoundary as B;
    check_named("NewSwipeBoundary", &[B::Wrap, B::Hard, B::Inertial]);
}

#[test]
fn item_types_map_to_the_spec_tracking_names() {
    let names = enums()["maps"]["ItemTrackingName"]["values"].as_object().expect("tracking names");
    for item in ItemType::ALL {
        let expected = names.get(&format!("{item:?}")).and_then(Value::as_str);
        assert_eq!(item.tracking_name(), expected, "{item:?}");
    }
}

#[test]
fn measurement_units_name_the_spec_weight_and_dimension_units() {
    let maps = &enums()["maps"];
    for unit in MeasurementUnit::ALL {
        let key = format!("{unit:?}");
        assert_eq!(Some(unit.weight_unit()), maps["WeightUnit"]["values"][&key].as_str(), "{key} weight");
        assert_eq!(Some(unit.dimension_unit()), maps["DimensionUnit"]["values"][&key].as_str(), "{key} dimension");
    }
}

#[test]
fn analytics_are_suppressed_on_exactly_the_spec_page_types() {
    let suppressing: Vec<u64> =
        PageType::ALL.iter().filter(|t| t.suppresses_analytics()).map(|t| u64::from(t.id())).collect();
    assert_eq!(json!(suppressing), *super::constant("analytics.suppressingPageTypes"));
}

#[test]
fn the_viewer_role_is_the_spec_id() {
    assert_eq!(f64::from(ContributorRole::Viewer.id()), super::number("roles.viewerId"));
}

#[test]
fn layout_variant_ids_lie_in_the_spec_range_1000_to_1019() {
    // 001 §3 line 95: "(ids 1000-1019)".
    for variant in LayoutVariant::ALL {
        assert!((1000..=1019).contains(&variant.id()), "{variant:?} is {}", variant.id());
    }
    assert_eq!(LayoutVariant::from_id(1019), None, "the range's twentieth id names no variant");
}
