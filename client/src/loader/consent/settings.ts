// Cookie banner settings as the banner uses them (spec 000 §3, §5). Two naming forms
// exist: the API form (`isRestrictiveCookiePolicyEnabled`, `isVisitorDataRestricted`) and
// the component form the page context carries (`isAnalyticsCookiesDisabled`,
// `isActivityLogEnabled`). Either is accepted; every value is normalised to one the banner
// can render: empty text gives the default text, an unknown variant BAR, theme DARK, CTA
// variant ICON, accept type OPT_IN; bar positions are TOP or BOTTOM, popup positions one of
// four corners (bottom-left by default).

/** The default banner text (spec 000 §9). */
export const DEFAULT_BANNER_TEXT =
  'By using this website, you agree to our use of cookies. We use cookies to provide you with a great experience and to help our website run effectively.';
/** The default accept label. */
export const DEFAULT_ACCEPT_LABEL = 'Accept';
/** The default decline label. */
export const DEFAULT_DECLINE_LABEL = 'Decline';

const VARIANTS = ['BAR', 'POPUP'] as const;
const THEMES = ['LIGHT', 'DARK'] as const;
const CTA_VARIANTS = ['TEXT', 'BUTTON', 'ICON'] as const;
const ACCEPT_TYPES = ['OPT_IN', 'OPT_IN_AND_OUT'] as const;
const CORNERS = ['TOP_LEFT', 'TOP_RIGHT', 'BOTTOM_LEFT', 'BOTTOM_RIGHT'] as const;

/** Where a bar sits. */
export type BarPosition = 'TOP' | 'BOTTOM';
/** Where a popup sits. */
export type PopupPosition = (typeof CORNERS)[number];

/** The component naming form (what the page context carries). */
export interface ComponentCookieSettings {
  isCookieBannerEnabled: boolean;
  cookieBannerText: string;
  cookieBannerCtaText: string;
  cookieBannerOptOutCtaText: string;
  cookieBannerCtaVariant: string | null;
  cookieBannerVariant: string | null;
  cookieBannerTheme: string | null;
  cookieBannerAcceptType: string | null;
  cookieBannerPosition: string;
  isAnalyticsCookiesDisabled: boolean;
  isActivityLogEnabled: boolean;
  isRestrictiveCookiePolicyAbsolute: boolean;
}

/** The API naming form. */
export type ApiCookieSettings = Omit<ComponentCookieSettings, 'isAnalyticsCookiesDisabled' | 'isActivityLogEnabled'> & {
  isRestrictiveCookiePolicyEnabled: boolean;
  isVisitorDataRestricted: boolean;
};

/** Banner settings ready to render. */
export interface BannerSettings {
  text: string;
  acceptLabel: string;
  declineLabel: string;
  variant: (typeof VARIANTS)[number];
  theme: (typeof THEMES)[number];
  ctaVariant: (typeof CTA_VARIANTS)[number];
  acceptType: (typeof ACCEPT_TYPES)[number];
  /** For a bar: TOP or BOTTOM; for a popup: a corner. */
  position: BarPosition | PopupPosition;
  /** Restrictive policy: analytics cookies only after Accept. */
  isAnalyticsCookiesDisabled: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bool = (v: unknown): boolean => v === true;
const pick = <T extends string>(allowed: readonly T[], v: unknown, fallback: T): T => {
  const upper = str(v).trim().toUpperCase();
  return (allowed as readonly string[]).includes(upper) ? (upper as T) : fallback;
};

/** Text as plain characters: markup dropped, whitespace collapsed (`<p></p>` is empty). */
export function plainText(raw: string): string {
  const template = document.createElement('template');
  template.innerHTML = raw;
  return (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A position name in canonical form: upper case, words joined by `_`. */
function canonicalPosition(raw: string): string {
  return raw.trim().toUpperCase().replace(/[\s-]+/g, '_');
}

/** A bar's position: top, top-left and top-right are TOP; anything else BOTTOM. */
export function barPosition(raw: string): BarPosition {
  return ['TOP', 'TOP_LEFT', 'TOP_RIGHT'].includes(canonicalPosition(raw)) ? 'TOP' : 'BOTTOM';
}

/** A popup's position: one of the four corners, bottom-left by default. */
export function popupPosition(raw: string): PopupPosition {
  return pick(CORNERS, canonicalPosition(raw), 'BOTTOM_LEFT');
}

/** Maps the API form to the component form; input already in component form is kept. */
export function toComponentForm(input: Record<string, unknown>): ComponentCookieSettings {
  const api = 'isRestrictiveCookiePolicyEnabled' in input || 'isVisitorDataRestricted' in input;
  return {
    isCookieBannerEnabled: bool(input.isCookieBannerEnabled),
    cookieBannerText: str(input.cookieBannerText),
    cookieBannerCtaText: str(input.cookieBannerCtaText),
    cookieBannerOptOutCtaText: str(input.cookieBannerOptOutCtaText),
    cookieBannerCtaVariant: typeof input.cookieBannerCtaVariant === 'string' ? input.cookieBannerCtaVariant : null,
    cookieBannerVariant: typeof input.cookieBannerVariant === 'string' ? input.cookieBannerVariant : null,
    cookieBannerTheme: typeof input.cookieBannerTheme === 'string' ? input.cookieBannerTheme : null,
    cookieBannerAcceptType: typeof input.cookieBannerAcceptType === 'string' ? input.cookieBannerAcceptType : null,
    cookieBannerPosition: str(input.cookieBannerPosition),
    isAnalyticsCookiesDisabled: api ? bool(input.isRestrictiveCookiePolicyEnabled) : bool(input.isAnalyticsCookiesDisabled),
    isActivityLogEnabled: api ? !bool(input.isVisitorDataRestricted) : bool(input.isActivityLogEnabled),
    isRestrictiveCookiePolicyAbsolute: bool(input.isRestrictiveCookiePolicyAbsolute),
  };
}

/** Maps the component form back to the API form. */
export function toApiForm(input: ComponentCookieSettings): ApiCookieSettings {
  const { isAnalyticsCookiesDisabled, isActivityLogEnabled, ...rest } = input;
  return { ...rest, isRestrictiveCookiePolicyEnabled: isAnalyticsCookiesDisabled, isVisitorDataRestricted: !isActivityLogEnabled };
}

/** Normalises settings in either naming form into what the banner renders. */
export function normaliseBanner(input: Record<string, unknown>): BannerSettings {
  const s = toComponentForm(input);
  const variant = pick(VARIANTS, s.cookieBannerVariant, 'BAR');
  const text = plainText(s.cookieBannerText);
  return {
    text: text === '' ? DEFAULT_BANNER_TEXT : text,
    acceptLabel: s.cookieBannerCtaText.trim() || DEFAULT_ACCEPT_LABEL,
    declineLabel: s.cookieBannerOptOutCtaText.trim() || DEFAULT_DECLINE_LABEL,
    variant,
    theme: pick(THEMES, s.cookieBannerTheme, 'DARK'),
    ctaVariant: pick(CTA_VARIANTS, s.cookieBannerCtaVariant, 'ICON'),
    acceptType: pick(ACCEPT_TYPES, s.cookieBannerAcceptType, 'OPT_IN'),
    position: variant === 'BAR' ? barPosition(s.cookieBannerPosition) : popupPosition(s.cookieBannerPosition),
    isAnalyticsCookiesDisabled: s.isAnalyticsCookiesDisabled,
  };
}
