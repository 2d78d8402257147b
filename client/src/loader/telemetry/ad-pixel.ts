// Ad-pixel events (spec 000 §7, 001 §7): "Ad pixel events fire for add to cart, search,
// newsletter subscribe, view product page and customer account creation." Each is a
// `RecordEvent` call named after the spec's words, so it keeps the page's consent and
// analytics rules (a quiet telemetry sends nothing; `analyticsEnabled: false` neither).
// Page events (product page, search results) fire when the telemetry starts (`landing.ts`),
// so a page whose visitor accepts cookies later still records them; visitor actions fire
// when they happen: islands call `firePixel`, and window events other chunks dispatch are
// heard here, once a chunk that can dispatch them (the newsletter island) has started. The
// account-creation event is recorded by the server when joining makes an account.
import type { RecordEventExtra } from './events';

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

/** Sends `event` through the page's current telemetry (nothing without one). */
export function firePixel(event: AdPixelEvent, extra?: RecordEventExtra, win: Window = window): void {
  void win.Veranda?.telemetry?.events.recordEvent(event, extra).catch(() => {});
}

const listening = new WeakSet<Window>();

/**
 * Hears the window event that stands for a newsletter sign-up (once per window, however
 * often it is called): the chunks that can dispatch it call it. A customer account is made
 * by the membership checkout, a server page without this runtime, so the server records
 * `customer-account-creation` itself (`server/src/routes/telemetry/events.rs`).
 */
export function listenForPixels(win: Window): void {
  if (listening.has(win)) return;
  listening.add(win);
  win.addEventListener(NEWSLETTER_SIGNUP_EVENT, () => firePixel(AD_PIXEL_EVENTS.newsletterSubscribe, undefined, win));
}
