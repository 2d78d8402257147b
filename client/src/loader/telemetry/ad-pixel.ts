// Ad-pixel events (spec 000 §7, 001 §7): "Ad pixel events fire for add to cart, search,
// newsletter subscribe, view product page and customer account creation." Each is a
// `RecordEvent` call named after the spec's words, so it keeps the page's consent and
// analytics rules (a quiet telemetry sends nothing; `analyticsEnabled: false` neither).
// Page events (product page, search results) fire when the telemetry starts, so a page
// whose visitor accepts cookies later still records them; visitor actions fire when they
// happen: islands call `firePixel`, and window events other chunks dispatch are heard here.
import { PageType, ItemType, type PageContext } from '../../generated/types';
import type { Events, RecordEventExtra } from './events';

/** The ad-pixel event names, one per thing the spec lists. */
export const AD_PIXEL_EVENTS = {
  addToCart: 'add-to-cart',
  search: 'search',
  newsletterSubscribe: 'newsletter-subscribe',
  viewProductPage: 'view-product-page',
  customerAccountCreation: 'customer-account-creation',
} as const;

/** One ad-pixel event name. */
export type AdPixelEvent = (typeof AD_PIXEL_EVENTS)[keyof typeof AD_PIXEL_EVENTS];

/** Fired on `window` by the form island after a newsletter sign-up, with `{ formId }`. */
export const NEWSLETTER_SIGNUP_EVENT = 'veranda:newsletter-signup';
/** Fired on `window` once a visitor's customer account has been created. */
export const CUSTOMER_ACCOUNT_CREATED_EVENT = 'veranda:customer-account-created';

/** Sends `event` through the page's current telemetry (nothing without one). */
export function firePixel(event: AdPixelEvent, extra?: RecordEventExtra, win: Window = window): void {
  void win.Veranda?.telemetry?.events.recordEvent(event, extra).catch(() => {});
}

/** The events a page fires as it loads: a product page, a search with a query. */
export function pagePixels(win: Window, context: PageContext | null): AdPixelEvent[] {
  if (!context) return [];
  const out: AdPixelEvent[] = [];
  if (context.pageType === PageType.ContentItem && context.item?.recordType === ItemType.StoreItem) {
    out.push(AD_PIXEL_EVENTS.viewProductPage);
  }
  if (context.pageType === PageType.Search && (new URL(win.location.href).searchParams.get('q') ?? '').trim() !== '') {
    out.push(AD_PIXEL_EVENTS.search);
  }
  return out;
}

/** Sends the page's own events through `events` (called as the telemetry starts). */
export function firePagePixels(win: Window, context: PageContext | null, events: Events): void {
  for (const event of pagePixels(win, context)) void events.recordEvent(event).catch(() => {});
}

/** Hears the window events that stand for a newsletter sign-up and an account creation. */
export function listenForPixels(win: Window): void {
  win.addEventListener(NEWSLETTER_SIGNUP_EVENT, () => firePixel(AD_PIXEL_EVENTS.newsletterSubscribe, undefined, win));
  win.addEventListener(CUSTOMER_ACCOUNT_CREATED_EVENT, (event) => {
    const detail = (event as CustomEvent<{ memberAccountId?: unknown } | null>).detail;
    const id = typeof detail?.memberAccountId === 'string' ? detail.memberAccountId : null;
    firePixel(AD_PIXEL_EVENTS.customerAccountCreation, { memberAccountId: id }, win);
  });
}
