import { afterEach, describe, expect, it, vi } from 'vitest';
import { OVERFLOW_CLASS, measureMeta, overflows, watchMeta } from './meta';

/** The emitter's 100 ms and the resize debounce's 150 ms after the last resize (001 §9). */
const AFTER_RESIZE_MS = 100 + 150;

/** A slide `height` px high whose caption's content is `content` px high. */
function slide(list: HTMLElement, height: number, content: number): HTMLElement {
  const li = document.createElement('li');
  li.innerHTML = '<figure class="gallery-overlay"><img alt=""><figcaption class="gallery-meta gallery-meta--bottom">A caption</figcaption></figure>';
  const figure = li.querySelector('figure')!;
  const meta = li.querySelector<HTMLElement>('.gallery-meta')!;
  Object.defineProperty(figure, 'clientHeight', { configurable: true, get: () => height });
  Object.defineProperty(meta, 'scrollHeight', { configurable: true, get: () => content });
  list.append(li);
  return meta;
}

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('the caption overflow rule', () => {
  it('overflows above 90 % of the slide height, not at it', () => {
    expect(overflows(91, 100)).toBe(true);
    expect(overflows(90, 100)).toBe(false);
    expect(overflows(10, 0)).toBe(false);
  });

  it('gives an overflowing caption the overflow state, focus and a name, and takes them back', () => {
    const list = document.createElement('ul');
    const meta = slide(list, 400, 380);
    const figure = meta.closest('figure')!;
    expect(measureMeta(meta, figure, 'Caption of slide 1')).toBe(true);
    expect(meta.classList.contains(OVERFLOW_CLASS)).toBe(true);
    expect(meta.tabIndex).toBe(0);
    expect(meta.getAttribute('role')).toBe('group');
    expect(meta.getAttribute('aria-label')).toBe('Caption of slide 1');
    Object.defineProperty(figure, 'clientHeight', { configurable: true, get: () => 800 });
    expect(measureMeta(meta, figure, 'Caption of slide 1')).toBe(false);
    expect(meta.classList.contains(OVERFLOW_CLASS)).toBe(false);
    expect(meta.hasAttribute('tabindex') || meta.hasAttribute('role') || meta.hasAttribute('aria-label')).toBe(false);
  });

  it('measures every caption, and again 100 + 150 ms after the last resize', () => {
    vi.useFakeTimers();
    const list = document.createElement('ul');
    document.body.append(list);
    let height = 300;
    const long = slide(list, 300, 280);
    const short = slide(list, 300, 40);
    Object.defineProperty(long.closest('figure')!, 'clientHeight', { configurable: true, get: () => height });
    const stop = watchMeta(window, list);
    expect(long.classList.contains(OVERFLOW_CLASS)).toBe(true);
    expect(long.getAttribute('aria-label')).toBe('Caption of slide 1');
    expect(short.classList.contains(OVERFLOW_CLASS)).toBe(false);

    height = 600;
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(99);
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(AFTER_RESIZE_MS - 1);
    expect(long.classList.contains(OVERFLOW_CLASS)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(long.classList.contains(OVERFLOW_CLASS)).toBe(false);

    height = 200;
    long.closest('figure')!.querySelector('img')!.dispatchEvent(new Event('load'));
    expect(long.classList.contains(OVERFLOW_CLASS)).toBe(true);
    stop();
    height = 600;
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(AFTER_RESIZE_MS);
    expect(long.classList.contains(OVERFLOW_CLASS)).toBe(true);
  });
});
