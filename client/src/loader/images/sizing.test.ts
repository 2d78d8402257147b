import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundedDpr } from './attributes';
import { sizedUrl } from './ladder';
import { type ImageEnvironment, coversPlanned, loadImage, planImage } from './load';

const env: ImageEnvironment = { dpr: 2, dataSaver: false, page: new URL('https://site.test/gallery') };

/** An image inside a box 300 CSS pixels wide. */
function boxed(attrs: Record<string, string>): HTMLImageElement {
  const box = document.createElement('div');
  const img = document.createElement('img');
  for (const [name, value] of Object.entries(attrs)) img.setAttribute(name, value);
  box.append(img);
  document.body.append(box);
  vi.spyOn(box, 'getBoundingClientRect').mockReturnValue({ width: 300, height: 200 } as DOMRect);
  vi.spyOn(img, 'getBoundingClientRect').mockReturnValue({ width: 300, height: 0 } as DOMRect);
  return img;
}

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('an image’s dpr min and max (001 §3)', () => {
  it('bound the device pixel ratio; a bound that is not a positive number is ignored', () => {
    expect(boundedDpr(3, '1', '2')).toBe(2);
    expect(boundedDpr(1, '1.5', null)).toBe(1.5);
    expect(boundedDpr(2, 'x', '0')).toBe(2);
    expect(boundedDpr(2, null, null)).toBe(2);
  });

  it('choose the ladder width the image is loaded at', () => {
    expect(planImage(boxed({ 'data-src': '/images/a.png' }), env)).toBe('/images/a.png?format=750w');
    expect(planImage(boxed({ 'data-src': '/images/a.png', 'data-dpr-max': '1' }), env)).toBe('/images/a.png?format=300w');
    expect(planImage(boxed({ 'data-src': '/images/a.png', 'data-dpr-min': '4' }), env)).toBe('/images/a.png?format=1500w');
  });
});

describe('an image’s size format (001 §3: queryString or filename)', () => {
  it('asks for the width in the query string by default, or after the file name', () => {
    expect(planImage(boxed({ 'data-src': '/images/a.png', 'data-size-format': 'filename' }), env)).toBe('/images/a.png/750w');
    expect(sizedUrl('/images/a.png/300w?v=2', 500, env.page.href, true)).toBe('/images/a.png/500w?v=2');
    expect(sizedUrl('/images/a.png?format=300w', 500, env.page.href, true)).toBe('/images/a.png/500w');
    expect(sizedUrl('/images/a.png', 500, env.page.href)).toBe('/images/a.png?format=500w');
  });

  it('keeps a file-name fallback that is wide enough', () => {
    const base = env.page.href;
    expect(coversPlanned('/images/a.png/750w', '/images/a.png/500w', base)).toBe(true);
    expect(coversPlanned('/images/a.png/300w', '/images/a.png/500w', base)).toBe(false);
    expect(coversPlanned('/images/b.png/750w', '/images/a.png/500w', base)).toBe(false);
  });
});

describe('an image with a srcset (001 §3)', () => {
  it('is left to the browser: its source stays, and it is marked loading, then loaded', async () => {
    const img = boxed({
      'data-src': '/images/a.png',
      src: '/images/a.png?format=750w',
      srcset: '/images/a.png?format=300w 300w, /images/a.png?format=750w 750w',
    });
    const done = loadImage(img, env);
    expect(img.getAttribute('src')).toBe('/images/a.png?format=750w');
    expect(img.classList.contains('loading')).toBe(true);
    img.dispatchEvent(new Event('load'));
    await done;
    expect(img.classList.contains('loaded')).toBe(true);
    expect(img.getAttribute('src')).toBe('/images/a.png?format=750w');
  });
});
