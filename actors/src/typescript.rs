//! Generates `client/src/generated/types.ts` from the Rust types, so the client never
//! writes them a second time. The test
//! `generated_types_are_fresh` with `VERANDA_WRITE_TYPES=1` rewrites the file; it
//! fails when the committed file is stale.

use ts_rs::{Config, TS};

use crate::commerce::cart::{CartCoupon, CartEntry, ShoppingCart};
use crate::commerce::money::MoneyJson;
use crate::commerce::order::{OrderKind, OrderStatus};
use crate::commerce::rules::{ShippingLocation, ShippingOption, TaxRule};
use crate::commerce::subscription::PlanTerms;
use crate::commerce::summary::OrderSummary;
use crate::context::*;
use crate::domain::enums::*;
use crate::domain::islands::IslandKind;
use crate::site::blocks::*;
use crate::site::content::*;
use crate::site::forms::{FormKind, FormSummary};
use crate::site::settings::*;
use crate::streams::{EditEvent, EditName, Frame, RecentEvents, ResetReason, StoredEvent, StreamName};
use crate::telemetry::errors::{ErrorGroup, ErrorHoursReport, ErrorPoint, ErrorReport, GroupHours, RecentError};
use crate::telemetry::page_views::{
    KeyCount, PageViews, StatsRange, TopReport, TrafficPoint, TrafficReport, VisitorStats,
};
use crate::telemetry::vitals::{PageVitals, VitalPoint, VitalSeriesReport, VitalSummary};

