import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Lightbox, openFromLinks, openLightbox } from './lightbox';
import { LIGHTBOX, edgeOf, itemAt, openingSteps, slideDuration, throttle } from './timing';

const items = ['a', 'b', 'c'].map((name) => ({ src: `/images/${name}.png`, alt: `Photo ${name}`, caption: name }));

const key = (code: number, key: string, extra: KeyboardEventInit = {}) =>
  document.dispatchEvent(new KeyboardEvent('keydown', { key, keyCode: code, bubbles: true, ...extra }));

let open: Lightbox | undefined;

beforeEach(() => {
  vi.useFakeTimers();
  window.history.replaceState(null, '', '/gallery');
});

afterEach(() => {
  open?.close();
  vi.runAllTimers();
  vi.useRealTimers();
  document.body.replaceChildren();
  open = undefined;
});

describe('lightbox timing', () => {
  it('opens overlay, then content after 0.35 s, then the close control after 0.6 s more', () => {
    expect(openingSteps(false)).toEqual([
      { at: 0, phase: 'overlay' },
      { at: 350, phase: 'content' },
      { at: 950, phase: 'controls' },
    ]);
    expect(openingSteps(true).every((step) => step.at === 0)).toBe(true);
  });

  it('has 2 % edge zones', () => {
    expect(edgeOf(10, 1000)).toBe('previous');
    expect(edgeOf(20, 1000)).toBe('previous');
    expect(edgeOf(21, 1000)).toBeNull();
    expect(edgeOf(980, 1000)).toBe('next');
    expect(edgeOf(500, 1000)).toBeNull();
  });

  it('slides over 0.6 s, and not at all with reduced motion', () => {
    expect(slideDuration(false)).toBe(LIGHTBOX.slideMs);
    expect(LIGHTBOX.slideMs).toBe(600);
    expect(slideDuration(true)).toBe(0);
  });

  it('finds the item a scroller rests on', () => {
    expect(itemAt(0, 400, 3)).toBe(0);
    expect(itemAt(590, 400, 3)).toBe(1);
    expect(itemAt(610, 400, 3)).toBe(2);
    expect(itemAt(5000, 400, 3)).toBe(2);
    expect(itemAt(-800, 400, 3)).toBe(2);
    expect(itemAt(100, 0, 3)).toBe(0);
  });

  it('throttles to once per interval', () => {
    let now = 0;
    const act = vi.fn();
    const throttled = throttle(LIGHTBOX.keyThrottleMs, act, () => now);
    throttled();
    now = 150;
    throttled();
    now = 200;
    throttled();
    expect(act).toHaveBeenCalledTimes(2);
  });
});

