// The marketing tracking pixel (spec 000 §7): `GET /api/track/Track` with source,
// campaign, subcampaign, channel, subchannel, refer, variation, mkwid, landing, lang,
// screen and rk, "sent as an image request". It is sent once, as the telemetry starts,
// on a page reached through a marketing link: one whose address names at least one of
// the campaign parameters (`docs/analytics.md`). `landing` is the page's path and query,
// `lang` the browser's language, `screen` its screen size, `refer` the link's own value
// or else the referring page.
import { telemetryAllowed } from './transport';

/** Where the pixel goes. */
export const TRACK_URL = '/api/track/Track';
/** The parameters a marketing link carries; any one of them sends the pixel. */
export const CAMPAIGN_PARAMS = ['source', 'campaign', 'subcampaign', 'channel', 'subchannel', 'refer', 'variation', 'mkwid', 'rk'] as const;

/** The pixel's address for the page `win` shows, or `null` when no campaign parameter is there. */
export function trackUrl(win: Window): string | null {
  const page = new URL(win.location.href);
  if (!CAMPAIGN_PARAMS.some((name) => page.searchParams.has(name))) return null;
  const query = new URLSearchParams();
  for (const name of CAMPAIGN_PARAMS) {
    const value = page.searchParams.get(name) ?? (name === 'refer' ? win.document.referrer : '');
    if (value) query.set(name, value);
  }
  query.set('landing', page.pathname + page.search);
  query.set('lang', win.navigator.language);
  query.set('screen', `${win.screen?.width ?? 0}x${win.screen?.height ?? 0}`);
  return `${TRACK_URL}?${query.toString()}`;
}

/** Sends the pixel for `win`'s page when it is a marketing landing; says whether it did. */
export function sendTrack(win: Window): boolean {
  const url = trackUrl(win);
  if (!url || !telemetryAllowed()) return false;
  const image = win.document.createElement('img');
  image.alt = '';
  image.src = url;
  return true;
}
