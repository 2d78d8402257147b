import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageContext } from '../generated/types';
import {
  createFeatures,
  INVALID_DEFINITION,
  NO_SUCH_FEATURE,
  NOT_LOADED,
  segmentOf,
  WRONG_TYPE,
} from './features';
import { clearCookies } from './telemetry/test-support';

const features = {
  'new-cart-drawer': true,
  'menu-columns': 3,
  'hero-tagline': 'Good coffee on a slow porch',
  'home-hero': { variants: { porch: 50, coffee: 50 }, default: 'porch' },
  'cart-v2': { variants: { true: 30, false: 70 }, default: 'false' },
  'bad-shares': { variants: { a: 60, b: 60 }, default: 'a' },
  'bad-default': { variants: { a: 100 }, default: 'z' },
};

function context(extra: Partial<PageContext> = {}): PageContext {
  return { features, ...extra } as unknown as PageContext;
}

const restrictive = { websiteSettings: { cookieSettings: { isAnalyticsCookiesDisabled: true } } } as Partial<PageContext>;

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  clearCookies();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
  clearCookies();
});

const warned = () => warn.mock.calls.map((call: unknown[]) => String(call[0]));

describe('typed flags', () => {
  it('read the site value of the right type without a warning', () => {
    const f = createFeatures(document, context());
    expect(f.isEnabled('new-cart-drawer')).toBe(true);
    expect(f.getBoolean('new-cart-drawer', false)).toBe(true);
    expect(f.getNumber('menu-columns', 1)).toBe(3);
    expect(f.getString('hero-tagline', '')).toBe('Good coffee on a slow porch');
    expect(warn).not.toHaveBeenCalled();
  });

  it('give the default and warn with the spec string when missing, mistyped or not loaded', () => {
    const f = createFeatures(document, context());
    expect(f.getNumber('nope', 7)).toBe(7);
    expect(f.getNumber('hero-tagline', 2)).toBe(2);
    expect(f.getString('menu-columns', 'x')).toBe('x');
    expect(f.isEnabled('menu-columns', true)).toBe(true);
    expect(createFeatures(document, null).getBoolean('new-cart-drawer', false)).toBe(false);
    expect(warned()).toEqual([
      `Veranda: ${NO_SUCH_FEATURE} (nope).`,
      `Veranda: ${WRONG_TYPE.replace('{type}', 'number')} (hero-tagline).`,
      'Veranda: The specified feature is not a string (menu-columns).',
      'Veranda: The specified feature is not a boolean (menu-columns).',
      `Veranda: ${NOT_LOADED} (new-cart-drawer).`,
    ]);
  });
});

describe('A/B tests', () => {
  it('give every visitor the variant their segment falls in, the same on every page load', () => {
    const counts: Record<string, number> = { porch: 0, coffee: 0 };
    for (let i = 0; i < 400; i++) {
      document.cookie = `SS_ANALYTICS_ID=visitor-${i}; path=/`;
      const first = createFeatures(document, context()).getExperiment('home-hero', 'porch');
      const again = createFeatures(document, context()).getExperiment('home-hero', 'porch');
      expect(again).toEqual(first);
      expect(first.segment).toBe(segmentOf(`visitor-${i}`, 'home-hero'));
      expect(first.variant).toBe(first.segment < 50 ? 'porch' : 'coffee');
      counts[first.variant]! += 1;
    }
    expect(counts.porch).toBeGreaterThan(140);
    expect(counts.coffee).toBeGreaterThan(140);
    expect(warn).not.toHaveBeenCalled();
  });

  it('toggle a feature only for the variant named true', () => {
    let on = 0;
    for (let i = 0; i < 300; i++) {
      document.cookie = `SS_ANALYTICS_ID=v${i}; path=/`;
      const f = createFeatures(document, context());
      const { segment, variant } = f.getExperiment('cart-v2', 'false');
      expect(f.isEnabled('cart-v2')).toBe(variant === 'true');
      expect(variant).toBe(segment < 30 ? 'true' : 'false');
      if (variant === 'true') on += 1;
    }
    expect(on).toBeGreaterThan(50);
    expect(on).toBeLessThan(130);
  });

  it('give the default without an analytics id, and under a restrictive policy without consent', () => {
    expect(createFeatures(document, context()).getExperiment('home-hero', 'porch')).toEqual({ variant: 'porch', segment: -1 });
    document.cookie = 'SS_ANALYTICS_ID=someone; path=/';
    const refused = createFeatures(document, context(restrictive)).getExperiment('home-hero', 'porch');
    expect(refused).toEqual({ variant: 'porch', segment: -1 });
    document.cookie = 'ss_cookieAllowed=true; path=/';
    const consented = createFeatures(document, context(restrictive)).getExperiment('home-hero', 'porch');
    expect(consented.segment).toBe(segmentOf('someone', 'home-hero'));
  });

  it('give the caller default for unknown, mistyped and invalid tests, with a warning', () => {
    document.cookie = 'SS_ANALYTICS_ID=someone; path=/';
    const f = createFeatures(document, context());
    expect(f.getExperiment('nope', 'a')).toEqual({ variant: 'a', segment: -1 });
    expect(f.getExperiment('menu-columns', 'a')).toEqual({ variant: 'a', segment: -1 });
    expect(f.getExperiment('bad-shares', 'b')).toEqual({ variant: 'b', segment: -1 });
    expect(f.isEnabled('bad-default', true)).toBe(true);
    expect(warned()).toEqual([
      `Veranda: ${NO_SUCH_FEATURE} (nope).`,
      'Veranda: The specified feature is not a split test (menu-columns).',
      `Veranda: ${INVALID_DEFINITION} (bad-shares).`,
      `Veranda: ${INVALID_DEFINITION} (bad-default).`,
    ]);
  });
});
