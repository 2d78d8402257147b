// Generated from the Rust types in actors/ (test generated_types_are_fresh). Do not edit.

export const PageType = {
  MainContent: 1,
  Page: 2,
  SplashPage: 3,
  ContentItem: 50,
  NotFound: 100,
  Error: 101,
  Search: 102,
  LockScreen: 103,
  PopupOverlay: 104,
  ProtectedContent: 105,
  MemberAreaAccessDenied: 106,
  ShowCart: 200,
  Checkout: 201,
  OrderConfirmed: 202,
  Donate: 203,
  ContributionConfirmed: 204,
  CommerceCartV2: 205,
  SubscriptionConfirmed: 206,
  OrderReceived: 207,
  MembershipConfirmed: 208,
  ReviewsRequest: 209,
  NewsletterUnsubscribe: 300,
  CommerceEmailPreview: 301,
} as const;
export type PageType = (typeof PageType)[keyof typeof PageType];

export const ContributorRole = {
  Admin: 1,
  Billing: 2,
  Reporting: 3,
  Editor: 4,
  Moderator: 6,
  Commenter: 7,
  StoreManager: 8,
  Scheduling: 9,
  Viewer: 10,
  CampaignsEditor: 11,
  SchedulingViewer: 12,
  SchedulingEditor: 13,
} as const;
export type ContributorRole = (typeof ContributorRole)[keyof typeof ContributorRole];

export const PublicationState = {
  Published: 1,
  Scheduled: 2,
  NeedsReview: 3,
  Draft: 4,
  Private: 5,
  Deleted: 6,
} as const;
export type PublicationState = (typeof PublicationState)[keyof typeof PublicationState];

export const ItemType = {
  Text: 1,
  Image: 2,
  Quote: 4,
  Link: 5,
  Chat: 6,
  Audio: 7,
  Video: 8,
  Review: 10,
  StoreItem: 11,
  Event: 12,
  Thread: 13,
  Gallery: 14,
  Binary: 15,
  CssAsset: 16,
  TweakAsset: 17,
  DigitalGood: 18,
  Attachment: 19,
  WordpressExport: 20,
  InternalExport: 21,
  ProseMirrorText: 22,
  Tweet: 50,
  Rss: 51,
  CheckIn: 52,
  Bookmark: 53,
  KnowledgeBaseArticle: 54,
  ProjectItem: 55,
  TaxonomyCollection: 56,
  TaxonomySection: 57,
  TaxonomyItem: 58,
  PortfolioItem: 59,
  TranslatableStringsExport: 60,
  SiteVideo: 61,
  Lesson: 62,
} as const;
export type ItemType = (typeof ItemType)[keyof typeof ItemType];

export const BlockType = {
  Heading: 1,
  SubHeading: 2,
  Body: 3,
  Image: 4,
  Gallery: 5,
  Video: 6,
  SocialIcons: 7,
  Buttons: 8,
  Navigation: 9,
  CustomForm: 10,
  Newsletter: 11,
  Album: 12,
  Map: 13,
  Logo: 14,
  Action: 15,
  Form: 16,
  Lock: 17,
  Password: 18,
  Twitter: 19,
  PopupOverlayAction: 20,
  TempLockInject: 100,
} as const;
export type BlockType = (typeof BlockType)[keyof typeof BlockType];

export const SpecialPageKind = {
  CoverPage: 1,
  LockScreen: 2,
  PopupOverlay: 3,
} as const;
export type SpecialPageKind = (typeof SpecialPageKind)[keyof typeof SpecialPageKind];

export const SiteType = {
  Classic: 1,
  CoverPage: 2,
  ParkingPage: 3,
  Commerce: 4,
  Enterprise: 5,
} as const;
export type SiteType = (typeof SiteType)[keyof typeof SiteType];

export const SiteStatus = {
  Expired: 1,
  PastDue: 2,
  Trial: 3,
  Beta: 4,
  Removed: 5,
  Internal: 6,
  Comped: 7,
  Paid: 8,
  LinkedToV5: 11,
  ActiveParkingPage: 12,
  Resold: 13,
  ResoldGracePeriod: 14,
  Enterprise: 15,
} as const;
export type SiteStatus = (typeof SiteStatus)[keyof typeof SiteStatus];

export const ProductType = {
  Physical: 1,
  Digital: 2,
  Service: 3,
  GiftCard: 4,
  Paywall: 5,
} as const;
export type ProductType = (typeof ProductType)[keyof typeof ProductType];

export const MeasurementUnit = {
  Imperial: 1,
  Metric: 2,
} as const;
export type MeasurementUnit = (typeof MeasurementUnit)[keyof typeof MeasurementUnit];

export const Theme = {
  None: 1,
  Light: 2,
  Dark: 3,
} as const;
export type Theme = (typeof Theme)[keyof typeof Theme];

export const Border = {
  None: 1,
  Black: 2,
  White: 3,
} as const;
export type Border = (typeof Border)[keyof typeof Border];

export const Visibility = {
  None: 1,
  Show: 2,
} as const;
export type Visibility = (typeof Visibility)[keyof typeof Visibility];

export const FormEditorTab = {
  Build: 1,
  Storage: 2,
  Advanced: 3,
  Captcha: 4,
  Disclaimer: 5,
} as const;
export type FormEditorTab = (typeof FormEditorTab)[keyof typeof FormEditorTab];

export const MapStyle = {
  Original: 1,
  Grayscale: 2,
  Satellite: 3,
  MinimalLight: 4,
  MinimalDark: 5,
  MinimalBlue: 6,
} as const;
export type MapStyle = (typeof MapStyle)[keyof typeof MapStyle];

