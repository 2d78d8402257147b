// 001 §8: gallery errors are logged verbatim and never shown; the server's gallery stays.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hydrateIslands } from '../../loader/hydrate';
import { UNDECODABLE } from '../../loader/undecodable';
import { DECODE_ERROR, EVALUATE_ERROR, parseGalleryData } from './data';
import { mount } from './index';

function gallery(count: number, json?: string): HTMLElement {
  const el = document.createElement('section');
  el.dataset.island = 'gallery';
  if (json !== undefined) el.setAttribute('data-block-json', json);
  el.innerHTML = `<ul class="gallery">${Array.from({ length: count }, (_, i) => `<li><figure><a href="/images/${i}.png" data-lightbox><img alt="Photo ${i}"></a></figure></li>`).join('')}</ul>`;
  document.body.append(el);
  return el;
}

let error: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;
beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: false }));
  vi.stubGlobal('IntersectionObserver', undefined);
  error = vi.fn();
  vi.spyOn(console, 'error').mockImplementation(error);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('gallery errors', () => {
  it('logs undecodable block JSON as the spec says, and the server gallery stays', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = gallery(3, '{design:');
    const before = el.innerHTML;
    const island = { mount: vi.fn(mount) };
    expect(hydrateIslands(document, { gallery: () => Promise.resolve(island) })).toBe(1);
    await vi.waitFor(() => expect(island.mount).toHaveBeenCalledWith(el, UNDECODABLE));
    expect(error).toHaveBeenCalledWith(DECODE_ERROR);
    expect(warn).not.toHaveBeenCalled();
    expect(el.innerHTML).toBe(before);
    expect(el.getAttribute('data-island-state')).toBe('mounted');
  });

  it('logs data that is not an object as undecodable', () => {
    expect(parseGalleryData([1, 2])).toBeNull();
    expect(parseGalleryData(null)).toBeNull();
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith(DECODE_ERROR);
  });

  it('logs fields of the wrong type once and gives them their defaults', () => {
    const options = parseGalleryData({ design: 'slideshow', autoplay: 'yes', 'autoplay-duration': '4', slides: 'x', clickBehavior: 'spin' });
    expect(error).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith(EVALUATE_ERROR);
    expect(options).toMatchObject({ layout: 'stacked', autoplay: false, interval: 5000, clickBehavior: 'next' });
    error.mockClear();
    parseGalleryData({ design: 'slideshow', autoplay: true, vSize: null, transition: null });
    expect(error).not.toHaveBeenCalled();
  });

  it('catches an unknown design or transition in the island: logged, the page shows nothing', () => {
    for (const data of [{ design: 'mosaic' }, { design: 'slideshow', transition: 'wobble' }]) {
      const el = gallery(3);
      const before = el.innerHTML;
      expect(() => mount(el, data)).not.toThrow();
      expect(el.innerHTML).toBe(before);
    }
    expect(error.mock.calls.map((c) => c[0])).toEqual(['design not found by name: mosaic', 'could not find transition named wobble']);
  });

  it('still warns about undecodable JSON of islands that do not report their own', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    document.body.innerHTML = `<div data-island="menu-tabs" data-block-json="{x"></div>`;
    expect(hydrateIslands(document, { 'menu-tabs': () => Promise.reject(new Error('not loaded')) })).toBe(0);
    expect(warn).toHaveBeenCalledOnce();
  });
});
