import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_FONT_SIZE_PX, fitText, fittedFontSize, watchScaledText } from './scaled-text';

/** A heading whose widths follow its font size: `perPx` px of text per px of font size. */
function heading(width: number, perPx: number, natural = 40): HTMLElement & { available: number } {
  let available = width;
  document.body.innerHTML = `<style>h1 { font-size: ${natural}px; }</style><section class="block"><h1 class="scaled-text">Good coffee on a slow porch</h1></section>`;
  const h = document.querySelector<HTMLElement>('h1')!;
  const size = () => parseFloat(h.style.fontSize) || natural;
  Object.defineProperty(h, 'clientWidth', { get: () => available, configurable: true });
  Object.defineProperty(h, 'scrollWidth', { get: () => Math.max(available, size() * perPx), configurable: true });
  Object.defineProperty(h, 'available', { set: (w: number) => (available = w), get: () => available });
  return h as HTMLElement & { available: number };
}

afterEach(() => vi.unstubAllGlobals());

describe('scaled text', () => {
  it('keeps the natural size when the text fits', () => {
    expect(fittedFontSize(40, 500, 400)).toBe(40);
    const h = heading(1000, 20);
    expect(fitText(h)).toBe(40);
    expect(h.style.fontSize).toBe('');
    expect(h.style.whiteSpace).toBe('nowrap');
  });

  it('shrinks the text to its width', () => {
    expect(fittedFontSize(40, 300, 800)).toBe(15);
    const h = heading(300, 20);
    expect(fitText(h)).toBe(15);
    expect(h.style.fontSize).toBe('15px');
    expect(h.scrollWidth).toBeLessThanOrEqual(h.clientWidth);
  });

  it('never goes below 11 px, and wraps what still does not fit', () => {
    expect(fittedFontSize(40, 100, 800)).toBe(MIN_FONT_SIZE_PX);
    const h = heading(100, 20);
    expect(fitText(h)).toBe(11);
    expect(h.style.fontSize).toBe('11px');
    expect(h.style.whiteSpace).toBe('');
  });

  it('fits again when the block changes width', async () => {
    let report = () => {};
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          report = cb;
        }
        observe() {}
        disconnect() {}
      },
    );
    const h = heading(1000, 20);
    const block = h.parentElement!;
    let blockWidth = 1000;
    Object.defineProperty(block, 'clientWidth', { get: () => blockWidth, configurable: true });
    watchScaledText(block, h);
    expect(h.style.fontSize).toBe('');
    h.available = 400;
    report();
    expect(h.style.fontSize, 'same block width: not refitted').toBe('');
    blockWidth = 400;
    report();
    // The refit is throttled (twice the average fit time after the last one): it may come a
    // moment later.
    await vi.waitFor(() => expect(h.style.fontSize).toBe('20px'));
  });
});
