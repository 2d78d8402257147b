import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BUFFERED, startTrace, TRACE_FLUSH_MS, TRACE_URL } from './trace';
import { fakeWindow, formFields, removeBeacon, stubBeacon, stubXhr } from './test-support';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  removeBeacon();
});

/** The entries of a beacon's form body. */
const entries = (body: unknown) => JSON.parse(formFields(body).data!) as unknown[];

describe('the trace log', () => {
  it('flushes its buffer every 30 s as form data holding a JSON array', () => {
    const beacon = stubBeacon();
    const { win } = fakeWindow({ href: 'https://site.test/about' });
    const trace = startTrace(win);
    trace.log('nav', { to: '/shop' });
    trace.log('click');
    vi.advanceTimersByTime(TRACE_FLUSH_MS - 1);
    expect(beacon.calls).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(beacon.calls).toHaveLength(1);
    expect(beacon.calls[0]!.url).toBe(TRACE_URL);
    expect(beacon.calls[0]!.body).toBeInstanceOf(URLSearchParams);
    expect(entries(beacon.calls[0]!.body)).toEqual([
      { pageUrl: 'https://site.test/about', type: 'nav', data: { to: '/shop' } },
      { pageUrl: 'https://site.test/about', type: 'click', data: null },
    ]);

    // An empty buffer sends nothing; the next entries go 30 s later.
    vi.advanceTimersByTime(TRACE_FLUSH_MS);
    expect(beacon.calls).toHaveLength(1);
    trace.log('late');
    vi.advanceTimersByTime(TRACE_FLUSH_MS);
    expect(beacon.calls).toHaveLength(2);
    expect(entries(beacon.calls[1]!.body)).toHaveLength(1);
  });

  it('flushes on pagehide and when the page becomes hidden, not when it becomes visible', () => {
    const beacon = stubBeacon();
    const { win, document, hide } = fakeWindow();
    const trace = startTrace(win);
    trace.log('a');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacon.calls).toHaveLength(0);
    hide();
    expect(beacon.calls).toHaveLength(1);
    trace.log('b');
    win.dispatchEvent(new Event('pagehide'));
    expect(beacon.calls).toHaveLength(2);
    expect(entries(beacon.calls[1]!.body)).toEqual([expect.objectContaining({ type: 'b' })]);
  });

  it('flushes at once when the buffer is full', () => {
    const beacon = stubBeacon();
    const trace = startTrace(fakeWindow().win);
    for (let i = 0; i < MAX_BUFFERED; i += 1) trace.log('tick', i);
    expect(beacon.calls).toHaveLength(1);
    expect(entries(beacon.calls[0]!.body)).toHaveLength(MAX_BUFFERED);
  });

  it('posts with an XMLHttpRequest when the browser refuses the beacon or has none', () => {
    stubBeacon(false);
    const { sent } = stubXhr();
    const trace = startTrace(fakeWindow().win);
    trace.log('x');
    vi.advanceTimersByTime(TRACE_FLUSH_MS);
    removeBeacon();
    trace.log('y');
    trace.flush();
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ method: 'POST', url: TRACE_URL, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(entries(sent[1]!.body)).toEqual([expect.objectContaining({ type: 'y' })]);
  });
});
