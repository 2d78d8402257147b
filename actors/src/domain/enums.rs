//! The shared enumerations of spec 000 §3 and 001 §3, defined once.
//!
//! Numeric enumerations use [`numeric_enum!`](crate::numeric_enum): they travel as their
//! ids and are written by name in site files. String enumerations derive serde and ts-rs.
//! `client/src/generated/types.ts` is generated from this file (see `crate::typescript`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

crate::numeric_enum! {
    /// Page types (`pageType` in the page context).
    pub enum PageType {
        MainContent = 1 => "main-content",
        Page = 2 => "page",
        SplashPage = 3 => "splash-page",
        ContentItem = 50 => "content-item",
        NotFound = 100 => "not-found",
        Error = 101 => "error",
        Search = 102 => "search",
        LockScreen = 103 => "lock-screen",
        PopupOverlay = 104 => "popup-overlay",
        ProtectedContent = 105 => "protected-content",
        MemberAreaAccessDenied = 106 => "member-area-access-denied",
        ShowCart = 200 => "show-cart",
        Checkout = 201 => "checkout",
        OrderConfirmed = 202 => "order-confirmed",
        Donate = 203 => "donate",
        ContributionConfirmed = 204 => "contribution-confirmed",
        CommerceCartV2 = 205 => "commerce-cart-v2",
        SubscriptionConfirmed = 206 => "subscription-confirmed",
        OrderReceived = 207 => "order-received",
        MembershipConfirmed = 208 => "membership-confirmed",
        ReviewsRequest = 209 => "reviews-request",
        NewsletterUnsubscribe = 300 => "newsletter-unsubscribe",
        CommerceEmailPreview = 301 => "commerce-email-preview",
    }
}

impl PageType {
    /// Page types on which visitor analytics are never recorded (spec 000 §2, §6).
    pub fn suppresses_analytics(self) -> bool {
        matches!(self, PageType::NotFound | PageType::LockScreen | PageType::MemberAreaAccessDenied)
    }
}

crate::numeric_enum! {
    /// Contributor roles; `Member` (0 is not used by the spec) marks a site member.
    pub enum ContributorRole {
        Admin = 1 => "admin",
        Billing = 2 => "billing",
        Reporting = 3 => "reporting",
        Editor = 4 => "editor",
        Moderator = 6 => "moderator",
        Commenter = 7 => "commenter",
        StoreManager = 8 => "store-manager",
        Scheduling = 9 => "scheduling",
        Viewer = 10 => "viewer",
        CampaignsEditor = 11 => "campaigns-editor",
        SchedulingViewer = 12 => "scheduling-viewer",
        SchedulingEditor = 13 => "scheduling-editor",
    }
}

crate::numeric_enum! {
    /// Content publication states.
    pub enum PublicationState {
        Published = 1 => "published",
        Scheduled = 2 => "scheduled",
        NeedsReview = 3 => "needs-review",
        Draft = 4 => "draft",
        Private = 5 => "private",
        Deleted = 6 => "deleted",
    }
}

crate::numeric_enum! {
    /// Content item types.
    pub enum ItemType {
        Text = 1 => "text",
        Image = 2 => "image",
        Quote = 4 => "quote",
        Link = 5 => "link",
        Chat = 6 => "chat",
        Audio = 7 => "audio",
        Video = 8 => "video",
        Review = 10 => "review",
        StoreItem = 11 => "store-item",
        Event = 12 => "event",
        Thread = 13 => "thread",
        Gallery = 14 => "gallery",
        Binary = 15 => "binary",
        CssAsset = 16 => "css-asset",
        TweakAsset = 17 => "tweak-asset",
        DigitalGood = 18 => "digital-good",
        Attachment = 19 => "attachment",
        WordpressExport = 20 => "wordpress-export",
        InternalExport = 21 => "internal-export",
        ProseMirrorText = 22 => "prose-mirror-text",
        Tweet = 50 => "tweet",
        Rss = 51 => "rss",
        CheckIn = 52 => "check-in",
        Bookmark = 53 => "bookmark",
        KnowledgeBaseArticle = 54 => "knowledge-base-article",
        ProjectItem = 55 => "project-item",
        TaxonomyCollection = 56 => "taxonomy-collection",
        TaxonomySection = 57 => "taxonomy-section",
        TaxonomyItem = 58 => "taxonomy-item",
        PortfolioItem = 59 => "portfolio-item",
        TranslatableStringsExport = 60 => "translatable-strings-export",
        SiteVideo = 61 => "site-video",
        Lesson = 62 => "lesson",
    }
}

