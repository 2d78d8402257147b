import { describe, expect, it } from 'vitest';
import { SIZE_LADDER, pickWidth, sizedUrl, upgradeToHttps } from './ladder';

describe('picking a ladder width', () => {
  it('takes the narrowest rung at least as wide as the element times the pixel ratio', () => {
    expect(pickWidth(320, 1)).toBe(500);
    expect(pickWidth(300, 1)).toBe(300);
    expect(pickWidth(301, 1)).toBe(500);
    expect(pickWidth(320, 2)).toBe(750);
    expect(pickWidth(600, 2)).toBe(1500);
    expect(pickWidth(40, 1)).toBe(100);
    expect(pickWidth(0, 1)).toBe(100);
  });

  it('caps at the widest rung', () => {
    expect(pickWidth(2000, 2)).toBe(2500);
    expect(pickWidth(9000, 3)).toBe(2500);
  });

  it('counts the pixel ratio as at most 1 under data-saver', () => {
    expect(pickWidth(320, 3, true)).toBe(500);
    expect(pickWidth(320, 0.5, true)).toBe(300);
  });

  it('treats nonsense ratios and widths as 1 and 0', () => {
    expect(pickWidth(320, Number.NaN)).toBe(500);
    expect(pickWidth(Number.NaN, 2)).toBe(100);
    expect(pickWidth(-5, 2)).toBe(100);
  });

  it('only ever answers a rung of the ladder', () => {
    for (let w = 0; w < 3000; w += 37) {
      expect(SIZE_LADDER).toContain(pickWidth(w, 1.5));
    }
  });
});

describe('sized URLs', () => {
  const base = 'https://site.test/gallery';
  it('sets the format parameter and keeps the rest', () => {
    expect(sizedUrl('/images/porch.png', 750, base)).toBe('/images/porch.png?format=750w');
    expect(sizedUrl('/images/porch.png?v=2&format=100w#x', 300, base)).toBe('/images/porch.png?v=2&format=300w#x');
    expect(sizedUrl('https://cdn.test/a.jpg', 500, base)).toBe('https://cdn.test/a.jpg?format=500w');
  });

  it('upgrades http to https on the page host only, and only on an https page', () => {
    const page = new URL('https://site.test/');
    expect(upgradeToHttps('http://site.test/images/a.png', page)).toBe('https://site.test/images/a.png');
    expect(upgradeToHttps('http://other.test/a.png', page)).toBe('http://other.test/a.png');
    expect(upgradeToHttps('http://site.test/a.png', new URL('http://site.test/'))).toBe('http://site.test/a.png');
  });
});
