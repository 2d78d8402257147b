import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Lightbox, openFromLinks, openLightbox } from './lightbox';
import { LIGHTBOX, edgeOf, openingSteps, throttle } from './timing';

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
    expect(root.querySelector('img')?.getAttribute('alt')).toBe('Photo b');
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
    expect(window.location.hash).toBe('#lightbox=1');
    open.next();
    expect(window.location.hash).toBe('#lightbox=2');
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
    const buttons = Array.from(open.root.querySelectorAll('button'));
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