impl ItemType {
    /// The tracking name of an item record type (spec 000 §3), where one is given.
    pub fn tracking_name(self) -> Option<&'static str> {
        Some(match self {
            ItemType::Audio => "album-track",
            ItemType::Event => "event-item",
            ItemType::Image => "gallery-image",
            ItemType::PortfolioItem => "portfolio-item",
            ItemType::Text => "blog-post",
            ItemType::Video => "gallery-video",
            _ => return None,
        })
    }
}

crate::numeric_enum! {
    /// Block types with a numeric id in the spec (the wider list 1–70 is not shown).
    pub enum BlockType {
        Heading = 1 => "heading",
        SubHeading = 2 => "sub-heading",
        Body = 3 => "body",
        Image = 4 => "image",
        Gallery = 5 => "gallery",
        Video = 6 => "video",
        SocialIcons = 7 => "social-icons",
        Buttons = 8 => "buttons",
        Navigation = 9 => "navigation",
        CustomForm = 10 => "custom-form",
        Newsletter = 11 => "newsletter",
        Album = 12 => "album",
        Map = 13 => "map",
        Logo = 14 => "logo",
        Action = 15 => "action",
        Form = 16 => "form",
        Lock = 17 => "lock",
        Password = 18 => "password",
        Twitter = 19 => "twitter",
        PopupOverlayAction = 20 => "popup-overlay-action",
        TempLockInject = 100 => "temp-lock-inject",
    }
}

crate::numeric_enum! {
    /// Special page kinds.
    pub enum SpecialPageKind {
        CoverPage = 1 => "cover-page",
        LockScreen = 2 => "lock-screen",
        PopupOverlay = 3 => "popup-overlay",
    }
}

crate::numeric_enum! {
    /// Site types.
    pub enum SiteType {
        Classic = 1 => "classic",
        CoverPage = 2 => "cover-page",
        ParkingPage = 3 => "parking-page",
        Commerce = 4 => "commerce",
        Enterprise = 5 => "enterprise",
    }
}

crate::numeric_enum! {
    /// Site statuses.
    pub enum SiteStatus {
        Expired = 1 => "expired",
        PastDue = 2 => "past-due",
        Trial = 3 => "trial",
        Beta = 4 => "beta",
        Removed = 5 => "removed",
        Internal = 6 => "internal",
        Comped = 7 => "comped",
        Paid = 8 => "paid",
        LinkedToV5 = 11 => "linked-to-v5",
        ActiveParkingPage = 12 => "active-parking-page",
        Resold = 13 => "resold",
        ResoldGracePeriod = 14 => "resold-grace-period",
        Enterprise = 15 => "enterprise",
    }
}

crate::numeric_enum! {
    /// Product types.
    pub enum ProductType {
        Physical = 1 => "physical",
        Digital = 2 => "digital",
        Service = 3 => "service",
        GiftCard = 4 => "gift-card",
        Paywall = 5 => "paywall",
    }
}

crate::numeric_enum! {
    /// Measurement units; weights are lbs or kg, dimensions inches or cm.
    pub enum MeasurementUnit {
        Imperial = 1 => "imperial",
        Metric = 2 => "metric",
    }
}

impl MeasurementUnit {
    /// The weight unit of this measurement system (spec 000 §9).
    pub fn weight_unit(self) -> &'static str {
        match self {
            MeasurementUnit::Imperial => "lbs",
            MeasurementUnit::Metric => "kg",
        }
    }
    /// The dimension unit of this measurement system (spec 000 §9).
    pub fn dimension_unit(self) -> &'static str {
        match self {
            MeasurementUnit::Imperial => "inches",
            MeasurementUnit::Metric => "cm",
        }
    }
}

crate::numeric_enum! {
    /// Theme.
    pub enum Theme { None = 1 => "none", Light = 2 => "light", Dark = 3 => "dark" }
}

crate::numeric_enum! {
    /// Border.
    pub enum Border { None = 1 => "none", Black = 2 => "black", White = 3 => "white" }
}

