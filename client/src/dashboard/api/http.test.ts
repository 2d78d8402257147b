import { afterEach, describe, expect, it, vi } from 'vitest';
import { str } from '../../spec-pins/fixtures';
import { ApiError, getJson } from './http';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the dashboard API client', () => {
  it('turns a request that never reached the server into an ApiError saying Network error', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const failure = await getJson('/api/form/forms').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe(str('interface.networkError'));
    expect((failure as ApiError).status).toBe(0);
  });

  it('keeps the server’s message and status when it refuses', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: 'Not here.' }), { status: 404 }));
    await expect(getJson('/api/form/forms')).rejects.toMatchObject({ name: 'ApiError', status: 404, message: 'Not here.' });
  });

  it('lets an aborted read reject as aborted, not as a network error', async () => {
    const controller = new AbortController();
    const aborted = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', () => {
      controller.abort();
      return Promise.reject(aborted);
    });
    await expect(getJson('/api/form/forms', controller.signal)).rejects.toBe(aborted);
  });
});
