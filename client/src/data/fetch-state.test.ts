import { describe, expect, it, vi } from 'vitest';
import { startFetch } from './fetch-state';

describe('the generic fetch state', () => {
  it('is pending, then success with the data', async () => {
    let finish: (value: string) => void = () => {};
    const log = vi.fn();
    const fetch = startFetch(() => new Promise<string>((resolve) => (finish = resolve)), 'loading the map', log);
    expect(fetch.state).toEqual({ status: 'pending' });
    await Promise.resolve();
    expect(fetch.state.status).toBe('pending');
    finish('tiles');
    await expect(fetch.settled).resolves.toEqual({ status: 'success', data: 'tiles' });
    expect(fetch.state).toEqual({ status: 'success', data: 'tiles' });
    expect(log).not.toHaveBeenCalled();
  });

  it('is pending, then failed with the error, which is stored and logged once', async () => {
    const error = new Error('Network error');
    const log = vi.fn();
    const fetch = startFetch(() => Promise.reject(error), 'logging out', log);
    expect(fetch.state.status).toBe('pending');
    await expect(fetch.settled).resolves.toEqual({ status: 'failed', error });
    expect(fetch.state).toEqual({ status: 'failed', error });
    expect(log).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledWith('Veranda: logging out failed.', error);
  });

  it('treats a load that throws at once as failed, not as an exception', async () => {
    const log = vi.fn();
    const fetch = startFetch<number>(() => {
      throw new TypeError('bad url');
    }, 'the call', log);
    expect(fetch.state.status).toBe('pending');
    const final = await fetch.settled;
    expect(final.status).toBe('failed');
    expect(log).toHaveBeenCalledOnce();
  });
});
