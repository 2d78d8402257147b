import type { Metric } from 'web-vitals';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PERF_ERRORS, PERF_RECORDS_URL, PERF_SETTINGS_URL, SETTINGS_TIMEOUT_MS, startPerf, type Vitals } from './perf';
import { fakeWindow, hangingFetch, pageContext, removeBeacon, stubBeacon, stubFetch, stubXhr, type SeenRequest } from './test-support';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  removeBeacon();
});

const settings = (body: unknown, status = 200) => async () => new Response(JSON.stringify(body), { status });

/** A `web-vitals` double: each `on*` keeps its callback so the test can report metrics. */
function fakeVitals() {
  const callbacks = new Map<string, (metric: Metric) => void>();
  const on = (name: string) => (cb: (metric: Metric) => void) => void callbacks.set(name, cb);
  const vitals: Vitals = { onLCP: on('LCP'), onINP: on('INP'), onCLS: on('CLS'), onFCP: on('FCP'), onTTFB: on('TTFB') } as unknown as Vitals;
  const load = vi.fn(async () => vitals);
  const report = (name: Metric['name'], value: number) =>
    callbacks.get(name)!({ name, value, rating: 'good', delta: value, id: `v-${name}`, navigationType: 'navigate', navigationId: 1, entries: [] } as unknown as Metric);
  return { load, report, callbacks };
}

function setUp(answer: (request: SeenRequest) => Promise<Response>, readyState: DocumentReadyState = 'complete') {
  const page = fakeWindow({ readyState, href: 'https://site.test/shop' });
  const fetch = stubFetch(answer);
  const beacon = stubBeacon();
  const vitals = fakeVitals();
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  startPerf(page.win, pageContext({ pagePath: '/shop' }), vitals.load);
  const sent = () => beacon.calls.map((c) => JSON.parse(String(c.body)) as Array<{ name: string }>);
  return { ...page, fetch, beacon, vitals, error, sent };
}

