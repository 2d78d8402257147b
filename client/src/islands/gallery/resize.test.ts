import { describe, expect, it, vi } from 'vitest';
import { mount } from './index';
import { ResizeEmitter, galleryResizeEmitter, onGalleryResize } from './resize';
import { useGalleryTestPage } from './test-page';

useGalleryTestPage();

const resize = () => window.dispatchEvent(new Event('resize'));

describe('the resize emitter', () => {
  it('emits once, 300 ms after the last change when made without a timeout', () => {
    const emitter = new ResizeEmitter(window);
    const heard = vi.fn();
    const stop = emitter.subscribe(heard);
    resize();
    vi.advanceTimersByTime(200);
    window.dispatchEvent(new Event('orientationchange'));
    vi.advanceTimersByTime(299);
    expect(heard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
    resize();
    vi.advanceTimersByTime(300);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('is one per window for the galleries, emitting 100 ms after the last change', () => {
    expect(galleryResizeEmitter(window)).toBe(galleryResizeEmitter(window));
    const heard = vi.fn();
    const stop = galleryResizeEmitter(window).subscribe(heard);
    resize();
    vi.advanceTimersByTime(99);
    expect(heard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
  });

  it('runs a subscriber 150 ms after the emitter by default, once for a burst', () => {
    const redraw = vi.fn();
    const stop = onGalleryResize(window, redraw);
    resize();
    vi.advanceTimersByTime(100);
    resize();
    vi.advanceTimersByTime(100 + 149);
    expect(redraw).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redraw).toHaveBeenCalledTimes(1);
    stop();
    resize();
    vi.advanceTimersByTime(1000);
    expect(redraw).toHaveBeenCalledTimes(1);
  });

  it('keeps every slide of every carousel reachable after the window narrows and widens', () => {
    let width = 1200;
    const carousels = [7, 10].map((count) => {
      const el = document.createElement('div');
      el.innerHTML = `<ul class="gallery">${'<li><figure><img alt=""></figure></li>'.repeat(count)}</ul>`;
      Object.defineProperty(el, 'clientWidth', { get: () => width });
      document.body.append(el);
      mount(el, { design: 'carousel', slidesPerRow: 3 });
      return el;
    });
    const status = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
    const walkToEnd = (el: HTMLElement) => {
      const next = el.querySelector<HTMLButtonElement>('.gallery-next')!;
      for (let i = 0; i < 20 && !next.disabled; i += 1) {
        next.click();
        vi.advanceTimersByTime(1000);
      }
    };
    expect(carousels.map(status)).toEqual(['1 of 3', '1 of 4']);
    // Under 480 px a carousel of 3 shows 2 per row (001 §9).
    width = 400;
    resize();
    vi.advanceTimersByTime(250);
    expect(carousels.map(status)).toEqual(['1 of 4', '1 of 5']);
    carousels.forEach(walkToEnd);
    expect(carousels.map(status)).toEqual(['4 of 4', '5 of 5']);
    const last = carousels[1]!.querySelectorAll('li')[9]!;
    expect(last.classList.contains('is-current')).toBe(true);
    width = 1200;
    resize();
    vi.advanceTimersByTime(250);
    // The first slide shown (7 and 9) stays in the row shown.
    expect(carousels.map(status)).toEqual(['3 of 3', '3 of 4']);
    carousels.forEach(walkToEnd);
    expect(carousels.map(status)).toEqual(['3 of 3', '4 of 4']);
    expect(last.classList.contains('is-current')).toBe(true);
  });
});