/// The whole generated file.
pub fn render() -> String {
    // The server's JSON writes 64-bit integers as numbers, never as strings.
    let cfg = Config::default().with_large_int("number");
    let mut out =
        String::from("// Generated from the Rust types in actors/ (test generated_types_are_fresh). Do not edit.\n\n");
    let numeric = [
        PageType::ts_declaration(),
        ContributorRole::ts_declaration(),
        PublicationState::ts_declaration(),
        ItemType::ts_declaration(),
        BlockType::ts_declaration(),
        SpecialPageKind::ts_declaration(),
        SiteType::ts_declaration(),
        SiteStatus::ts_declaration(),
        ProductType::ts_declaration(),
        MeasurementUnit::ts_declaration(),
        Theme::ts_declaration(),
        Border::ts_declaration(),
        Visibility::ts_declaration(),
        FormEditorTab::ts_declaration(),
        MapStyle::ts_declaration(),
        Permission::ts_declaration(),
        IconOrDefault::ts_declaration(),
        LayoutVariant::ts_declaration(),
    ];
    for decl in numeric {
        out.push_str(&decl);
        out.push('\n');
    }
    let mut decls = vec![
        Side::decl(&cfg),
        Position::decl(&cfg),
        CollectionViewMode::decl(&cfg),
        DeviceView::decl(&cfg),
        SurveyCohort::decl(&cfg),
        TextFilter::decl(&cfg),
        PlatformVersion::decl(&cfg),
        ItemVisibility::decl(&cfg),
        CookieBannerCtaVariant::decl(&cfg),
        CookieBannerVariant::decl(&cfg),
        CookieBannerTheme::decl(&cfg),
        CookieBannerAcceptType::decl(&cfg),
        GalleryMediaKind::decl(&cfg),
        GalleryDesign::decl(&cfg),
        BlockKind::decl(&cfg),
        IslandKind::decl(&cfg),
        FieldKind::decl(&cfg),
        FormField::decl(&cfg),
        AccordionItem::decl(&cfg),
        PricingOption::decl(&cfg),
        GallerySlide::decl(&cfg),
        SwipeBoundary::decl(&cfg),
        SwipeBoundaries::decl(&cfg),
        SnapPoints::decl(&cfg),
        ChartSeries::decl(&cfg),
        TourDate::decl(&cfg),
        MenuTab::decl(&cfg),
        MenuItem::decl(&cfg),
        Access::decl(&cfg),
        CollectionKind::decl(&cfg),
        EventDetails::decl(&cfg),
        Product::decl(&cfg),
        Dimensions::decl(&cfg),
        Variant::decl(&cfg),
        OptionValue::decl(&cfg),
        SubscriptionPlan::decl(&cfg),
        BillingPeriod::decl(&cfg),
        NavLink::decl(&cfg),
        Navigation::decl(&cfg),
        StoreSettings::decl(&cfg),
        CookieBannerSettings::decl(&cfg),
        PopupOverlaySettings::decl(&cfg),
        AnnouncementBarSettings::decl(&cfg),
        MobileInfoBarSettings::decl(&cfg),
        CaptchaProvider::decl(&cfg),
        CaptchaSettings::decl(&cfg),
        CommentSettings::decl(&cfg),
        HeaderFooter::decl(&cfg),
        PageContext::decl(&cfg),
        WebsiteContext::decl(&cfg),
        WebsiteSettingsContext::decl(&cfg),
        PinterestOverlayOptions::decl(&cfg),
        StoreSettingsContext::decl(&cfg),
        CookieSettingsContext::decl(&cfg),
        AccountContext::decl(&cfg),
        TemplateInstallation::decl(&cfg),
        TemplateWebsite::decl(&cfg),
        CollectionContext::decl(&cfg),
        ItemContext::decl(&cfg),
        Rollup::decl(&cfg),
        GoogleFont::decl(&cfg),
        TypekitFont::decl(&cfg),
    ];
    decls.extend(BlockData::ts_declarations(&cfg));
    // The JSON the islands and the dashboard read: the cart, the error list, the vitals, the edits,
    // the stream frames and history, the orders, the forms and the visitor figures.
    decls.extend([
        MoneyJson::decl(&cfg),
        PlanTerms::decl(&cfg),
        CartEntry::decl(&cfg),
        CartCoupon::decl(&cfg),
        ShippingOption::decl(&cfg),
        TaxRule::decl(&cfg),
        ShippingLocation::decl(&cfg),
        ShoppingCart::decl(&cfg),
        ErrorGroup::decl(&cfg),
        ErrorReport::decl(&cfg),
        RecentError::decl(&cfg),
        VitalSummary::decl(&cfg),
        PageVitals::decl(&cfg),
        EditName::decl(&cfg),
        EditEvent::decl(&cfg),
        StreamName::decl(&cfg),
        ResetReason::decl(&cfg),
        Frame::decl(&cfg),
        StoredEvent::decl(&cfg),
        RecentEvents::decl(&cfg),
        OrderKind::decl(&cfg),
        OrderStatus::decl(&cfg),
        OrderSummary::decl(&cfg),
        FormKind::decl(&cfg),
        FormSummary::decl(&cfg),
        PageViews::decl(&cfg),
        VisitorStats::decl(&cfg),
        StatsRange::decl(&cfg),
        TrafficPoint::decl(&cfg),
        TrafficReport::decl(&cfg),
        KeyCount::decl(&cfg),
        TopReport::decl(&cfg),
        ErrorPoint::decl(&cfg),
        GroupHours::decl(&cfg),
        ErrorHoursReport::decl(&cfg),
        VitalPoint::decl(&cfg),
        VitalSeriesReport::decl(&cfg),
    ]);
    for decl in decls {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.push_str(&IslandKind::ts_list());
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// The committed client copy of the types must equal what the Rust types generate.
    /// Run with `VERANDA_WRITE_TYPES=1` to rewrite it.
    #[test]
    fn generated_types_are_fresh() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../client/src/generated/types.ts");
        let fresh = super::render();
        if std::env::var_os("VERANDA_WRITE_TYPES").is_some() {
            std::fs::create_dir_all(path.parent().expect("the path has a parent")).expect("create generated dir");
            std::fs::write(&path, &fresh).expect("write generated types");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "client/src/generated/types.ts is stale: run `VERANDA_WRITE_TYPES=1 cargo test -p veranda-actors generated_types`"
        );
    }
}