crate::numeric_enum! {
    /// Visibility.
    pub enum Visibility { None = 1 => "none", Show = 2 => "show" }
}

crate::numeric_enum! {
    /// Form editor tabs.
    pub enum FormEditorTab {
        Build = 1 => "build",
        Storage = 2 => "storage",
        Advanced = 3 => "advanced",
        Captcha = 4 => "captcha",
        Disclaimer = 5 => "disclaimer",
    }
}

crate::numeric_enum! {
    /// Map style ids (spec 001 §3).
    pub enum MapStyle {
        Original = 1 => "original",
        Grayscale = 2 => "grayscale",
        Satellite = 3 => "satellite",
        MinimalLight = 4 => "minimal-light",
        MinimalDark = 5 => "minimal-dark",
        MinimalBlue = 6 => "minimal-blue",
    }
}

crate::numeric_enum! {
    /// Permission ids whose values the spec shows.
    pub enum Permission {
        AuthenticatedNoSitePermissions = 0 => "authenticated",
        Config = 1 => "config",
        Admin = 2 => "admin",
    }
}

crate::numeric_enum! {
    /// Icon or default (001 §3).
    pub enum IconOrDefault { Icon = 0 => "icon", Default = 1 => "default" }
}

crate::numeric_enum! {
    /// Block layout variants (001 §3): the nineteen the spec lists, ids 1000 on in its order; 1019 names none.
    pub enum LayoutVariant {
        GallerySlideshow = 1000 => "gallery-slideshow", GalleryCarousel = 1001 => "gallery-carousel",
        GalleryGrid = 1002 => "gallery-grid", GalleryStack = 1003 => "gallery-stack",
        SummaryWall = 1004 => "summary-wall", SummaryCarousel = 1005 => "summary-carousel",
        SummaryList = 1006 => "summary-list", SummaryGrid = 1007 => "summary-grid",
        ChartBar = 1008 => "chart-bar", ChartLine = 1009 => "chart-line", ChartPie = 1010 => "chart-pie",
        ImageInline = 1011 => "image-inline", ImagePoster = 1012 => "image-poster", ImageCard = 1013 => "image-card",
        ImageOverlap = 1014 => "image-overlap", ImageCollage = 1015 => "image-collage",
        ImageStack = 1016 => "image-stack",
        ReservationWidget1 = 1017 => "reservation-widget-1", ReservationWidget2 = 1018 => "reservation-widget-2",
    }
}

/// Side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Left,
    Right,
}

/// The nine position anchors: top, center, bottom crossed with left, center, right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Position {
    TopLeft,
    TopCenter,
    TopRight,
    CenterLeft,
    #[default]
    CenterCenter,
    CenterRight,
    BottomLeft,
    BottomCenter,
    BottomRight,
}

/// Collection view modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CollectionViewMode {
    #[default]
    List,
    Grid,
    Product,
}

/// Device views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceView {
    Desktop,
    Phone,
    Tablet,
}

/// Survey cohorts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum SurveyCohort {
    A,
    B,
    C,
    D,
    E,
}

/// Text filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum TextFilter {
    UrlSlug,
    UrlSlugWithSlash,
}

/// Platform versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum PlatformVersion {
    #[serde(rename = "7")]
    V7,
    #[serde(rename = "7.1")]
    V7_1,
    #[serde(rename = "8")]
    V8,
}

/// Item visibility values tracked by editor events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ItemVisibility {
    Draft,
    Published,
    NeedsReview,
    Scheduled,
}

/// Cookie banner call-to-action variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CookieBannerCtaVariant {
    Text,
    Button,
    Icon,
}

/// Cookie banner variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CookieBannerVariant {
    Bar,
    Popup,
}

/// Cookie banner theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CookieBannerTheme {
    Light,
    Dark,
}

/// Cookie banner accept type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CookieBannerAcceptType {
    OptIn,
    OptInAndOut,
}

/// Gallery media kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum GalleryMediaKind {
    ImageEmpty,
    ImageFile,
    ImageLicensed,
    ImageReused,
    AssetReused,
    Video,
}

/// Gallery block designs (the names of the 001 §9 mapping).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GalleryDesign {
    #[default]
    Grid,
    Stacked,
    Slider,
    Slideshow,
    Autogrid,
    Autocolumns,
    Autorows,
    Carousel,
    List,
}