export const Permission = {
  AuthenticatedNoSitePermissions: 0,
  Config: 1,
  Admin: 2,
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

export const IconOrDefault = {
  Icon: 0,
  Default: 1,
} as const;
export type IconOrDefault = (typeof IconOrDefault)[keyof typeof IconOrDefault];

export const LayoutVariant = {
  GallerySlideshow: 1000,
  GalleryCarousel: 1001,
  GalleryGrid: 1002,
  GalleryStack: 1003,
  SummaryWall: 1004,
  SummaryCarousel: 1005,
  SummaryList: 1006,
  SummaryGrid: 1007,
  ChartBar: 1008,
  ChartLine: 1009,
  ChartPie: 1010,
  ImageInline: 1011,
  ImagePoster: 1012,
  ImageCard: 1013,
  ImageOverlap: 1014,
  ImageCollage: 1015,
  ImageStack: 1016,
  ReservationWidget1: 1017,
  ReservationWidget2: 1018,
} as const;
export type LayoutVariant = (typeof LayoutVariant)[keyof typeof LayoutVariant];

export type Side = "left" | "right";

export type Position = "top-left" | "top-center" | "top-right" | "center-left" | "center-center" | "center-right" | "bottom-left" | "bottom-center" | "bottom-right";

export type CollectionViewMode = "list" | "grid" | "product";

export type DeviceView = "desktop" | "phone" | "tablet";

export type SurveyCohort = "A" | "B" | "C" | "D" | "E";

export type TextFilter = "url-slug" | "url-slug-with-slash";

export type PlatformVersion = "7" | "7.1" | "8";

export type ItemVisibility = "draft" | "published" | "needs_review" | "scheduled";

export type CookieBannerCtaVariant = "TEXT" | "BUTTON" | "ICON";

export type CookieBannerVariant = "BAR" | "POPUP";

export type CookieBannerTheme = "LIGHT" | "DARK";

export type CookieBannerAcceptType = "OPT_IN" | "OPT_IN_AND_OUT";

export type GalleryMediaKind = "imageEmpty" | "imageFile" | "imageLicensed" | "imageReused" | "assetReused" | "video";

export type GalleryDesign = "grid" | "stacked" | "slider" | "slideshow" | "autogrid" | "autocolumns" | "autorows" | "carousel" | "list";

export type BlockKind = "text" | "image" | "video" | "embed" | "map" | "form" | "newsletter" | "donation-button" | "accordion" | "marquee" | "scaled-text" | "button" | "member-area" | "summary" | "gallery" | "audio" | "calendar" | "chart" | "search" | "tour-dates" | "restaurant-booking" | "menu-tabs" | "social-sharing" | "product" | "cart";

export type IslandKind = "menu-tabs" | "form" | "newsletter" | "accordion" | "marquee" | "gallery" | "button" | "announcement-bar" | "member-area" | "scaled-text" | "restaurant-booking" | "social-sharing" | "add-to-cart" | "cart-badge" | "cart" | "video" | "quick-view" | "map" | "summary" | "search";

export type FieldKind = "text" | "textarea" | "email" | "number" | "website" | "currency" | "password" | "twitter" | "date" | "time" | "name" | "address" | "phone" | "section" | "radio" | "checkbox" | "select" | "likert" | "hidden";

export type FormField = { 
/**
 * Field id, unique in the form; the key of the submitted `form` map.
 */
id: string, 
/**
 * Field kind.
 */
type: FieldKind, 
/**
 * Label shown to visitors.
 */
title: string, 
/**
 * Help text under the label.
 */
description: string, 
/**
 * Placeholder text.
 */
placeholder: string, 
/**
 * Whether a value is required.
 */
required: boolean, 
/**
 * Options of radio, checkbox, select; questions of likert.
 */
options: Array<string>, 
/**
 * Textarea maximum length (0: no limit).
 */
maxLength?: number, 
/**
 * Currency symbol of a currency field.
 */
currencySymbol?: string, 
/**
 * Phone fields: show the country code part.
 */
showCountryCode: boolean, 
/**
 * Section: draw an underline.
 */
underline: boolean, 
/**
 * Hidden fields: the query parameter name.
 */
key?: string, 
/**
 * Hidden fields: the default value.
 */
value?: string, };

export type AccordionItem = { 
/**
 * The clickable title.
 */
title: string, 
/**
 * The panel's rich text.
 */
html: string, };

export type PricingOption = { 
/**
 * Toggle label, e.g. Monthly.
 */
label: string, 
/**
 * Price in cents.
 */
priceCents: number, 
/**
 * Billing period: weekly, monthly or yearly.
 */
billingPeriod: string, 
/**
 * Join button text.
 */
joinText: string, };

export type GallerySlide = { 
/**
 * Image under `images/`.
 */
src: string, 
/**
 * Alternative text.
 */
alt: string, 
/**
 * Caption (the lightbox meta).
 */
caption: string, 
/**
 * Slide id for gallery history.
 */
slideId: string, 
/**
 * Slide url for gallery history.
 */
slideUrl?: string, 
/**
 * Click-through url.
 */
clickThroughUrl?: string, 
/**
 * Focal point `x,y`.
 */
focalPoint?: string, 
/**
 * `widthxheight` of the image; read from the file at load when not given, so pages
 * reserve the slide's space before the image arrives.
 */
imageDimensions?: string, 
/**
 * Makes this a video slide: the embed (an iframe from an allowed provider, as a video
 * block's `html`); the slide's image is the video's poster.
 */
videoHtml?: string, };

export type SwipeBoundary = "none" | "hard" | "inertial";

export type SwipeBoundaries = { 
/**
 * Before the first slide (a drag to the right on it).
 */
start: SwipeBoundary, 
/**
 * After the last slide (a drag to the left on it).
 */
end: SwipeBoundary, };

export type SnapPoints = string | Array<string>;

export type ChartSeries = { 
/**
 * Series name.
 */
name: string, 
/**
 * Values, one per label.
 */
values: Array<number>, };

export type TourDate = { 
/**
 * ISO date.
 */
date: string, 
/**
 * Venue name.
 */
venue: string, 
/**
 * City.
 */
city: string, 
/**
 * Ticket link.
 */
ticketUrl?: string, };

export type MenuTab = { 
/**
 * Tab label.
 */
title: string, 
/**
 * Dishes.
 */
items: Array<MenuItem>, };

export type MenuItem = { 
/**
 * Dish name.
 */
name: string, 
/**
 * Description.
 */
description: string, 
/**
 * Price text, e.g. "12".
 */
price: string, };

export type Access = "public" | "password" | "members";

export type CollectionKind = "blog" | "events" | "gallery" | "products";

export type EventDetails = { 
/**
 * Start, `YYYY-MM-DDTHH:MM`.
 */
start: string, 
/**
 * End, `YYYY-MM-DDTHH:MM`.
 */
end: string, 
/**
 * Venue and address.
 */
location: string, };

export type Product = { 
/**
 * physical, digital, service, gift-card (paywall recognised).
 */
productType: ProductType, 
/**
 * Variants (at least one).
 */
variants: Array<Variant>, 
/**
 * Subscription plan, for subscription products.
 */
subscription?: SubscriptionPlan, 
/**
 * Weight of one unit, in the site's weight unit.
 */
weight?: number, 
/**
 * Size of one unit, in the site's dimension unit.
 */
dimensions?: Dimensions, };

export type Dimensions = { 
/**
 * Length.
 */
length: number, 
/**
 * Width.
 */
width: number, 
/**
 * Height.
 */
height: number, };

export type Variant = { 
/**
 * Stock-keeping unit, at most 60 characters; generated (`SQ` + 7 digits) when empty.
 */
sku: string, 
/**
 * Price in cents (at most 100000000).
 */
price: number, 
/**
 * Sale price in cents.
 */
salePrice: number, 
/**
 * Whether the sale price applies.
 */
onSale: boolean, 
/**
 * Units in stock, when not unlimited.
 */
qtyInStock: number, 
/**
 * Unlimited stock.
 */
unlimited: boolean, 
/**
 * Option values, e.g. size and colour.
 */
optionValues: Array<OptionValue>, };

export type OptionValue = { 
/**
 * Option name, e.g. Size.
 */
optionName: string, 
/**
 * The value, e.g. Large.
 */
value: string, };

export type SubscriptionPlan = { 
/**
 * Billing period.
 */
billingPeriod: BillingPeriod, 
/**
 * Number of billing cycles; 0 means indefinite.
 */
numBillingCycles: number, };

export type BillingPeriod = { 
/**
 * How many units.
 */
value: number, 
/**
 * weekly, monthly or yearly.
 */
unit: string, };

export type NavLink = { 
/**
 * Link text.
 */
title: string, 
/**
 * Same-site path or absolute URL.
 */
url: string, };

export type Navigation = { 
/**
 * Links in the header.
 */
main: Array<NavLink>, 
/**
 * Links in the footer.
 */
footer: Array<NavLink>, };

export type StoreSettings = { 
/**
 * One of the 27 supported currencies; default USD.
 */
selectedCurrency: string, 
/**
 * Weight and dimension units.
 */
measurementSystem: MeasurementUnit, };

export type CookieBannerSettings = { 
/**
 * Whether the banner is shown at all.
 */
isCookieBannerEnabled: boolean, 
/**
 * Banner text; empty means the default text.
 */
cookieBannerText: string, 
/**
 * Accept label; empty means 'Accept'.
 */
cookieBannerCtaText: string, 
/**
 * Decline label; empty means 'Decline'.
 */
cookieBannerOptOutCtaText: string, 
/**
 * TEXT, BUTTON or ICON; anything else becomes ICON when normalised.
 */
cookieBannerCtaVariant?: CookieBannerCtaVariant, 
/**
 * BAR or POPUP; anything else becomes BAR.
 */
cookieBannerVariant?: CookieBannerVariant, 
/**
 * LIGHT or DARK; anything else becomes DARK.
 */
cookieBannerTheme?: CookieBannerTheme, 
/**
 * OPT_IN or OPT_IN_AND_OUT; default OPT_IN.
 */
cookieBannerAcceptType?: CookieBannerAcceptType, 
/**
 * Position name (see spec 000 §5 for how it maps to TOP/BOTTOM or a corner).
 */
cookieBannerPosition: string, 
/**
 * Restrictive policy: analytics cookies are cleared until consent.
 */
isRestrictiveCookiePolicyEnabled: boolean, 
/**
 * Restrictive policy applies absolutely.
 */
isRestrictiveCookiePolicyAbsolute: boolean, 
/**
 * Visitor data restricted (the inverse of the component form's `isActivityLogEnabled`).
 */
isVisitorDataRestricted: boolean, };

export type PopupOverlaySettings = { 
/**
 * Style name; `none` hides the overlay.
 */
style: string, 
/**
 * Whether the overlay shows on mobile.
 */
enableMobile: boolean, 
/**
 * Settings version; a new version shows the overlay again.
 */
version: number, 
/**
 * Keep showing until the visitor signs up.
 */
showUntilSignup: boolean, 
/**
 * Days before showing again after closing; -1 never again.
 */
displayFrequency: number, 
/**
 * Overlay heading.
 */
title: string, 
/**
 * Overlay body text.
 */
body: string, 
/**
 * Seconds after page load before it shows.
 */
delaySeconds: number, 
/**
 * Id of a newsletter form block shown inside the overlay, if any.
 */
formId?: string, };

export type AnnouncementBarSettings = { 
/**
 * Whether it shows to visitors (`showAnnouncementBar`).
 */
enabled: boolean, 
/**
 * Its text.
 */
text: string, 
/**
 * Where clicking it goes, if anywhere.
 */
url?: string, };

export type MobileInfoBarSettings = { 
/**
 * Whether it shows (at widths of 1024 px or less).
 */
enabled: boolean, 
/**
 * Bar style name.
 */
style: string, 
/**
 * Phone number to call.
 */
phone?: string, 
/**
 * E-mail address to write to.
 */
email?: string, 
/**
 * Postal address for the map link.
 */
address?: string, 
/**
 * Opening hours text.
 */
hours?: string, };

export type CaptchaProvider = "altcha" | "recaptcha";

export type CaptchaSettings = { 
/**
 * Which provider forms with a captcha use.
 */
provider: CaptchaProvider, 
/**
 * The provider's public site key (reCAPTCHA only).
 */
siteKey?: string, };

export type CommentSettings = { 
/**
 * Whether items show comments.
 */
commentsEnabled: boolean, 
/**
 * The comment service short name, if one is used.
 */
disqusShortname?: string, };

export type HeaderFooter = { 
/**
 * Plain text shown under the site title.
 */
header: string, 
/**
 * Plain text shown in the footer.
 */
footer: string, };

export type PageContext = { 
/**
 * The website.
 */
website: WebsiteContext, 
/**
 * Website settings the runtime reads.
 */
websiteSettings: WebsiteSettingsContext, 
/**
 * The signed-in account, if any.
 */
authenticatedAccount: AccountContext | null, 
/**
 * The website roles map: role id → `true` for each role of the signed-in account on
 * this site (empty for visitors and members).
 */
websiteRoles: Partial<Record<ContributorRole, boolean>>, 
/**
 * Template id.
 */
templateId: string, 
/**
 * Template version.
 */
templateVersion: string, 
/**
 * Template installation.
 */
templateInstallation: TemplateInstallation, 
/**
 * Page type id.
 */
pageType: PageType, 
/**
 * Collection id, on collection and item pages.
 */
collectionId: string | null, 
/**
 * The collection, on collection and item pages.
 */
collection: CollectionContext | null, 
/**
 * Item id, on item pages.
 */
itemId: string | null, 
/**
 * The item, on item pages.
 */
item: ItemContext | null, 
/**
 * Demo collections (none on a self-hosted site).
 */
demoCollections: Array<string>, 
/**
 * Script and stylesheet groups by module name.
 */
rollups: { [key in string]: Rollup }, 
/**
 * Google font families.
 */
googleFonts: Array<GoogleFont>, 
/**
 * Typekit fonts.
 */
typekitFonts: Array<TypekitFont>, 
/**
 * Stylesheets of the fonts above on the server's font services (none without fonts).
 */
fontStylesheets: Array<string>, 
/**
 * Whether the announcement bar is shown.
 */
showAnnouncementBar: boolean, 
/**
 * Permission ids of the signed-in account.
 */
accessPermissions: Array<number>, 
/**
 * Domain of the configuration area.
 */
appDomain: string, 
/**
 * Page id (pages) or item id (items), for census payloads.
 */
pageId: string | null, 
/**
 * Document title.
 */
pageTitle: string, 
/**
 * Path of this page.
 */
pagePath: string, 
/**
 * The filters of a content link's query string.
 */
filters: { [key in string]: string }, 
/**
 * Feature flags and A/B tests from the site settings.
 */
features: Record<string, unknown>, 
/**
 * Whether visitor analytics may be recorded on this view (spec 000 §6).
 */
analyticsEnabled: boolean, 
/**
 * The visitor's `SS_ANALYTICS_ID`, when the server knows it for this page alone.
 */
analyticsId: string | null, 
/**
 * The visitor's marketing id, `SS_MID`, likewise.
 */
marketingId: string | null, 
/**
 * The visitor's `SS_SESSION_ID`, likewise.
 */
sessionId: string | null, };

export type WebsiteContext = { 
/**
 * Website id.
 */
id: string, 
/**
 * Public origin.
 */
baseUrl: string, 
/**
 * Developer mode.
 */
developerMode: boolean, 
/**
 * Cloneable.
 */
cloneable: boolean, 
/**
 * Typekit id.
 */
typekitId: string | null, 
/**
 * Site title.
 */
siteTitle: string, 
/**
 * Locale.
 */
language: string, };

export type WebsiteSettingsContext = { 
/**
 * Comment service short name.
 */
disqusShortname: string | null, 
/**
 * Comments on.
 */
commentsEnabled: boolean, 
/**
 * The comment-count script, when comments are on and a short name is given.
 */
commentCountScriptUrl: string | null, 
/**
 * The script that shows an item's comment thread, when comments are on and a short name is given.
 */
commentThreadScriptUrl: string | null, 
/**
 * Popup overlay settings.
 */
popupOverlaySettings: PopupOverlaySettings, 
/**
 * Mobile information bar settings.
 */
mobileInfoBarSettings: MobileInfoBarSettings, 
/**
 * Pinterest overlay options.
 */
pinterestOverlayOptions: PinterestOverlayOptions, 
/**
 * Cookie settings, component naming form.
 */
cookieSettings: CookieSettingsContext, 
/**
 * Site badge type.
 */
ssBadgeType: number, 
/**
 * Store settings.
 */
storeSettings: StoreSettingsContext, 
/**
 * Announcement bar.
 */
announcementBarSettings: AnnouncementBarSettings, 
/**
 * Captcha settings.
 */
captchaSettings: CaptchaSettings, 
/**
 * Where the reCAPTCHA script loads from (the server's `[forms] recaptcha_script_url`).
 */
captchaScriptUrl: string, 
/**
 * Escape key opens the login prompt.
 */
useEscapeKeyToLogin: boolean, };

export type PinterestOverlayOptions = { 
/**
 * Mode (`disabled` unless configured).
 */
mode: string, };

export type StoreSettingsContext = { 
/**
 * Currency code, default USD.
 */
selectedCurrency: string, };

export type CookieSettingsContext = { 
/**
 * Whether the banner is enabled.
 */
isCookieBannerEnabled: boolean, 
/**
 * Banner text (empty means the default text).
 */
cookieBannerText: string, 
/**
 * Accept label.
 */
cookieBannerCtaText: string, 
/**
 * Decline label.
 */
cookieBannerOptOutCtaText: string, 
/**
 * CTA variant as written (normalised by the client).
 */
cookieBannerCtaVariant: string | null, 
/**
 * Variant as written.
 */
cookieBannerVariant: string | null, 
/**
 * Theme as written.
 */
cookieBannerTheme: string | null, 
/**
 * Accept type as written.
 */
cookieBannerAcceptType: string | null, 
/**
 * Position as written.
 */
cookieBannerPosition: string, 
/**
 * From `isRestrictiveCookiePolicyEnabled`.
 */
isAnalyticsCookiesDisabled: boolean, 
/**
 * The inverse of `isVisitorDataRestricted`.
 */
isActivityLogEnabled: boolean, 
/**
 * Restrictive policy is absolute.
 */
isRestrictiveCookiePolicyAbsolute: boolean, };

export type AccountContext = { 
/**
 * Account id.
 */
id: string, };

export type TemplateInstallation = { 
/**
 * The template website.
 */
templateWebsite: TemplateWebsite, };

export type TemplateWebsite = { 
/**
 * Id.
 */
id: string, 
/**
 * Identifier.
 */
identifier: string, };

export type CollectionContext = { 
/**
 * Title.
 */
title: string, 
/**
 * Collection type number.
 */
type: number, 
/**
 * 1 public, 2 password, 3 members.
 */
permissionType: number, };

export type ItemContext = { 
/**
 * Title.
 */
title: string, 
/**
 * Record type id.
 */
recordType: ItemType, };

export type Rollup = { 
/**
 * Script URLs.
 */
js: Array<string>, 
/**
 * Stylesheet URLs.
 */
css: Array<string>, };

export type GoogleFont = { 
/**
 * Family name as included.
 */
includeName: string, };

export type TypekitFont = { 
/**
 * Font id.
 */
id: string, 
/**
 * Variations.
 */
variations: Array<string>, };

export type TextBlock = { 
/**
 * Rich text (headings, paragraphs, lists, links, emphasis).
 */
html: string, };

export type ImageBlock = { 
/**
 * Path under `images/`, e.g. `porch.jpg`.
 */
src: string, 
/**
 * Alternative text; required unless the image is decorative.
 */
alt: string, 
/**
 * Caption shown under the image.
 */
caption?: string, 
/**
 * `widthxheight` of the original (filled in from the file when omitted).
 */
imageDimensions?: string, 
/**
 * Focal point `x,y` in fractions; default `0.5,0.5`.
 */
focalPoint?: string, 
/**
 * cover, contain or none.
 */
cropMode?: string, 
/**
 * left, center or right.
 */
alignment?: string, 
/**
 * Link followed when the image is clicked.
 */
clickThroughUrl?: string, 
/**
 * Opens the image in the lightbox when clicked.
 */
lightbox: boolean, 
/**
 * Scales the width the image is loaded at (1 when not given; 0 or more), e.g. 0.5 for
 * an image that may look softer, 1.5 for one that is zoomed into.
 */
sizeAdjustment?: number, 
/**
 * The lowest device pixel ratio the image is loaded for (a 1x screen may still get 2x).
 */
dprMin?: number, 
/**
 * The highest device pixel ratio the image is loaded for (a 3x phone may get 2x).
 */
dprMax?: number, 
/**
 * How a width is asked of the server: `queryString` (`photo.jpg?format=750w`, the
 * default) or `filename` (`photo.jpg/750w`), for caches that ignore query strings.
 */
sizeFormat?: string, 
/**
 * Gives the image a `srcset` of every ladder width, so the browser picks one for its
 * screen (before and without the script) instead of the image loader measuring it.
 */
srcset: boolean, 
/**
 * A shape mask (one of [`IMAGE_SHAPE_NAMES`](super::IMAGE_SHAPE_NAMES)): the image fills a
 * frame of the shape's proportions, cropped around its focal point and clipped to the shape.
 */
shape?: string, };

export type VideoBlock = { 
/**
 * Embed HTML (an iframe or object, see [`video_embed_type`]); sanitised when the site
 * is loaded, so only https iframes reach the page.
 */
html: string, 
/**
 * The provider's name, e.g. YouTube, Vimeo, self.
 */
providerName: string, 
/**
 * Title for assistive technology and for visitors without JavaScript.
 */
title: string, 
/**
 * Link to the video, shown when JavaScript is off.
 */
url?: string, 
/**
 * Poster image under `images/`.
 */
thumbnail?: string, 
/**
 * none, fit or fill.
 */
mode?: string, 
/**
 * Shows a play overlay over the poster until clicked.
 */
overlay: boolean, 
/**
 * Starts playing on its own (off under `nomotion=true` and reduced motion).
 */
autoplay: boolean, };

export type EmbedBlock = { 
/**
 * The embed code.
 */
html: string, 
/**
 * Title for assistive technology.
 */
title: string, };

export type MapBlock = { 
/**
 * Centre latitude (default 40.720882).
 */
mapLat: number, 
/**
 * Centre longitude (default -74.000988).
 */
mapLng: number, 
/**
 * Marker latitude; null means the centre.
 */
markerLat: number | null, 
/**
 * Marker longitude; null means the centre.
 */
markerLng: number | null, 
/**
 * Zoom level (default 12).
 */
mapZoom: number, 
/**
 * Name of the place.
 */
addressTitle: string, 
/**
 * First address line.
 */
addressLine1: string, 
/**
 * Second address line.
 */
addressLine2: string, 
/**
 * Country.
 */
addressCountry: string, 
/**
 * One of the six styles; default Grayscale.
 */
style: string, 
/**
 * Show place labels.
 */
showLabels: boolean, 
/**
 * Show terrain.
 */
showTerrain: boolean, 
/**
 * Map can be dragged.
 */
draggable: boolean, 
/**
 * Mouse wheel zooms.
 */
scrollwheel: boolean, 
/**
 * Show zoom controls.
 */
showControls: boolean, 
/**
 * Hide every default control of the map (`disableDefaultUI`).
 */
disableDefaultUI: boolean, 
/**
 * The marker can be dragged.
 */
markerDraggable: boolean, 
/**
 * A click on the marker follows the place's link.
 */
linkOnClick: boolean, };

export type FormBlock = { 
/**
 * Form id, unique in the site (`formId` of the save call).
 */
formId: string, 
/**
 * Heading above the fields.
 */
title: string, 
/**
 * The fields, in order.
 */
fields: Array<FormField>, 
/**
 * Submit button text.
 */
submitButtonText: string, 
/**
 * Text shown after a successful submission.
 */
successMessage: string, 
/**
 * Optional HTML shown after the success text (sanitised).
 */
postSubmitHtml: string, 
/**
 * Same-site path visitors are sent to after success, instead of the message.
 */
successRedirect?: string, 
/**
 * Whether the form asks for a captcha.
 */
captcha: boolean, 
/**
 * Disclaimer text shown above the submit button.
 */
disclaimer: string, 
/**
 * Whether the browser checks the whole form before sending it (true by default); false
 * sends the entries as they are and the server's checks answer (000 §5: "The check
 * can be switched off by the caller").
 */
validate: boolean, };

export type NewsletterBlock = { 
/**
 * Form id (`formId` of the save call).
 */
formId: string, 
/**
 * Heading.
 */
title: string, 
/**
 * Text under the heading.
 */
description: string, 
/**
 * Name of the mailing list addresses are added to.
 */
mailingList: string, 
/**
 * Submit button text.
 */
submitButtonText: string, 
/**
 * Text shown after signing up.
 */
successMessage: string, 
/**
 * Whether the form asks for a captcha.
 */
captcha: boolean, };

export type DonationButtonBlock = { 
/**
 * The donation page id.
 */
donatePageId: string, 
/**
 * Button text.
 */
buttonText: string, 
/**
 * Suggested amounts, in cents.
 */
suggestedAmountsCents: Array<number>, };

export type AccordionBlock = { 
/**
 * The items.
 */
accordionItems: Array<AccordionItem>, 
/**
 * Optional description above the items.
 */
description: string, 
/**
 * Whether several items may be open at once.
 */
allowMultipleOpen: boolean, 
/**
 * Whether the first item starts expanded.
 */
isFirstItemExpanded: boolean, };

export type MarqueeBlock = { 
/**
 * The text that scrolls.
 */
text: string, 
/**
 * Wave frequency (default 1).
 */
waveFrequency: number, 
/**
 * Wave intensity (default 0).
 */
waveIntensity: number, 
/**
 * left or right (default left).
 */
animationDirection: string, 
/**
 * Speed factor (default 1).
 */
animationSpeed: number, 
/**
 * Pause while hovered (default false).
 */
pausedOnHover: boolean, };

export type ScaledTextBlock = { 
/**
 * The text.
 */
text: string, 
/**
 * Heading level 1–4, or 0 for a paragraph.
 */
level: number, };

export type ButtonBlock = { 
/**
 * Button text.
 */
buttonText: string, 
/**
 * Where it goes.
 */
clickthroughUrl: string, 
/**
 * left, center or right.
 */
alignment: string, 
/**
 * small, medium or large.
 */
size: string, 
/**
 * Opens in a new window.
 */
newWindow: boolean, };

export type MemberAreaBlock = { 
/**
 * Heading.
 */
title: string, 
/**
 * Description.
 */
description: string, 
/**
 * Exactly two price options (left and right).
 */
pricingOptions: Array<PricingOption>, };

export type SummaryBlock = { 
/**
 * The collection summarised, by its folder name.
 */
collection: string, 
/**
 * wall, carousel, list or grid.
 */
design: string, 
/**
 * Heading.
 */
headerText: string, 
/**
 * How many items.
 */
pageSize: number, 
/**
 * 'Auto' or a ratio such as '1.5'.
 */
imageAspectRatio: string, 
/**
 * Show titles.
 */
showTitle: boolean, 
/**
 * Show excerpts.
 */
showExcerpt: boolean, 
/**
 * Only items with this category.
 */
filterCategory?: string, };

export type GalleryBlock = { 
/**
 * The design; the spec's default design, base (`stacked`), when not given (001 §9).
 */
design: GalleryDesign, 
/**
 * The slides.
 */
slides: Array<GallerySlide>, 
/**
 * 'Auto' or a ratio (width ÷ height): sets the placeholder an image keeps until it has
 * loaded, 100 ÷ the ratio percent of its width high (65 % for 'Auto'; 001 §9).
 */
imageAspectRatio: string, 
/**
 * Whether video slides play among the images (true by default); a gallery that says
 * false shows every slide as an image, a video slide its poster linked to the player.
 */
mixedContent: boolean, 
/**
 * A list's image width in percent of the row (1–100; 100 when not given: the caption
 * under the image, otherwise beside it).
 */
listImageSize?: number, 
/**
 * Square thumbnails in a slideshow's strip (true by default); false keeps each image's
 * proportions (16:9 for a video slide).
 */
"square-thumbs": boolean, 
/**
 * A slideshow crops every slide to one frame of the placeholder's proportions
 * (`imageAspectRatio`) instead of showing each image whole.
 */
"auto-crop": boolean, 
/**
 * Height of a slideshow's thumbnails in px (when not given, they share the strip's
 * width by `thumbnails-per-row`).
 */
"thumbnail-strip-height"?: number, 
/**
 * Space between a slideshow and its thumbnail strip in px (8 when not given).
 */
"thumbnail-strip-margin"?: number, 
/**
 * Slides per row (grid, carousel).
 */
slidesPerRow?: number, 
/**
 * Opens slides in the lightbox.
 */
lightbox: boolean, 
/**
 * 'light', otherwise dark.
 */
lightboxTheme: string, 
/**
 * Column width of auto-columns designs: a positive number (in a site file also a string
 * of digits, read as one when the site is loaded; 001 §5 "strings parsed as integer").
 */
columnWidth?: number, 
/**
 * Gutter in px.
 */
gutter?: number, 
/**
 * How an autogrid or autocolumns gallery rounds its column count: `min` (the default)
 * rounds down, `max` up (001 §9: "behaviour min (floor) else ceil").
 */
behavior?: string, 
/**
 * Autoplay.
 */
autoplay: boolean, 
/**
 * Autoplay picks a slide at random, never the current one, instead of the next (the
 * gallery option `autoplayOptions.randomize`, 001 §3).
 */
"autoplay-randomize": boolean, 
/**
 * Autoplay interval in seconds.
 */
"autoplay-duration"?: number, 
/**
 * left, center or right.
 */
"active-alignment"?: string, 
/**
 * Thumbnails per row under a slideshow.
 */
"thumbnails-per-row"?: number, 
/**
 * Show a thumbnail strip.
 */
thumbnails: boolean, 
/**
 * Caption position.
 */
"meta-position"?: string, 
/**
 * Slideshow transition: fade, ken-burns, scroll, swipe, new-swipe.
 */
transition?: string, 
/**
 * A newSwipe slideshow's boundaries at its first and last slide (none at either end
 * when not given: the slideshow wraps).
 */
boundaries?: SwipeBoundaries, 
/**
 * Where a released newSwipe drag settles (`none` when not given).
 */
snapPoints?: SnapPoints, 
/**
 * Enables gallery history (deep links to slides).
 */
historyEnabled: boolean, 
/**
 * Space between grid cells in px (grid; 20 by default).
 */
padding?: number, 
/**
 * Space between a slider strip's slides in px (slider; 10 by default).
 */
vSize?: number, 
/**
 * What a click on a slideshow slide does: next, previous or side (next by default).
 */
clickBehavior?: string, 
/**
 * What a click on a slider strip's current slide, or a slideshow's current thumbnail,
 * does: next, previous or none (next by default).
 */
activeSlideClickBehavior?: string, };

export type AudioBlock = { 
/**
 * File under `files/`.
 */
src: string, 
/**
 * Track title.
 */
title: string, 
/**
 * Artist.
 */
author: string, };

export type CalendarBlock = { 
/**
 * The events collection, by folder name.
 */
collection: string, };

export type ChartBlock = { 
/**
 * bar, line or pie.
 */
chartType: string, 
/**
 * Title (also the table caption without JavaScript).
 */
title: string, 
/**
 * Column labels.
 */
labels: Array<string>, 
/**
 * Named series, one value per label.
 */
series: Array<ChartSeries>, };

export type SearchBlock = { 
/**
 * Placeholder text.
 */
placeholder: string, 
/**
 * Limit results to one collection, by folder name.
 */
collection?: string, 
/**
 * Show a live preview of results while typing.
 */
preview: boolean, };

export type TourDatesBlock = { 
/**
 * Artist name.
 */
artist: string, 
/**
 * The dates.
 */
dates: Array<TourDate>, };

export type RestaurantBookingBlock = { 
/**
 * opentable or tock.
 */
provider: string, 
/**
 * The provider's restaurant id.
 */
restaurantId: string, 
/**
 * Restaurant name, shown without JavaScript.
 */
restaurantName: string, 
/**
 * Phone number, shown without JavaScript.
 */
phone?: string, };

export type MenuTabsBlock = { 
/**
 * The tabs (one active at a time).
 */
tabs: Array<MenuTab>, };

export type SocialSharingBlock = { 
/**
 * Services, e.g. email, facebook, x, linkedin, pinterest.
 */
services: Array<string>, 
/**
 * An X account to follow (spec 001 §3 "Follow button": username), without the `@`;
 * the block then also offers a follow button.
 */
followUsername?: string, };

export type ProductBlock = { 
/**
 * The product item, as `collection/item` folder and file names.
 */
product: string, 
/**
 * Offer a quick view.
 */
quickView: boolean, };

export type CartBlock = { 
/**
 * full (the cart page) or badge.
 */
variant: string, };

export type MoneyJson = { 
/**
 * ISO currency code.
 */
currencyCode: string, 
/**
 * Amount in major units.
 */
value: number, };

export type PlanTerms = { 
/**
 * What the shopper pays ([`installment_text`]), e.g. `4 payments of $25.00, every 2
 * weeks ($100.00 in all)`.
 */
price: string, 
/**
 * How the plan renews ([`renewal_text`]), e.g. `Renews every 2 weeks, 4 payments in all`.
 */
renewal: string, };

export type CartEntry = { 
/**
 * The variant's SKU; also the entry's id in the cart's routes.
 */
sku: string, 
/**
 * The product item's id.
 */
itemId: string, 
/**
 * The product's title.
 */
title: string, 
/**
 * Option values as `Name: value`.
 */
options: Array<string>, 
/**
 * physical, digital, service, gift-card.
 */
productType: string, 
/**
 * Units.
 */
quantity: number, 
/**
 * Price of one unit when it was added, in minor units.
 */
unitPriceCents: number, 
/**
 * `quantity × unitPriceCents`.
 */
totalCents: number, 
/**
 * Whether it is a subscription.
 */
subscription: boolean, 
/**
 * A subscription's plan terms, each payment being `totalCents` (see
 * [`crate::commerce::cart::change::describe_plans`]); absent for anything else.
 */
planTerms?: PlanTerms, };

export type CartCoupon = { 
/**
 * The code as the store spells it (or as typed, when invalid).
 */
code: string, 
/**
 * What it takes off this cart, in minor units (0 when invalid).
 */
discountCents: number, };

export type ShippingOption = { 
/**
 * Stable id, chosen by the buyer.
 */
id: string, 
/**
 * Name shown to the buyer.
 */
name: string, 
/**
 * What it costs, in minor units, whatever the cart holds.
 */
costCents: number, };

export type TaxRule = { 
/**
 * Name shown to the buyer, e.g. "New York sales tax".
 */
name: string, 
/**
 * ISO country code it applies in.
 */
country: string, 
/**
 * Region (state) code it applies in; empty for the whole country.
 */
region: string, 
/**
 * Rate in thousandths of a percent: 8875 is 8.875 %.
 */
rateMilliPercent: number, };

export type ShippingLocation = { 
/**
 * ISO country code.
 */
country: string, 
/**
 * Region or state code.
 */
region: string, 
/**
 * Postal code.
 */
postalCode: string, };

export type ShoppingCart = { 
/**
 * The cart id (the cart cookie's value).
 */
id: string, 
/**
 * The site's id.
 */
websiteId: string, 
/**
 * The order placed from it, once purchased.
 */
orderId: string, 
/**
 * When it was made (unix ms).
 */
created: number, 
/**
 * When it was last changed (unix ms; 0 for carts stored before this was kept, whose
 * `created` stands in). An open cart unchanged for `[commerce] cart_lifetime_secs`
 * expires.
 */
updated: number, 
/**
 * Whether it has been checked out.
 */
isPurchased: boolean, 
/**
 * Its lines.
 */
entries: Array<CartEntry>, 
/**
 * Shipping options the buyer may pick from (empty when nothing ships).
 */
shippingOptions: Array<ShippingOption>, 
/**
 * Tax rules that apply to where it ships.
 */
applicableTaxRules: Array<TaxRule>, 
/**
 * Codes the buyer entered, in order.
 */
coupons: Array<string>, 
/**
 * Entered codes the store accepts.
 */
validCoupons: Array<CartCoupon>, 
/**
 * Entered codes the store does not know.
 */
invalidCoupons: Array<CartCoupon>, 
/**
 * The chosen shipping option.
 */
selectedShippingOption: ShippingOption | null, 
/**
 * Where it ships.
 */
shippingLocation: ShippingLocation, 
/**
 * Sum of the entries.
 */
subtotalCents: number, 
/**
 * Tax on the discounted subtotal.
 */
taxCents: number, 
/**
 * The chosen shipping option's cost, when something ships.
 */
shippingCostCents: number, 
/**
 * What the valid coupons take off (at most the subtotal).
 */
discountCents: number, 
/**
 * Subtotal − discount + shipping + tax.
 */
grandTotalCents: number, 
/**
 * Units across all entries.
 */
totalQuantity: number, 
/**
 * The subtotal as a money object in the store currency.
 */
subtotalAmount: MoneyJson, 
/**
 * Some entry is digital.
 */
hasDigital: boolean, 
/**
 * Every entry is digital (and there is at least one).
 */
purelyDigital: boolean, 
/**
 * Some entry is physical.
 */
requiresShipping: boolean, };

export type ErrorGroup = { 
/**
 * The shared fingerprint.
 */
fingerprint: string, 
/**
 * The message of the first error seen.
 */
message: string, 
/**
 * The script file of the first error seen.
 */
file: string, 
/**
 * Its line.
 */
line: number | null, 
/**
 * Its column.
 */
column: number | null, 
/**
 * The page of the latest error.
 */
lastUrl: string, 
/**
 * When the first error arrived (unix ms).
 */
firstSeen: number, 
/**
 * When the latest error arrived (unix ms).
 */
lastSeen: number, 
/**
 * How many errors fell into the group.
 */
count: number, };

export type ErrorReport = { 
/**
 * The event name the loader gave (e.g. `error`, `unhandledrejection`).
 */
event: string, 
/**
 * The website the page belongs to.
 */
websiteId: string, 
/**
 * The template of the page.
 */
templateId: string, 
/**
 * The page the error happened on.
 */
url: string, 
/**
 * The visitor's browser.
 */
userAgent: string, 
/**
 * Which part of the client raised it.
 */
app: string, 
/**
 * The error message.
 */
message: string, 
/**
 * The stack, at most 5,000 characters.
 */
stack: string, 
/**
 * The script file.
 */
file: string, 
/**
 * The line in the file.
 */
line: number | null, 
/**
 * The column in the line.
 */
column: number | null, 
/**
 * The client's time (unix ms), if sent.
 */
timestamp: number | null, 
/**
 * The page load it came from, if sent.
 */
pageLoadId: string | null, 
/**
 * How many times the page saw it before sending it (1 to [`MAX_REPORT_COUNT`]).
 */
count: number, };

export type RecentError = { 
/**
 * When it arrived (unix ms).
 */
at: number, 
/**
 * The fingerprint of its group.
 */
fingerprint: string, 
/**
 * The event name the loader gave (e.g. `error`, `unhandledrejection`).
 */
event: string, 
/**
 * The website the page belongs to.
 */
websiteId: string, 
/**
 * The template of the page.
 */
templateId: string, 
/**
 * The page the error happened on.
 */
url: string, 
/**
 * The visitor's browser.
 */
userAgent: string, 
/**
 * Which part of the client raised it.
 */
app: string, 
/**
 * The error message.
 */
message: string, 
/**
 * The stack, at most 5,000 characters.
 */
stack: string, 
/**
 * The script file.
 */
file: string, 
/**
 * The line in the file.
 */
line: number | null, 
/**
 * The column in the line.
 */
column: number | null, 
/**
 * The client's time (unix ms), if sent.
 */
timestamp: number | null, 
/**
 * The page load it came from, if sent.
 */
pageLoadId: string | null, 
/**
 * How many times the page saw it before sending it (1 to [`MAX_REPORT_COUNT`]).
 */
count: number, };

export type VitalSummary = { 
/**
 * The 75th percentile.
 */
p75: number, 
/**
 * How many values it covers.
 */
count: number, };

export type PageVitals = { 
/**
 * The path label (a known path or `other`).
 */
path: string, 
/**
 * LCP p75 in ms, when measured.
 */
lcp: VitalSummary | null, 
/**
 * INP p75 in ms.
 */
inp: VitalSummary | null, 
/**
 * CLS p75, unitless.
 */
cls: VitalSummary | null, 
/**
 * FCP p75 in ms.
 */
fcp: VitalSummary | null, 
/**
 * TTFB p75 in ms.
 */
ttfb: VitalSummary | null, };

export type EditName = "UserSavesSiteHeaderFooter" | "UserSavesLanguages" | "UserChangesItemVisibility" | "UserMovesCollectionItem" | "UserChangesBlogThumbnail" | "UserRemovesBlogThumbnail" | "UserSavesCollectionSettings" | "UserMovesCollection" | "UserSavesPageSettings" | "UserSavesBlockContent";

export type EditEvent = { 
/**
 * The event name, e.g. `UserChangesItemVisibility`.
 */
name: EditName, 
/**
 * The account that made the edit.
 */
actor: string, 
/**
 * What was done, e.g. `save`, `hide`, `show`.
 */
action: string, 
/**
 * The kind of object edited, e.g. `item`, `collection`, `site-header-footer`.
 */
objectType: string, 
/**
 * The edited object's id.
 */
objectId: string, 
/**
 * The product page the edit was made on, e.g. `config`.
 */
productPage: string, 
/**
 * The section of that page, e.g. `settings-modal`.
 */
productSection: string, 
/**
 * The site paths whose published pages the edit changes (none for site-wide and
 * configuration edits); an open page re-renders when its path is listed.
 */
paths?: Array<string>, };

export type StreamName = "edits" | "errors";

export type ResetReason = "epoch-changed" | "beyond-history" | "ahead-of-stream";

export type Frame = { "type": "hello", 
/**
 * The stream.
 */
stream: StreamName, 
/**
 * The current epoch.
 */
epoch: string, 
/**
 * The offset of the latest event (0 when none yet).
 */
offset: number, } | { "type": "event", 
/**
 * The stream.
 */
stream: StreamName, 
/**
 * The event's epoch.
 */
epoch: string, 
/**
 * The event's offset.
 */
offset: number, 
/**
 * When it was published (unix ms).
 */
at: number, 
/**
 * The event itself.
 */
data: unknown, } | { "type": "reset", 
/**
 * The stream.
 */
stream: StreamName, 
/**
 * The current epoch.
 */
epoch: string, 
/**
 * The offset of the latest event; live events continue after it.
 */
offset: number, 
/**
 * `epoch-changed`, `beyond-history` or `ahead-of-stream`.
 */
reason: ResetReason, };

export type StoredEvent = { 
/**
 * The history generation the offset belongs to.
 */
epoch: string, 
/**
 * The event's position, from 1, strictly increasing.
 */
offset: number, 
/**
 * When it was published (unix ms).
 */
at: number, 
/**
 * The event itself.
 */
data: unknown, };

export type RecentEvents = { 
/**
 * The stream.
 */
stream: StreamName, 
/**
 * The current epoch.
 */
epoch: string, 
/**
 * The latest offset (the last listed event's, when any are listed).
 */
offset: number, 
/**
 * The events, oldest first.
 */
events: Array<StoredEvent>, };

export type OrderKind = "order" | "subscription" | "contribution";

export type OrderStatus = "unpaid" | "paid" | "cancelled" | "expired";

export type OrderSummary = { 
/**
 * Order id.
 */
id: string, 
/**
 * When it was placed (unix ms).
 */
created: number, 
/**
 * The buyer's email.
 */
customerEmail: string, 
/**
 * How many items were bought (the sum of the quantities).
 */
itemCount: number, 
/**
 * What was charged, as a money object.
 */
grandTotal: MoneyJson, 
/**
 * What was charged, in minor units.
 */
grandTotalCents: number, 
/**
 * Order, subscription or contribution.
 */
kind: OrderKind, 
/**
 * Where its payment stands.
 */
status: OrderStatus, 
/**
 * Until when (unix ms) it holds its stock while unpaid; `null` when it holds none.
 */
holdUntil: number | null, };

export type FormKind = "form" | "newsletter";

export type FormSummary = { 
/**
 * The form's id, as the export takes it.
 */
formId: string, 
/**
 * The form block's title (may be empty).
 */
title: string, 
/**
 * `form` or `newsletter`.
 */
kind: FormKind, };

export type PageViews = { 
/**
 * Since midnight UTC.
 */
today: number, 
/**
 * In the last 60 minutes.
 */
lastHour: number, };

export type VisitorStats = { 
/**
 * Visitors seen in the last five minutes.
 */
liveVisitors: number, 
/**
 * Page views counted by the census ingest.
 */
pageViews: PageViews, };

export type StatsRange = "24h" | "30d";

export type TrafficPoint = { 
/**
 * When the bucket starts (unix ms).
 */
start: number, 
/**
 * Page views counted in the bucket.
 */
pageViews: number, 
/**
 * Distinct visitors seen in the bucket.
 */
visitors: number, };

export type TrafficReport = { 
/**
 * The window the points cover.
 */
range: StatsRange, 
/**
 * How long one bucket lasts (ms).
 */
bucketMs: number, 
/**
 * One point per bucket, oldest first, the last the current bucket.
 */
points: Array<TrafficPoint>, };

export type KeyCount = { 
/**
 * The page path or referring site.
 */
key: string, 
/**
 * Page views.
 */
count: number, };

export type TopReport = { 
/**
 * The window counted.
 */
range: StatsRange, 
/**
 * The most viewed page paths, most first.
 */
pages: Array<KeyCount>, 
/**
 * The sites that sent the most page views, most first.
 */
referrers: Array<KeyCount>, };

export type ErrorPoint = { 
/**
 * When the hour starts (unix ms).
 */
start: number, 
/**
 * Errors admitted in the hour (a record seen `count` times counts `count`).
 */
errors: number, };

export type GroupHours = { 
/**
 * The group.
 */
fingerprint: string, 
/**
 * 24 counts, one per hour.
 */
counts: Array<number>, };

export type ErrorHoursReport = { 
/**
 * How long one bucket lasts (ms): an hour.
 */
bucketMs: number, 
/**
 * All errors per hour, 24 points, oldest first.
 */
points: Array<ErrorPoint>, 
/**
 * The groups with errors in the last 24 hours.
 */
groups: Array<GroupHours>, };

export type VitalPoint = { 
/**
 * When the bucket starts (unix ms).
 */
start: number, 
/**
 * LCP p75 in ms, when measured in the bucket.
 */
lcp: VitalSummary | null, 
/**
 * INP p75 in ms.
 */
inp: VitalSummary | null, 
/**
 * CLS p75, unitless.
 */
cls: VitalSummary | null, 
/**
 * FCP p75 in ms.
 */
fcp: VitalSummary | null, 
/**
 * TTFB p75 in ms.
 */
ttfb: VitalSummary | null, };

export type VitalSeriesReport = { 
/**
 * The window the points cover.
 */
range: StatsRange, 
/**
 * How long one bucket lasts (ms).
 */
bucketMs: number, 
/**
 * One point per bucket, oldest first, the last the current bucket.
 */
points: Array<VitalPoint>, };

export const ISLAND_KINDS: readonly IslandKind[] = ["menu-tabs", "form", "newsletter", "accordion", "marquee", "gallery", "button", "announcement-bar", "member-area", "scaled-text", "restaurant-booking", "social-sharing", "add-to-cart", "cart-badge", "cart", "video", "quick-view", "map", "summary", "search"];
