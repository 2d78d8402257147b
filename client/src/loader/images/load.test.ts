import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCropMode, parseDimensions, parseFocalPoint, parseSizeAdjustment } from './attributes';
import { IMAGE_WARNINGS, type ImageEnvironment, coversPlanned, loadImage, planImage } from './load';

const env: ImageEnvironment = { dpr: 2, dataSaver: false, page: new URL('https://site.test/gallery') };

/** An image inside a box of `width` × `height` CSS pixels. */
function boxed(attrs: Record<string, string>, width = 300, height = 200): HTMLImageElement {
  const box = document.createElement('div');
  const img = document.createElement('img');
  for (const [name, value] of Object.entries(attrs)) img.setAttribute(name, value);
  box.append(img);
  document.body.append(box);
  const rect = (w: number, h: number) => ({ width: w, height: h }) as DOMRect;
  vi.spyOn(box, 'getBoundingClientRect').mockReturnValue(rect(width, height));
  vi.spyOn(img, 'getBoundingClientRect').mockReturnValue(rect(width, 0));
  return img;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('image attributes', () => {
  it('parse as 001 §3 and §5 describe', () => {
    expect(parseDimensions('1600x900')).toEqual({ width: 1600, height: 900 });
    expect(parseDimensions('big')).toBeNull();
    expect(parseDimensions(null)).toBeNull();
    expect(parseFocalPoint('0.2,0.8')).toEqual({ x: 0.2, y: 0.8 });
    expect(parseFocalPoint(null)).toEqual({ x: 0.5, y: 0.5 });
    expect(parseFocalPoint('a,b')).toEqual({ x: 0.5, y: 0.5 });
    expect(parseFocalPoint('3,-1')).toEqual({ x: 1, y: 0 });
    expect(parseCropMode('fill')).toBe('cover');
    expect(parseCropMode('fit')).toBe('contain');
    expect(parseCropMode(null)).toBe('none');
    expect(parseSizeAdjustment(null)).toBe(1);
    expect(parseSizeAdjustment('-2')).toBe(0);
    expect(parseSizeAdjustment('0.5')).toBe(0.5);
    expect(parseSizeAdjustment('x')).toBe(1);
  });
});

describe('planning an image', () => {
  it('asks for the rung the element needs at the pixel ratio', () => {
    expect(planImage(boxed({ 'data-src': '/images/porch.png' }, 300), env)).toBe('/images/porch.png?format=750w');
    expect(planImage(boxed({ 'data-src': '/images/porch.png' }, 300), { ...env, dataSaver: true })).toBe(
      '/images/porch.png?format=300w',
    );
  });

  it('sizes a covering image by the side it overflows and centres it on the focal point', () => {
    const img = boxed(
      { 'data-src': '/images/wide.png', 'data-image-dimensions': '2000x500', 'data-crop-mode': 'cover', 'data-image-focal-point': '0.25,0.75' },
      300,
      300,
    );
    // 300 px tall box: the 4:1 image is drawn 1200 px wide; × 2 = 2400 → 2500w.
    expect(planImage(img, env)).toBe('/images/wide.png?format=2500w');
    expect(img.style.objectFit).toBe('cover');
    expect(img.style.objectPosition).toBe('25% 75%');
  });

  it('aligns a contained image and warns when it has no alignment', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const aligned = boxed({ 'data-src': '/a.png', 'data-crop-mode': 'contain', 'data-alignment': 'top-left' });
    planImage(aligned, env);
    expect(aligned.style.objectPosition).toBe('left top');
    expect(warn).not.toHaveBeenCalled();
    planImage(boxed({ 'data-src': '/a.png', 'data-crop-mode': 'contain' }), env);
    expect(warn).toHaveBeenCalledWith(IMAGE_WARNINGS.noAlignment);
  });

  it('gives the four warnings verbatim', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(planImage(document.createElement('div'), env)).toBeNull();
    expect(planImage(document.createElement('img'), env)).toBeNull();
    expect(planImage(boxed({}), env)).toBeNull();
    expect(planImage(boxed({ 'data-src': 'javascript:alert(1)' }), env)).toBeNull();
    planImage(boxed({ 'data-src': '/a.png', 'data-crop-mode': 'fit' }), env);
    expect(warn.mock.calls.map((call) => call[0])).toEqual([
      'Element is not a valid image element.',
      'Image element has no parentNode.',
      'Invalid or missing image source.',
      'Invalid or missing image source.',
      'Missing alignment for content-fit image.',
    ]);
  });

  it('upgrades http sources on the page host', () => {
    expect(planImage(boxed({ 'data-src': 'http://site.test/images/a.png' }, 100), env)).toBe(
      '/images/a.png?format=300w',
    );
  });
});

describe('loading an image', () => {
  it('is loading until the image loads, then loaded', async () => {
    const img = boxed({ 'data-src': '/images/porch.png' }, 100);
    const done = loadImage(img, env);
    expect(img.classList.contains('loading')).toBe(true);
    expect(img.getAttribute('src')).toBe('/images/porch.png?format=300w');
    img.dispatchEvent(new Event('load'));
    await done;
    expect(img.classList.contains('loading')).toBe(false);
    expect(img.classList.contains('loaded')).toBe(true);
  });

  it('drops the loading class on error without claiming loaded', async () => {
    const img = boxed({ 'data-src': '/images/gone.png' }, 100);
    const done = loadImage(img, env);
    img.dispatchEvent(new Event('error'));
    await done;
    expect(img.className).toBe('');
  });
});

describe('the server fallback', () => {
  const base = 'https://site.test/';
  it('is kept when it is the same image at least as wide, so nothing is fetched twice', () => {
    expect(coversPlanned('/images/a.png?format=750w', '/images/a.png?format=500w', base)).toBe(true);
    expect(coversPlanned('/images/a.png?format=750w', '/images/a.png?format=750w', base)).toBe(true);
    expect(coversPlanned('/images/a.png', '/images/a.png?format=2500w', base)).toBe(true);
    expect(coversPlanned('/images/a.png?format=750w', '/images/a.png?format=1500w', base)).toBe(false);
    expect(coversPlanned('/images/b.png?format=750w', '/images/a.png?format=100w', base)).toBe(false);
    expect(coversPlanned(null, '/images/a.png?format=100w', base)).toBe(false);
  });

  it('is replaced by a wider rung when the element needs one', async () => {
    const img = boxed({ 'data-src': '/images/porch.png', src: '/images/porch.png?format=750w' }, 600);
    const done = loadImage(img, env);
    expect(img.getAttribute('src')).toBe('/images/porch.png?format=1500w');
    img.dispatchEvent(new Event('load'));
    await done;
    expect(img.classList.contains('loaded')).toBe(true);
  });
});