describe('the lightbox', () => {
  it('is a modal dialog that fades in step by step and announces the position', () => {
    open = openLightbox(window, { set: items, currentSetIndex: 1 });
    const root = open.root;
    expect(root.getAttribute('role')).toBe('dialog');
    expect(root.getAttribute('aria-modal')).toBe('true');
    expect(root.getAttribute('aria-label')).toBe('Gallery');
    expect(document.body.classList.contains('lightbox-open')).toBe(true);
    expect(root.className).toContain('is-overlay');
    expect(root.className).not.toContain('is-content');
    vi.advanceTimersByTime(350);
    expect(root.className).toContain('is-content');
    expect(root.className).not.toContain('is-controls');
    vi.advanceTimersByTime(600);
    expect(root.className).toContain('is-controls');
    expect(root.querySelector('[aria-live="polite"]')?.textContent).toBe('2 of 3');
    expect(root.querySelector('.lightbox-item:not([hidden]) img')?.getAttribute('alt')).toBe('Photo b');
    expect(root.querySelectorAll('.lightbox-item:not([hidden])')).toHaveLength(1);
    expect(document.activeElement).toBe(root.querySelector('.lightbox-close'));
  });

  it('shows previous and next only with more than one item', () => {
    open = openLightbox(window, { set: items.slice(0, 1), currentSetIndex: 0 });
    expect(open.root.querySelector('.lightbox-previous')).toBeNull();
    expect(open.root.querySelector('.lightbox-next')).toBeNull();
    open.close();
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    expect(open.root.querySelector('.lightbox-previous')).not.toBeNull();
    expect(open.root.querySelector('.lightbox-next')).not.toBeNull();
  });

  it('moves with arrow keys at most once per 200 ms, wrapping around', () => {
    vi.setSystemTime(10_000);
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    key(39, 'ArrowRight');
    key(39, 'ArrowRight');
    expect(open.index).toBe(1);
    vi.advanceTimersByTime(200);
    key(39, 'ArrowRight');
    expect(open.index).toBe(2);
    vi.advanceTimersByTime(200);
    key(39, 'ArrowRight');
    expect(open.index).toBe(0);
    vi.advanceTimersByTime(200);
    key(37, 'ArrowLeft');
    expect(open.index).toBe(2);
    expect(open.root.querySelector('[aria-live]')?.textContent).toBe('3 of 3');
  });

  it('goes previous and next on clicks at the window edges', () => {
    open = openLightbox(window, { set: items, currentSetIndex: 1 });
    const click = (x: number) => open!.root.dispatchEvent(new MouseEvent('click', { clientX: x, bubbles: true }));
    click(window.innerWidth - 1);
    expect(open.index).toBe(2);
    click(1);
    click(1);
    expect(open.index).toBe(0);
  });

  it('closes on Escape, fades out, and returns focus to what opened it', () => {
    const trigger = document.createElement('a');
    trigger.href = '/images/a.png';
    document.body.append(trigger);
    open = openLightbox(window, { set: items, currentSetIndex: 0, trigger, historyHash: true });
    expect(window.location.hash).toBe('#lightbox=1-1');
    open.next();
    expect(window.location.hash).toBe('#lightbox=1-2');
    key(27, 'Escape');
    expect(open.root.className).toContain('is-closing');
    expect(document.body.contains(open.root)).toBe(true);
    vi.advanceTimersByTime(350);
    expect(document.body.contains(open.root)).toBe(false);
    expect(document.body.classList.contains('lightbox-open')).toBe(false);
    expect(document.activeElement).toBe(trigger);
    expect(window.location.hash).toBe('');
  });

  it('keeps Tab inside the dialog', () => {
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    const buttons = Array.from(open.root.querySelectorAll<HTMLButtonElement>('button:not([hidden])'));
    buttons[buttons.length - 1]!.focus();
    key(9, 'Tab');
    expect(document.activeElement).toBe(buttons[0]);
    key(9, 'Tab', { shiftKey: true });
    expect(document.activeElement).toBe(buttons[buttons.length - 1]);
  });

  it('opens from a grid of links with their captions and the set theme', () => {
    document.body.innerHTML = `<ul data-lightbox-set data-lightbox-theme="light">
      <li><figure><a href="/images/a.png" data-lightbox><img alt="A"></a><figcaption>First</figcaption></figure></li>
      <li><figure><a href="/images/b.png" data-lightbox><img alt="B"></a></figure></li></ul>`;
    const set = document.querySelector('ul')!;
    const links = Array.from(set.querySelectorAll('a'));
    open = openFromLinks(window, set, links, 0);
    expect(open.root.className).toContain('lightbox--light');
    expect(open.root.querySelector('figcaption')?.textContent).toBe('First');
    expect(open.root.querySelector('img')?.getAttribute('src')).toMatch(/^\/images\/a\.png\?format=\d+w$/);
  });
});

/** Stubs `matchMedia`: a narrow (mobile) window and / or reduced motion; `widen` fires a width change. */
function media({ narrow = false, reduced = false } = {}) {
  const listeners: Array<(event: { matches: boolean }) => void> = [];
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width') ? narrow : query.includes('reduce') ? reduced : false,
    addEventListener: (_: string, fn: (event: { matches: boolean }) => void) => query.includes('max-width') && listeners.push(fn),
    removeEventListener: () => {},
  }));
  return { change: (matches: boolean) => listeners.forEach((fn) => fn({ matches })) };
}

/** Gives `track` a width and a scroll position, as a browser would. */
function scrollTrack(track: HTMLElement, left: number, width = 400) {
  Object.defineProperty(track, 'clientWidth', { value: width, configurable: true });
  track.scrollLeft = left;
  track.dispatchEvent(new Event('scroll'));
}

describe('moving between items on a desktop', () => {
  it('slides the next item in from the side it comes from over 0.6 s', () => {
    media();
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    open.next();
    const current = () => open!.root.querySelector('.lightbox-item:not([hidden])')!;
    expect(current().className).toContain('is-entering-next');
    vi.advanceTimersByTime(599);
    expect(current().className).toContain('is-entering-next');
    vi.advanceTimersByTime(1);
    expect(current().className).not.toContain('is-entering');
    open.previous();
    expect(current().className).toContain('is-entering-previous');
    expect(open.root.style.getPropertyValue('--lightbox-slide')).toBe('600ms');
  });

  it('changes at once under reduced motion', () => {
    media({ reduced: true });
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    open.next();
    expect(open.root.querySelector('.is-entering-next, .is-entering-previous')).toBeNull();
    expect(open.root.querySelector('.lightbox-item:not([hidden]) img')?.getAttribute('alt')).toBe('Photo b');
  });

  it('keeps the caption toggle away from a desktop', () => {
    media();
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    expect(open.root.querySelector<HTMLButtonElement>('.lightbox-caption-toggle')!.hidden).toBe(true);
    expect(open.root.querySelector<HTMLElement>('.lightbox-item:not([hidden]) figcaption')!.hidden).toBe(false);
  });
});

