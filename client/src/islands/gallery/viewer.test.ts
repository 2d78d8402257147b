import { describe, expect, it, vi } from 'vitest';
import { DECODE_ERROR, layoutFor, parseGalleryData } from './data';
import { mount } from './index';
import { useGalleryTestPage } from './test-page';

function gallery(count: number): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = `<ul class="gallery">${Array.from({ length: count }, (_, i) => `<li><figure><a href="/images/${i}.png" data-lightbox><img alt="Photo ${i}"></a></figure></li>`).join('')}</ul>`;
  document.body.append(el);
  return el;
}

/** A pointer event of `pointerType` (jsdom's events carry no pointer type of their own). */
function pointer(type: string, pointerType: string): Event {
  return Object.assign(new MouseEvent(type), { pointerType });
}

/** Puts `el` at `top` px in a 1000 × 800 window (jsdom lays nothing out). */
function place(el: HTMLElement, top: number): void {
  el.getBoundingClientRect = () => ({ top, bottom: top + 300, left: 0, right: 1000, width: 1000, height: 300, x: 0, y: top, toJSON: () => ({}) });
}

const arrow = (target: EventTarget, key: 'ArrowLeft' | 'ArrowRight', init: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, keyCode: key === 'ArrowLeft' ? 37 : 39, bubbles: true, cancelable: true, ...init }));

const status = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
const click = (el: HTMLElement, selector: string) => el.querySelector<HTMLButtonElement>(selector)!.click();

useGalleryTestPage('/gallery-designs');

