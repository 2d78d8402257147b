import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEBOUNCE_MS, ERRORS_URL, MAX_QUEUED, MAX_SENDS, MAX_STACK, retryAfterMs, startErrorReporter, type ErrorRecord } from './errors';
import { fakeWindow, pageContext, stubFetch, type SeenRequest } from './test-support';

const NOW = 1_700_000_000_000;

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** A reporter on a fresh window with a crumb cookie. */
function setUp(answer?: (request: SeenRequest) => Promise<Response>) {
  const page = fakeWindow({ cookie: 'other=1; crumb=crumb-123' });
  const fetch = stubFetch(answer);
  const reporter = startErrorReporter(page.win, pageContext());
  const batches = () => fetch.seen.map((r) => JSON.parse(String(r.init.body)) as ErrorRecord[]);
  /** Throws `error` on the page as an uncaught error at `file:line:column`. */
  const raise = (error: Error, line = 10, column = 5, file = 'https://site.test/app.js') =>
    page.win.dispatchEvent(new ErrorEvent('error', { error, message: error.message, filename: file, lineno: line, colno: column }));
  return { ...page, ...fetch, reporter, batches, raise };
}

describe('the error reporter', () => {
  it('sends the error record of spec 000 §3 with the crumb in X-CSRF-Token', async () => {
    const { seen, batches, raise } = setUp();
    const error = new Error('boom');
    raise(error, 12, 3);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(ERRORS_URL);
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.headers).toEqual({ 'Content-Type': 'application/json', 'X-CSRF-Token': 'crumb-123' });
    expect(batches()[0]).toEqual([
      {
        event: 'javascript-error',
        data: {
          websiteId: 'w1',
          templateId: 't1',
          url: 'https://site.test/blog/post?x=1',
          userAgent: 'TestAgent/1.0',
          app: 'loader',
          message: 'boom',
          stack: error.stack,
          file: 'https://site.test/app.js',
          line: 12,
          column: 3,
          pageLoadId: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
        timestamp: NOW,
        count: 1,
      },
    ]);
  });

  it('gives every record of a page load the same pageLoadId, and another page load another one', async () => {
    const first = setUp();
    first.raise(new Error('one'));
    first.raise(new Error('two'), 20);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    const ids = first.batches()[0]!.map((r) => r.data.pageLoadId);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    const second = setUp();
    second.raise(new Error('one'));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(second.batches().at(-1)![0]!.data.pageLoadId).not.toBe(ids[0]);
  });

  it('records unhandled rejections with the reason', async () => {
    const { win, batches } = setUp();
    win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new TypeError('nope') }));
    win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: { code: 7 } }));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(batches()[0]!.map((r) => r.data.message)).toEqual(['nope', '{"code":7}']);
  });

  it('debounces sends by 1,000 ms after the last error, one batch per send', async () => {
    const { seen, batches, raise } = setUp();
    raise(new Error('a'));
    await vi.advanceTimersByTimeAsync(600);
    raise(new Error('b'));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 1);
    expect(seen).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(1);
    expect(batches()[0]!.map((r) => r.data.message)).toEqual(['a', 'b']);
  });

  it('sends the same error once per page, with how often it was seen', async () => {
    const { seen, batches, raise } = setUp();
    const error = new Error('again');
    raise(error);
    raise(error);
    raise(error, 11); // another line: another error
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(batches()[0]!.map((r) => [r.data.line, r.count])).toEqual([
      [10, 2],
      [11, 1],
    ]);
    raise(error);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 5);
    expect(seen).toHaveLength(1);
  });

  it('queues at most 10 records', async () => {
    const { batches, raise } = setUp();
    for (let i = 0; i < 15; i += 1) raise(new Error(`e${i}`));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(batches()).toHaveLength(1);
    expect(batches()[0]!.map((r) => r.data.message)).toEqual(Array.from({ length: MAX_QUEUED }, (_, i) => `e${i}`));
  });

  it('makes at most 20 sends per page', async () => {
    const { seen, raise } = setUp();
    for (let i = 0; i < 25; i += 1) {
      raise(new Error(`e${i}`));
      await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    }
    expect(seen).toHaveLength(MAX_SENDS);
    expect(MAX_SENDS).toBe(20);
  });

  it('trims stacks to 5,000 characters', async () => {
    const { batches, raise } = setUp();
    const error = new Error('deep');
    error.stack = 'x'.repeat(12_000);
    raise(error);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(batches()[0]![0]!.data.stack).toHaveLength(MAX_STACK);
    expect(MAX_STACK).toBe(5000);
  });

  it('after a 429 waits Retry-After, then resends the batch once', async () => {
    const { seen, batches, raise } = setUp(async () => new Response(null, { status: 429, headers: { 'Retry-After': '3' } }));
    raise(new Error('limited'));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    expect(batches()[1]).toEqual(batches()[0]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(2);
  });

  it('after a 503 with an HTTP-date Retry-After waits until that date', async () => {
    const date = new Date(NOW + DEBOUNCE_MS + 5000).toUTCString();
    const { seen, raise } = setUp(async () => new Response(null, { status: 503, headers: { 'Retry-After': date } }));
    raise(new Error('busy'));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS + 4999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
  });

  it('reads Retry-After as seconds or a date, within bounds', () => {
    expect(retryAfterMs('2', NOW)).toBe(2000);
    expect(retryAfterMs(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000);
    expect(retryAfterMs(null, NOW)).toBe(1000);
    expect(retryAfterMs('soon', NOW)).toBe(1000);
    expect(retryAfterMs('-4', NOW)).toBe(0);
    expect(retryAfterMs('86400', NOW)).toBe(60_000);
  });

  it('sends what is queued when the page is hidden', async () => {
    const { seen, raise, hide } = setUp();
    raise(new Error('leaving'));
    hide();
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(seen).toHaveLength(1);
  });

  it('swallows a failed send', async () => {
    const { seen, raise } = setUp(() => Promise.reject(new TypeError('offline')));
    raise(new Error('x'));
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 3);
    expect(seen).toHaveLength(1);
  });
});