describe('the lightbox on a phone', () => {
  it('lays the items out in a scroller, hides previous and next, and toggles the captions', () => {
    media({ narrow: true });
    open = openLightbox(window, { set: items, currentSetIndex: 1 });
    const root = open.root;
    expect(root.className).toContain('lightbox--scroll');
    expect(root.querySelector<HTMLElement>('.lightbox-content')!.tabIndex).toBe(0);
    expect(root.querySelectorAll('.lightbox-item:not([hidden])')).toHaveLength(3);
    expect(root.querySelector<HTMLButtonElement>('.lightbox-previous')!.hidden).toBe(true);
    expect(root.querySelector<HTMLButtonElement>('.lightbox-next')!.hidden).toBe(true);
    const toggle = root.querySelector<HTMLButtonElement>('.lightbox-caption-toggle')!;
    expect(toggle.hidden).toBe(false);
    expect(toggle.textContent).toBe('Caption');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const caption = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(caption.textContent).toBe('b');
    expect(caption.hidden).toBe(true);
    toggle.click();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(caption.hidden).toBe(false);
    toggle.click();
    expect(caption.hidden).toBe(true);
  });

  it('makes the item the visitor scrolls to current, in the announcement, the toggle and the hash', () => {
    media({ narrow: true });
    open = openLightbox(window, { set: items, currentSetIndex: 0, historyHash: true, setNumber: 2 });
    const track = open.root.querySelector<HTMLElement>('.lightbox-content')!;
    scrollTrack(track, 790);
    vi.advanceTimersByTime(LIGHTBOX.scrollSettleMs - 1);
    expect(open.index).toBe(0);
    vi.advanceTimersByTime(1);
    expect(open.index).toBe(2);
    expect(open.root.querySelector('[aria-live]')?.textContent).toBe('3 of 3');
    const toggle = open.root.querySelector('.lightbox-caption-toggle')!;
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)?.textContent).toBe('c');
    expect(window.location.hash).toBe('#lightbox=2-3');
    expect(open.root.querySelectorAll('.lightbox-item img[src]')).toHaveLength(3);
  });

  it('scrolls to the item on arrow keys: smoothly, or at once under reduced motion', () => {
    for (const reduced of [false, true]) {
      media({ narrow: true, reduced });
      open = openLightbox(window, { set: items, currentSetIndex: 0 });
      const track = open.root.querySelector<HTMLElement>('.lightbox-content')!;
      Object.defineProperty(track, 'clientWidth', { value: 400, configurable: true });
      const scrollTo = vi.fn();
      track.scrollTo = scrollTo as never;
      key(39, 'ArrowRight');
      expect(open.index).toBe(1);
      expect(scrollTo).toHaveBeenCalledWith({ left: 400, behavior: reduced ? 'auto' : 'smooth' });
      expect(open.root.querySelector('.is-entering-next')).toBeNull();
      open.close();
      vi.runAllTimers();
    }
  });

  it('does not turn taps at the edges into moves', () => {
    media({ narrow: true });
    open = openLightbox(window, { set: items, currentSetIndex: 1 });
    open.root.querySelector('figcaption')!.dispatchEvent(new MouseEvent('click', { clientX: 1, bubbles: true }));
    expect(open.index).toBe(1);
  });

  it('switches layout when the window crosses the mobile breakpoint', () => {
    const width = media({ narrow: false });
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    expect(open.root.className).not.toContain('lightbox--scroll');
    width.change(true);
    expect(open.root.className).toContain('lightbox--scroll');
    expect(open.root.querySelector<HTMLButtonElement>('.lightbox-next')!.hidden).toBe(true);
    width.change(false);
    expect(open.root.querySelector<HTMLButtonElement>('.lightbox-next')!.hidden).toBe(false);
    expect(open.root.querySelector('.lightbox-content')!.hasAttribute('tabindex')).toBe(false);
    expect(open.root.querySelectorAll('.lightbox-item:not([hidden])')).toHaveLength(1);
  });

  it('has no caption toggle when no item has a caption', () => {
    media({ narrow: true });
    open = openLightbox(window, { set: items.map((item) => ({ ...item, caption: ' ' })), currentSetIndex: 0 });
    expect(open.root.querySelector<HTMLButtonElement>('.lightbox-caption-toggle')!.hidden).toBe(true);
  });
});

describe('the hash', () => {
  it('names the set among the page\'s lightbox sets, and the item', () => {
    document.body.innerHTML = `<ul data-lightbox-set><li><a href="/images/a.png" data-lightbox><img alt="A"></a></li></ul>
      <ul data-lightbox-set><li><a href="/images/b.png" data-lightbox><img alt="B"></a></li>
      <li><a href="/images/c.png" data-lightbox><img alt="C"></a></li></ul>`;
    const second = document.querySelectorAll('ul')[1]!;
    open = openFromLinks(window, second, Array.from(second.querySelectorAll('a')), 1);
    expect(window.location.hash).toBe('#lightbox=2-2');
  });
});
