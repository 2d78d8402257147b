import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, explain, failedRequest, type FailureEnvironment } from './chunk-failure';

function environment(status: number | null) {
  const unreachable = vi.fn<() => void>();
  const env = { probe: vi.fn(async () => status), unreachable } satisfies FailureEnvironment;
  return env;
}

const importFailure = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

describe('a chunk that did not load', () => {
  it("is 'Loading chunk failed' with its type and request", async () => {
    const url = 'http://127.0.0.1:8080/assets/video-abc.js';
    const error = await explain('video', importFailure(url), false, environment(500));
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error.message).toContain('Loading chunk failed');
    expect(error).toMatchObject({ type: 'error', request: url, path: null, chunk: 'video' });
    expect(error.code).toBeUndefined();
  });

  it('is a timeout when it never settled', async () => {
    const env = environment(200);
    const error = await explain('map', new Error('timeout'), true, env);
    expect(error.type).toBe('timeout');
    expect(env.probe).not.toHaveBeenCalled();
  });

  it('is a not-found error carrying the missing path when the server answers 404', async () => {
    const env = environment(404);
    const error = await explain('gallery', importFailure('http://h/assets/gone-1.js'), false, env);
    expect(error).toMatchObject({ type: 'missing', path: '/assets/gone-1.js' });
    expect(env.unreachable).not.toHaveBeenCalled();
  });

  it('has the code CSS_CHUNK_LOAD_FAILED when its stylesheet failed', async () => {
    const error = await explain('form', new Error('Unable to preload CSS for /assets/form-9.css'), false, environment(503));
    expect(error).toMatchObject({ code: 'CSS_CHUNK_LOAD_FAILED', request: '/assets/form-9.css' });
  });

  it('tells the visitor the page cannot connect when the server cannot be reached', async () => {
    const env = environment(null);
    await explain('cart', importFailure('http://h/assets/a.js'), false, env);
    expect(env.unreachable).toHaveBeenCalledOnce();
  });
});

describe('the request a failed import names', () => {
  it('is read from the browser message, or absent', () => {
    expect(failedRequest(new TypeError('error loading dynamically imported module: http://h/assets/x-1.js.'))).toEqual({
      url: 'http://h/assets/x-1.js',
      css: false,
    });
    expect(failedRequest(new Error('something else'))).toBeNull();
  });
});
