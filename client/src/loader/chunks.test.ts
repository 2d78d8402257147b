import { describe, expect, it, vi } from 'vitest';
import { loadChunk, retryUrl, type Explain, type SetTimer } from './chunks';

/** Timers run by hand. */
function clock() {
  const timers: Array<{ run: () => void; ms: number; live: boolean }> = [];
  const setTimer: SetTimer = (run, ms) => {
    const timer = { run, ms, live: true };
    timers.push(timer);
    return () => {
      timer.live = false;
    };
  };
  const fire = async (ms: number) => {
    await flush();
    for (const timer of timers.filter((t) => t.live && t.ms === ms)) {
      timer.live = false;
      timer.run();
    }
    await flush();
  };
  return { timers, setTimer, fire };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** The promise's rejection reason, caught at once so it is never unhandled. */
function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a failure'),
    (error: unknown) => error,
  );
}

const explain = vi.fn<Explain>(async (chunk, error, timedOut) =>
  Object.assign(new Error(`Loading chunk failed: ${chunk}`), { cause: error, timedOut }),
);

describe('loading a chunk', () => {
  it('gives the module when the first attempt loads', async () => {
    const { setTimer } = clock();
    await expect(loadChunk('video', () => Promise.resolve('module'), { setTimer, explain })).resolves.toBe('module');
  });

  it('retries once after a failure, and gives the module the retry loads', async () => {
    const { setTimer, fire } = clock();
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('module');
    const result = loadChunk('video', load, { setTimer, explain });
    await fire(1000);
    await expect(result).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives the explained failure of the retry, not of the first attempt', async () => {
    const { setTimer, fire } = clock();
    const second = new TypeError('second');
    const load = vi.fn().mockRejectedValueOnce(new TypeError('first')).mockRejectedValueOnce(second);
    const result = failure(loadChunk('video', load, { setTimer, explain }));
    await fire(1000);
    const error = (await result) as Error & { timedOut: boolean };
    expect(error.message).toContain('Loading chunk failed');
    expect(error.cause).toBe(second);
    expect(error.timedOut).toBe(false);
  });

  it('gives up an attempt after 120 s (spec), retries, and reports a timeout', async () => {
    const { setTimer, timers, fire } = clock();
    const result = failure(loadChunk('map', () => new Promise<never>(() => {}), { setTimer, explain }));
    expect(timers.map((t) => t.ms)).toEqual([120_000]);
    await fire(120_000);
    await fire(1000);
    await fire(120_000);
    expect(await result).toMatchObject({ timedOut: true });
    expect(explain).toHaveBeenLastCalledWith('map', expect.anything(), true);
  });

  it('fetches the chunk afresh under a query when the failure names its URL (browsers remember failed modules)', async () => {
    const { setTimer, fire } = clock();
    const url = 'http://h/assets/accordion-1.js';
    const fresh = vi.fn(async () => 'fresh module');
    const load = vi.fn(() => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`)));
    const result = loadChunk('accordion', load, { setTimer, explain, fresh });
    await fire(1000);
    await expect(result).resolves.toBe('fresh module');
    expect(fresh).toHaveBeenCalledWith('http://h/assets/accordion-1.js?retry=1');
    expect(load).toHaveBeenCalledOnce();
  });

  it('adds the retry to a query string the URL already has', () => {
    expect(retryUrl('/assets/a.js?v=2')).toBe('/assets/a.js?v=2&retry=1');
  });

});