describe('performance records', () => {
  it('wait for the page load, then fetch the settings and import web-vitals', async () => {
    const { win, fetch, vitals } = setUp(settings({ pageLoadId: 'pl-1' }), 'loading');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.seen).toHaveLength(0);
    expect(vitals.load).not.toHaveBeenCalled();
    win.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.seen[0]!.url).toBe(PERF_SETTINGS_URL);
    expect(vitals.load).toHaveBeenCalledOnce();
    expect([...vitals.callbacks.keys()].sort()).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
  });

  it('are flushed 30 s after load as a text/plain beacon of a JSON array', async () => {
    const { beacon, vitals, sent } = setUp(settings({ pageLoadId: 'pl-1' }));
    await vi.advanceTimersByTimeAsync(0);
    vitals.report('TTFB', 80);
    vitals.report('FCP', 900);
    await vi.advanceTimersByTimeAsync(30_000 - 1);
    expect(beacon.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(beacon.calls).toHaveLength(1);
    expect(beacon.calls[0]!.url).toBe(PERF_RECORDS_URL);
    expect(typeof beacon.calls[0]!.body).toBe('string');
    expect(sent()[0]).toEqual([
      { pageLoadId: 'pl-1', name: 'TTFB', value: 80, rating: 'good', delta: 80, id: 'v-TTFB', navigationType: 'navigate', pagePath: '/shop', websiteId: 'w1' },
      expect.objectContaining({ name: 'FCP', value: 900 }),
    ]);
  });

  it('flush once, at the first of 30 s and page hide; later metrics go on the next hide', async () => {
    const { beacon, vitals, sent, hide, win } = setUp(settings({ pageLoadId: 'pl-1' }));
    await vi.advanceTimersByTimeAsync(0);
    vitals.report('LCP', 1200);
    await vi.advanceTimersByTimeAsync(10_000);
    hide();
    expect(sent()).toEqual([[expect.objectContaining({ name: 'LCP' })]]);
    vitals.report('CLS', 0.02);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beacon.calls).toHaveLength(1);
    win.dispatchEvent(new Event('pagehide'));
    expect(sent()[1]).toEqual([expect.objectContaining({ name: 'CLS', value: 0.02 })]);
    win.dispatchEvent(new Event('pagehide'));
    expect(beacon.calls).toHaveLength(2);
  });

  it('deliver CLS and INP 60 s after load (spec 001 §7), their latest values, then send them', async () => {
    const { beacon, vitals, sent } = setUp(settings({ pageLoadId: 'pl-1' }));
    await vi.advanceTimersByTimeAsync(0);
    vitals.report('CLS', 0.01);
    vitals.report('CLS', 0.05);
    vitals.report('INP', 120);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beacon.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000 - 30_000 - 1);
    expect(beacon.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent()).toEqual([
      [expect.objectContaining({ name: 'CLS', value: 0.05, delta: 0.05 }), expect.objectContaining({ name: 'INP', value: 120, delta: 120 })],
    ]);
  });

  it('deliver CLS and INP on a page hide before 60 s', async () => {
    const { vitals, sent, hide } = setUp(settings({ pageLoadId: 'pl-1' }));
    await vi.advanceTimersByTimeAsync(0);
    vitals.report('INP', 80);
    await vi.advanceTimersByTimeAsync(5_000);
    hide();
    expect(sent()).toEqual([[expect.objectContaining({ name: 'INP', value: 80 })]]);
  });

  it('deliver a later change on the next hide, its delta from the value delivered before, and nothing unchanged', async () => {
    const { beacon, vitals, sent, win } = setUp(settings({ pageLoadId: 'pl-1' }));
    await vi.advanceTimersByTimeAsync(0);
    vitals.report('CLS', 0.1);
    vitals.report('INP', 200);
    await vi.advanceTimersByTimeAsync(60_000);
    vitals.report('CLS', 0.25);
    vitals.report('INP', 200);
    win.dispatchEvent(new Event('pagehide'));
    expect(sent()[1]).toEqual([expect.objectContaining({ name: 'CLS', value: 0.25, delta: expect.closeTo(0.15, 10) })]);
    win.dispatchEvent(new Event('pagehide'));
    expect(beacon.calls).toHaveLength(2);
  });

  it('fall back to a text/plain XMLHttpRequest when the beacon is refused', async () => {
    const { vitals } = setUp(settings({ pageLoadId: 'pl-1' }));
    stubBeacon(false);
    const { sent } = stubXhr();
    await vi.advanceTimersByTimeAsync(0);
    vitals.report('FCP', 640);
    await vi.advanceTimersByTimeAsync(30_000);
    const post = sent.find((r) => r.url === PERF_RECORDS_URL)!;
    expect(post).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'text/plain' } });
    expect(JSON.parse(String(post.body))).toEqual([expect.objectContaining({ name: 'FCP', value: 640 })]);
  });

  it('report a non-200 settings answer and give up', async () => {
    const { error, vitals } = setUp(settings({ pageLoadId: 'pl-1' }, 500));
    await vi.advanceTimersByTimeAsync(0);
    expect(error).toHaveBeenCalledOnce();
    expect(error.mock.calls[0]![0]).toBe('XHR request DONE with unexpected status');
    expect(vitals.load).not.toHaveBeenCalled();
  });

  it('say nothing for status 0 (no answer at all)', async () => {
    const { error, vitals } = setUp(async () => ({ status: 0 }) as Response);
    await vi.advanceTimersByTimeAsync(0);
    expect(error).not.toHaveBeenCalled();
    expect(vitals.load).not.toHaveBeenCalled();
  });

  it('report a settings request that takes 30 s', async () => {
    const { error, fetch, vitals } = setUp(hangingFetch);
    await vi.advanceTimersByTimeAsync(SETTINGS_TIMEOUT_MS - 1);
    expect(error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch.seen[0]!.init.signal!.aborted).toBe(true);
    expect(error.mock.calls).toEqual([['Metric settings request timeout']]);
    expect(vitals.load).not.toHaveBeenCalled();
  });

  it('report settings without a pageLoadId', async () => {
    for (const body of [{}, { pageLoadId: '' }, { pageLoadId: { x: 1 } }, 'not json']) {
      const { error, vitals } = setUp(settings(body));
      await vi.advanceTimersByTimeAsync(0);
      expect(error.mock.calls).toEqual([['Unable to resolve pageLoadId']]);
      expect(vitals.load).not.toHaveBeenCalled();
      error.mockRestore();
    }
  });

  it('keep the spec messages verbatim', () => {
    expect(PERF_ERRORS).toEqual({
      status: 'XHR request DONE with unexpected status',
      timeout: 'Metric settings request timeout',
      pageLoadId: 'Unable to resolve pageLoadId',
    });
  });
});
