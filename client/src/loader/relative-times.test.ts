import { describe, expect, it, vi } from 'vitest';
import { watchRelativeTimes } from './relative-times';

function page(html: string): Window {
  const doc = document.implementation.createHTMLDocument('x');
  doc.documentElement.lang = 'en-US';
  doc.body.innerHTML = html;
  return { document: doc } as unknown as Window;
}

describe('the relative-times hook', () => {
  it('starts the relative times of a page with post dates', async () => {
    const startRelativeTimes = vi.fn();
    const load = vi.fn(async () => ({ startRelativeTimes }));
    const win = page('<p class="meta"><time datetime="2026-03-14" data-relative>March 14, 2026</time></p>');
    expect(watchRelativeTimes(win, load)).toBe(true);
    await vi.waitFor(() => expect(startRelativeTimes).toHaveBeenCalledWith(win.document, 'en-US'));
  });

  it('fetches nothing on a page without them', () => {
    const load = vi.fn();
    expect(watchRelativeTimes(page('<time datetime="2026-07-01">July 1, 2026</time>'), load)).toBe(false);
    expect(load).not.toHaveBeenCalled();
  });
});
