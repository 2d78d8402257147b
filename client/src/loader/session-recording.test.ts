import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageContext } from '../generated/types';
import { createFeatures, segmentOf } from './features';
import { fetchRecordingId, MOCK_VISITOR_ID, recordingScript, startSessionRecording } from './session-recording';
import { clearCookies } from './telemetry/test-support';

const URL_ = 'https://record.example/rec.js';

function context(features: Record<string, unknown>, restrictive = false): PageContext {
  const cookieSettings = { isAnalyticsCookiesDisabled: restrictive };
  return { features, websiteSettings: { cookieSettings } } as unknown as PageContext;
}

const script = (ctx: PageContext) => recordingScript(document, ctx, createFeatures(document, ctx));

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  clearCookies();
  document.head.innerHTML = '';
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
  clearCookies();
});

describe('session recording', () => {
  it('loads the configured script when the toggle is on and the visitor is sampled', async () => {
    document.cookie = 'SS_ANALYTICS_ID=visitor-1; path=/';
    const ctx = context({ 'session-recording': true, 'session-recording-url': URL_ });
    expect(script(ctx)).toBe(URL_);
    const asked = vi.fn(async () => 'visitor-1');
    await startSessionRecording(window, ctx, createFeatures(document, ctx), asked);
    expect(asked).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(document.head.querySelector(`script[src="${URL_}"]`)).not.toBeNull());
    expect(warn).not.toHaveBeenCalled();
  });

  it('asks the server for the id, and records nothing when it answers the mock id or fails', async () => {
    document.cookie = 'SS_ANALYTICS_ID=visitor-1; path=/';
    const ctx = context({ 'session-recording': true, 'session-recording-url': URL_ });
    for (const answer of [MOCK_VISITOR_ID, null]) {
      await startSessionRecording(window, ctx, createFeatures(document, ctx), async () => answer);
      expect(document.head.querySelector('script')).toBeNull();
    }
    const fetchMock = vi.fn(async () => new Response(JSON.stringify('visitor-1'), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await fetchRecordingId(window)).toBe('visitor-1');
    expect(fetchMock).toHaveBeenCalledWith('/api/commerce/fullstory/getId', { credentials: 'same-origin' });
    fetchMock.mockImplementation(async () => new Response('oops', { status: 500 }));
    expect(await fetchRecordingId(window)).toBeNull();
    fetchMock.mockImplementation(async () => {
      throw new TypeError('offline');
    });
    expect(await fetchRecordingId(window)).toBeNull();
    vi.unstubAllGlobals();
  });

  it('does not call the server on a page that would not record', async () => {
    const asked = vi.fn(async () => 'visitor-1');
    const ctx = context({ 'session-recording': false, 'session-recording-url': URL_ });
    await startSessionRecording(window, ctx, createFeatures(document, ctx), asked);
    expect(asked).not.toHaveBeenCalled();
  });

  it('loads nothing, silently, on a site without the toggle', () => {
    document.cookie = 'SS_ANALYTICS_ID=visitor-1; path=/';
    expect(script(context({}))).toBeNull();
    expect(script(context({ 'session-recording': false, 'session-recording-url': URL_ }))).toBeNull();
    expect(script(context({ 'session-recording': true }))).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('skips the mock id, a missing id, and visitors without consent under a restrictive policy', () => {
    const flags = { 'session-recording': true, 'session-recording-url': URL_ };
    expect(script(context(flags))).toBeNull();
    document.cookie = `SS_ANALYTICS_ID=${MOCK_VISITOR_ID}; path=/`;
    expect(script(context(flags))).toBeNull();
    document.cookie = 'SS_ANALYTICS_ID=visitor-1; path=/';
    expect(script(context(flags, true))).toBeNull();
    document.cookie = 'ss_cookieAllowed=true; path=/';
    expect(script(context(flags, true))).toBe(URL_);
  });

  it('records only the sampled percentage, by segment', () => {
    const flags = { 'session-recording': true, 'session-recording-url': URL_, 'session-recording-sample': 20 };
    let recorded = 0;
    for (let i = 0; i < 300; i++) {
      document.cookie = `SS_ANALYTICS_ID=v${i}; path=/`;
      const sampled = segmentOf(`v${i}`, 'session-recording') < 20;
      expect(script(context(flags))).toBe(sampled ? URL_ : null);
      if (sampled) recorded += 1;
    }
    expect(recorded).toBeGreaterThan(30);
    expect(recorded).toBeLessThan(90);
  });

  it('follows an A/B test toggle: only the variant named true records', () => {
    const flags = {
      'session-recording': { variants: { true: 50, false: 50 }, default: 'false' },
      'session-recording-url': URL_,
    };
    for (let i = 0; i < 100; i++) {
      document.cookie = `SS_ANALYTICS_ID=v${i}; path=/`;
      const ctx = context(flags);
      const on = createFeatures(document, ctx).getExperiment('session-recording', 'false').variant === 'true';
      expect(script(ctx)).toBe(on ? URL_ : null);
    }
  });
});
