import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DECODE_ERROR, layoutFor, parseGalleryData } from './data';
import { mount } from './index';

function gallery(count: number): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = `<ul class="gallery">${Array.from({ length: count }, (_, i) => `<li><figure><a href="/images/${i}.png" data-lightbox><img alt="Photo ${i}"></a></figure></li>`).join('')}</ul>`;
  document.body.append(el);
  return el;
}

const status = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
const click = (el: HTMLElement, selector: string) => el.querySelector<HTMLButtonElement>(selector)!.click();

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('matchMedia', () => ({ matches: false }));
  window.history.replaceState(null, '', '/gallery-designs');
});

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('gallery data', () => {
  it('maps block designs to layouts', () => {
    expect(layoutFor('stacked')).toBe('base');
    expect(layoutFor('slider')).toBe('strip');
    expect(layoutFor('slideshow')).toBe('stacked');
    expect(layoutFor('carousel')).toBe('carousel');
    expect(layoutFor('unknown')).toBe('base');
  });

  it('logs bad block data and leaves the gallery as the server drew it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(parseGalleryData('nope')).toBeNull();
    expect(parseGalleryData({ slides: 'x' })).toBeNull();
    const el = gallery(3);
    const before = el.innerHTML;
    mount(el, null);
    expect(error).toHaveBeenCalledWith(DECODE_ERROR);
    expect(el.innerHTML).toBe(before);
    expect(parseGalleryData({ design: 'slideshow', autoplay: true, 'autoplay-duration': 4 })?.interval).toBe(4000);
  });
});

describe('the slideshow', () => {
  it('shows one slide at a time and moves with its controls and arrow keys', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow' });
    expect(el.getAttribute('role')).toBe('region');
    expect(el.getAttribute('aria-label')).toBe('Slideshow');
    const second = gallery(2);
    mount(second, { design: 'slideshow' });
    expect(second.getAttribute('aria-label')).toBe('Slideshow 2');
    expect(status(el)).toBe('1 of 3');
    expect(el.querySelectorAll('li.is-current')).toHaveLength(1);
    click(el, '.gallery-next');
    expect(status(el)).toBe('2 of 3');
    click(el, '.gallery-next');
    expect(status(el)).toBe('2 of 3');
    vi.advanceTimersByTime(1200);
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', keyCode: 37, bubbles: true }));
    expect(status(el)).toBe('1 of 3');
    expect(el.querySelector('li:not(.is-current)')?.hasAttribute('inert')).toBe(true);
  });

  it('autoplays, pauses on hover and by the pause control', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', autoplay: true });
    vi.advanceTimersByTime(5000);
    expect(status(el)).toBe('2 of 3');
    el.dispatchEvent(new MouseEvent('mouseenter'));
    vi.advanceTimersByTime(15_000);
    expect(status(el)).toBe('2 of 3');
    el.dispatchEvent(new MouseEvent('mouseleave'));
    click(el, '.gallery-pause');
    expect(el.querySelector('.gallery-pause')?.getAttribute('aria-pressed')).toBe('true');
    vi.advanceTimersByTime(15_000);
    expect(status(el)).toBe('2 of 3');
    click(el, '.gallery-pause');
    vi.advanceTimersByTime(5000);
    expect(status(el)).toBe('3 of 3');
  });

  it('does not autoplay with nomotion=true', () => {
    window.history.replaceState(null, '', '/gallery-designs?nomotion=true');
    const el = gallery(3);
    mount(el, { design: 'slideshow', autoplay: true });
    expect(el.querySelector('.gallery-pause')).toBeNull();
    vi.advanceTimersByTime(20_000);
    expect(status(el)).toBe('1 of 3');
  });
});

describe('the carousel', () => {
  it('steps a row at a time and disables the controls at either end', () => {
    const el = gallery(7);
    Object.defineProperty(el, 'clientWidth', { value: 1000 });
    mount(el, { design: 'carousel', slidesPerRow: 3 });
    expect(status(el)).toBe('1 of 3');
    expect(el.querySelector<HTMLButtonElement>('.gallery-previous')?.disabled).toBe(true);
    click(el, '.gallery-next');
    vi.advanceTimersByTime(1000);
    click(el, '.gallery-next');
    expect(status(el)).toBe('3 of 3');
    expect(el.querySelector<HTMLButtonElement>('.gallery-next')?.disabled).toBe(true);
  });

  it('hides its controls when every slide fits', () => {
    const el = gallery(2);
    Object.defineProperty(el, 'clientWidth', { value: 1000 });
    mount(el, { design: 'carousel', slidesPerRow: 3 });
    expect(el.querySelector<HTMLElement>('.gallery-controls')?.hidden).toBe(true);
  });
});