describe('gallery data', () => {
  it('maps block designs to layouts', () => {
    expect(layoutFor('stacked')).toBe('base');
    expect(layoutFor('slider')).toBe('strip');
    expect(layoutFor('slideshow')).toBe('stacked');
    expect(layoutFor('carousel')).toBe('carousel');
    expect(layoutFor(undefined)).toBe('base');
    expect(() => layoutFor('unknown')).toThrow('design not found by name: unknown');
  });

  it('logs bad block data and leaves the gallery as the server drew it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(parseGalleryData('nope')).toBeNull();
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
    el.dispatchEvent(pointer('pointerenter', 'mouse'));
    vi.advanceTimersByTime(15_000);
    expect(status(el)).toBe('2 of 3');
    el.dispatchEvent(pointer('pointerleave', 'mouse'));
    click(el, '.gallery-pause');
    expect(el.querySelector('.gallery-pause')?.getAttribute('aria-pressed')).toBe('true');
    vi.advanceTimersByTime(15_000);
    expect(status(el)).toBe('2 of 3');
    click(el, '.gallery-pause');
    vi.advanceTimersByTime(5000);
    expect(status(el)).toBe('3 of 3');
  });

  it('does not pause for a finger on it (no hover pause on mobile)', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', autoplay: true });
    el.dispatchEvent(pointer('pointerenter', 'touch'));
    vi.advanceTimersByTime(5000);
    expect(status(el)).toBe('2 of 3');
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

describe('page-level arrow keys (37, 39)', () => {
  it('move a gallery on screen, not one off screen', () => {
    Object.assign(window, { innerWidth: 1000, innerHeight: 800 });
    const shown = gallery(3);
    const below = gallery(3);
    mount(shown, { design: 'slideshow' });
    mount(below, { design: 'slideshow' });
    place(shown, 100);
    place(below, 2000);
    arrow(document.body, 'ArrowRight');
    expect(status(shown)).toBe('2 of 3');
    expect(status(below)).toBe('1 of 3');
  });

  it('are ignored while editing text, with a modifier, or while the gallery is in motion', () => {
    Object.assign(window, { innerWidth: 1000, innerHeight: 800 });
    const el = gallery(3);
    mount(el, { design: 'slideshow' });
    place(el, 0);
    const field = document.createElement('input');
    document.body.append(field);
    arrow(field, 'ArrowRight');
    arrow(document.body, 'ArrowLeft', { altKey: true });
    expect(status(el)).toBe('1 of 3');
    arrow(document.body, 'ArrowRight');
    expect(status(el)).toBe('2 of 3');
    arrow(document.body, 'ArrowRight');
    expect(status(el)).toBe('2 of 3');
    vi.advanceTimersByTime(1200);
    arrow(document.body, 'ArrowRight');
    expect(status(el)).toBe('3 of 3');
  });
});

describe('the carousel', () => {
  it('redraws its rows 100 + 150 ms after the window narrows, keeping every row reachable', () => {
    const el = gallery(7);
    let width = 1000;
    Object.defineProperty(el, 'clientWidth', { get: () => width });
    mount(el, { design: 'carousel', slidesPerRow: 4 });
    expect(status(el)).toBe('1 of 2');
    click(el, '.gallery-next');
    vi.advanceTimersByTime(1000);
    expect(status(el)).toBe('2 of 2');
    width = 400;
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(249);
    expect(status(el)).toBe('2 of 2');
    vi.advanceTimersByTime(1);
    // Slide 5 (the first shown) is in row 3 of 4 at two per row.
    expect(status(el)).toBe('3 of 4');
    click(el, '.gallery-next');
    vi.advanceTimersByTime(1000);
    expect(status(el)).toBe('4 of 4');
    expect(el.querySelector<HTMLButtonElement>('.gallery-next')?.disabled).toBe(true);
    width = 1000;
    window.dispatchEvent(new Event('orientationchange'));
    vi.advanceTimersByTime(250);
    expect(status(el)).toBe('2 of 2');
  });

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

describe('slideshow transitions in the page', () => {
  const li = (el: HTMLElement, i: number) => el.querySelectorAll<HTMLElement>('ul.gallery > li')[i]!;

  it('scrolls the incoming slide in from the side the move goes to, and settles after the speed', () => {
    const el = gallery(4);
    mount(el, { design: 'slideshow', transition: 'scroll' });
    expect(el.classList.contains('gallery-viewer--sliding')).toBe(true);
    click(el, '.gallery-previous');
    expect(el.dataset.direction).toBe('previous');
    expect(li(el, 3).classList.contains('is-current')).toBe(true);
    expect(li(el, 0).classList.contains('is-leaving')).toBe(true);
    expect(el.querySelector<HTMLElement>('ul.gallery')?.style.getPropertyValue('--in-ms')).toBe('1000ms');
    vi.advanceTimersByTime(999);
    click(el, '.gallery-next');
    expect(status(el)).toBe('4 of 4');
    vi.advanceTimersByTime(1);
    expect(li(el, 0).classList.contains('is-leaving')).toBe(false);
    click(el, '.gallery-next');
    expect(el.dataset.direction).toBe('next');
    expect(status(el)).toBe('1 of 4');
  });

  it('swipes in 0.28 s', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', transition: 'swipe' });
    click(el, '.gallery-next');
    vi.advanceTimersByTime(279);
    click(el, '.gallery-next');
    expect(status(el)).toBe('2 of 3');
    vi.advanceTimersByTime(1);
    click(el, '.gallery-next');
    expect(status(el)).toBe('3 of 3');
  });

  it('zooms ken burns slides from their focal point, and not at all with reduced motion', () => {
    const el = gallery(2);
    el.querySelector('img')?.setAttribute('data-image-focal-point', '0.25,0.75');
    mount(el, { design: 'slideshow', transition: 'ken-burns', autoplay: true, 'autoplay-duration': 4 });
    expect(el.classList.contains('gallery-viewer--t-kenburns')).toBe(true);
    expect(el.querySelector('img')?.style.transformOrigin).toBe('25% 75%');
    expect(el.querySelector<HTMLElement>('ul.gallery')?.style.getPropertyValue('--kb-ms')).toBe('5200ms');
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('reduce') }));
    const calm = gallery(2);
    mount(calm, { design: 'slideshow', transition: 'ken-burns', autoplay: true });
    expect(calm.classList.contains('gallery-viewer--t-kenburns')).toBe(false);
    expect(calm.querySelector('.gallery-pause')).toBeNull();
    click(calm, '.gallery-next');
    vi.advanceTimersByTime(0); // no transition to wait for
    click(calm, '.gallery-next');
    expect(status(calm)).toBe('1 of 2');
  });

  it('logs an unknown transition and leaves the gallery as the server drew it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = gallery(3);
    const before = el.innerHTML;
    mount(el, { design: 'slideshow', transition: 'wobble' });
    expect(error).toHaveBeenCalledWith('could not find transition named wobble');
    expect(el.innerHTML).toBe(before);
  });

  it('lets a newSwipe slide follow the finger and go on a quick swipe', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', transition: 'newSwipe' });
    const list = el.querySelector<HTMLElement>('ul.gallery')!;
    const pointer = (type: string, x: number, t: number) => {
      const e = new MouseEvent(type, { clientX: x, clientY: 10, bubbles: true });
      Object.defineProperty(e, 'timeStamp', { value: t });
      list.dispatchEvent(e);
    };
    pointer('pointerdown', 300, 0);
    pointer('pointermove', 280, 50);
    expect(li(el, 0).style.transform).toBe('translateX(-20px)');
    pointer('pointerup', 290, 80);
    expect(li(el, 0).style.transform).toBe('');
    expect(status(el)).toBe('1 of 3');
    pointer('pointerdown', 300, 1000);
    pointer('pointermove', 200, 1050);
    pointer('pointerup', 150, 1100);
    expect(status(el)).toBe('2 of 3');
    const dragClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    li(el, 0).dispatchEvent(dragClick);
    expect(dragClick.defaultPrevented).toBe(true);
    // A plain click is the slideshow's click behaviour (next), refused while it still moves.
    const plainClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    li(el, 0).dispatchEvent(plainClick);
    expect(plainClick.defaultPrevented).toBe(true);
    expect(status(el)).toBe('2 of 3');
    expect(li(el, 0).classList.contains('is-leaving')).toBe(true);
    vi.advanceTimersByTime(500);
    expect(li(el, 0).classList.contains('is-leaving')).toBe(false);
  });
});
