import { afterEach, describe, expect, it } from 'vitest';
import { applyFontStylesheets } from './fonts';

afterEach(() => {
  document.head.innerHTML = '';
});

describe('font stylesheets', () => {
  it('become stylesheets from the preloads the server linked, and nothing else changes', () => {
    const google = 'https://fonts.googleapis.com/css?family=Fraunces%7CInter&display=swap';
    document.head.innerHTML = `<link rel="preload" as="style" href="${google}" data-font-stylesheet>
      <link rel="preload" as="image" href="/images/a.jpg">`;
    applyFontStylesheets(document);
    const links = [...document.head.querySelectorAll('link')].map((l) => [l.rel, l.getAttribute('href')]);
    expect(links).toEqual([
      ['stylesheet', google],
      ['preload', '/images/a.jpg'],
    ]);
  });

  it('add nothing to a page whose site names no fonts', () => {
    applyFontStylesheets(document);
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});
