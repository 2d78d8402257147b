// What a page's arrival sends besides its hit, a lazy chunk imported as the telemetry starts
// on a page with a query string or an item: the ad-pixel events of the page itself (a
// product page, a search with a query; spec 000 §7) and the marketing pixel of a campaign
// landing (`track.ts`). A marketing landing also gives the browser session its marketing
// id, the `SS_MID` session cookie (`docs/analytics.md`).
import type { ItemType, PageContext, PageType } from '../../generated/types';
import type { AdPixelEvent } from './ad-pixel';
import type { Events } from './events';
import { MARKETING_COOKIE } from './marketing';
import { sendTrack } from './track';
import { newVisitorId, readCookie, writeCookie } from './transport';

export { MARKETING_COOKIE };

/** The marketing id of the browser session, created (a session cookie) when absent. */
export function ensureMarketingId(doc: Document): string {
  const found = readCookie(doc, MARKETING_COOKIE);
  if (found) return found;
  const id = newVisitorId();
  writeCookie(doc, MARKETING_COOKIE, id, null);
  return id;
}

// The ids and event names as literals (checked against the generated enums and the event
// names' type), so neither the enums' objects nor the names' module is fetched with it.
const CONTENT_ITEM: typeof PageType.ContentItem = 50;
const SEARCH: typeof PageType.Search = 102;
const STORE_ITEM: typeof ItemType.StoreItem = 11;

/** The events a page fires as it loads: a product page, a search with a query. */
export function pagePixels(win: Window, context: PageContext | null): AdPixelEvent[] {
  if (!context) return [];
  const out: AdPixelEvent[] = [];
  if (context.pageType === CONTENT_ITEM && context.item?.recordType === STORE_ITEM) {
    out.push('view-product-page');
  }
  if (context.pageType === SEARCH && (new URL(win.location.href).searchParams.get('q') ?? '').trim() !== '') {
    out.push('search');
  }
  return out;
}

/** Sends the page's own events through `events` (called as the telemetry starts). */
export function firePagePixels(win: Window, context: PageContext | null, events: Events): void {
  for (const event of pagePixels(win, context)) void events.recordEvent(event).catch(() => {});
}

/** Sends the marketing pixel (analytics on) and the page's own ad-pixel events. */
export function startLanding(win: Window, context: PageContext | null, events: Events): void {
  if (context?.analyticsEnabled === true && sendTrack(win)) context.marketingId = ensureMarketingId(win.document);
  firePagePixels(win, context, events);
}
