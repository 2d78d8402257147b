import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTelemetry } from './index';
import { sendTrack, trackUrl } from './track';
import { clearCookies, pageContext, stubFetch } from './test-support';
import { readCookie } from './transport';

// Spec 000 §7: "GET /api/track/Track | query source, campaign, subcampaign, channel,
// subchannel, refer, variation, mkwid, landing, lang, screen, rk; sent as an image request".

const at = (href: string, referrer = '') =>
  ({
    location: new URL(href),
    document: { referrer, createElement: (tag: string) => document.createElement(tag) },
    navigator: { language: 'de-DE' },
    screen: { width: 1280, height: 800 },
  }) as unknown as Window;

/** The `src` of every image made from now on. */
function watchImages(): string[] {
  const sources: string[] = [];
  const set = vi.spyOn(HTMLImageElement.prototype, 'src', 'set').mockImplementation(function (value: string) {
    sources.push(value);
  });
  afterEach(() => set.mockRestore());
  return sources;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  clearCookies();
  history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the tracking pixel', () => {
  it('carries the campaign parameters, the landing page, the language and the screen', () => {
    const url = new URL(trackUrl(at('https://s.test/shop?source=news&campaign=spring&rk=7&x=1'))!, 'https://s.test');
    expect(url.pathname).toBe('/api/track/Track');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      source: 'news',
      campaign: 'spring',
      rk: '7',
      landing: '/shop?source=news&campaign=spring&rk=7&x=1',
      lang: 'de-DE',
      screen: '1280x800',
    });
  });

  it('names the referring page as refer unless the link gives one', () => {
    const from = (href: string) => new URL(trackUrl(at(href, 'https://news.test/a'))!, 'https://s.test').searchParams.get('refer');
    expect(from('https://s.test/?mkwid=k')).toBe('https://news.test/a');
    expect(from('https://s.test/?refer=partner')).toBe('partner');
  });

  it('is not sent for a page reached without a campaign parameter', () => {
    expect(trackUrl(at('https://s.test/shop?x=1&landing=/a&lang=fr'))).toBeNull();
    expect(sendTrack(at('https://s.test/shop'))).toBe(false);
  });

  it('is sent once as an image request when the telemetry starts on a campaign landing', async () => {
    const sources = watchImages();
    stubFetch();
    history.replaceState(null, '', '/shop?source=news');
    startTelemetry(window, pageContext());
    // The landing chunk is a dynamic import: wait for it, not for a timer tick.
    await vi.dynamicImportSettled();
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatch(/^\/api\/track\/Track\?source=news&landing=%2Fshop%3Fsource%3Dnews&lang=/);
  });

  it('is not sent without consent under a restrictive policy, nor with analytics off', async () => {
    const sources = watchImages();
    stubFetch();
    history.replaceState(null, '', '/shop?source=news');
    startTelemetry(window, pageContext({}, true));
    startTelemetry(window, pageContext({ analyticsEnabled: false } as never));
    await vi.dynamicImportSettled();
    expect(sources).toEqual([]);
  });

  it('gives the browser session a marketing id, the SS_MID session cookie, on a campaign landing only', async () => {
    watchImages();
    stubFetch();
    const set = vi.spyOn(document, 'cookie', 'set');
    startTelemetry(window, pageContext());
    await vi.dynamicImportSettled();
    expect(readCookie(document, 'SS_MID')).toBeNull();

    history.replaceState(null, '', '/shop?campaign=spring');
    startTelemetry(window, pageContext());
    await vi.dynamicImportSettled();
    const id = readCookie(document, 'SS_MID');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(set.mock.calls.map(([v]) => v)).toContain(`SS_MID=${id}; path=/; SameSite=Lax`);

    history.replaceState(null, '', '/shop?source=news');
    startTelemetry(window, pageContext());
    await vi.dynamicImportSettled();
    expect(readCookie(document, 'SS_MID')).toBe(id);
  });

  it('sets no SS_MID without consent under a restrictive policy, nor with analytics off', async () => {
    watchImages();
    stubFetch();
    history.replaceState(null, '', '/shop?source=news');
    startTelemetry(window, pageContext({}, true));
    startTelemetry(window, pageContext({ analyticsEnabled: false } as never));
    await vi.dynamicImportSettled();
    expect(readCookie(document, 'SS_MID')).toBeNull();
  });
});
