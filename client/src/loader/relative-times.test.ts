import { describe, expect, it, vi } from 'vitest';
import { start } from '../widgets/relative-time/index';
import { watchRelativeTimes } from './relative-times';

function page(html: string): Window {
  const doc = document.implementation.createHTMLDocument('x');
  doc.documentElement.lang = 'en-US';
  doc.body.innerHTML = html;
  return { document: doc } as unknown as Window;
}

describe('the relative-times hook', () => {
  it('starts them in the page language', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 2, 14, 12, 0, 0) });
    const win = page('<time datetime="2026-03-14T11:59:50Z" data-relative>March 14, 2026</time>');
    const stop = start(win.document);
    expect(win.document.querySelector('time')!.textContent).toBe('about 10 seconds ago');
    stop();
    vi.useRealTimers();
  });

  it('starts the relative times of a page with post dates', async () => {
    const start = vi.fn();
    const load = vi.fn(async () => ({ start }));
    const win = page('<p class="meta"><time datetime="2026-03-14" data-relative>March 14, 2026</time></p>');
    watchRelativeTimes(win, load);
    await vi.waitFor(() => expect(start).toHaveBeenCalledWith(win.document));
  });

  it('fetches nothing on a page without them', () => {
    const load = vi.fn();
    watchRelativeTimes(page('<time datetime="2026-07-01">July 1, 2026</time>'), load);
    expect(load).not.toHaveBeenCalled();
  });
});
