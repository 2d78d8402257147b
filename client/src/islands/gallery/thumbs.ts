// The thumbnail strip under a slideshow (001 §2, §4): one button per slide, linked to the
// slideshow so both always show the same index. Clicking (or Enter / Space on) a thumbnail
// makes its slide current; clicking the current one follows the active-slide click
// behaviour (next by default). The current thumbnail is kept at the strip's alignment.
import { pickWidth, sizedUrl } from '../../loader/images/ladder';
import { Slides } from './slides';

/** Strip alignment (001 §5): left to start, center to middle, right to end; middle by default. */
export type Alignment = 'start' | 'middle' | 'end';

export function stripAlignment(value: unknown): Alignment {
  switch (value) {
    case 'start':
    case 'left':
      return 'start';
    case 'end':
    case 'right':
      return 'end';
    default:
      return 'middle';
  }
}

/** What clicking the current slide does. */
export type ActiveClick = 'next' | 'previous' | 'none';

/** The index a click on thumbnail `clicked` asks for, or `null` when nothing should happen. */
export function thumbnailTarget(current: number, clicked: number, count: number, behavior: ActiveClick = 'next'): number | null {
  if (count <= 0 || clicked < 0 || clicked >= count) return null;
  if (clicked !== current) return clicked;
  if (behavior === 'none') return null;
  return behavior === 'next' ? current + 1 : current - 1;
}

/** Thumbnails shown side by side (`thumbnails-per-row`); 5 when not a positive whole number, never more than the slides. */
export function thumbnailsPerRow(value: unknown, count: number): number {
  const n = Number(value);
  const perRow = Number.isInteger(n) && n > 0 ? n : 5;
  return Math.max(1, Math.min(perRow, count || 1));
}

/** The strip's scroll position that puts a thumbnail at the alignment, within the strip's range. */
export function stripScrollLeft(
  thumb: { left: number; width: number },
  strip: { width: number; scrollWidth: number },
  alignment: Alignment,
): number {
  const max = Math.max(0, strip.scrollWidth - strip.width);
  const wanted =
    alignment === 'start' ? thumb.left : alignment === 'end' ? thumb.left + thumb.width - strip.width : thumb.left - (strip.width - thumb.width) / 2;
  return Math.min(max, Math.max(0, wanted));
}

/** The strip's settle time (strip speed 0.5 s; 0 without motion). */
export const STRIP_SPEED_MS = 500;

/** Options of the thumbnail strip. */
export interface StripOptions {
  perRow: number;
  alignment: Alignment;
  motion: boolean;
  activeClick?: ActiveClick;
  /** Square thumbnails (`square-thumbs`; true when not given). */
  square?: boolean;
  /** Thumbnail height in px (`thumbnail-strip-height`); otherwise they share the strip's width. */
  height?: number | null;
  /** Space above the strip in px (`thumbnail-strip-margin`); otherwise the stylesheet's 8. */
  margin?: number | null;
}

/** The proportions of a thumbnail that is not square: its slide's image, 16:9 for a video (001 §9). */
export function thumbRatio(item: HTMLElement): string {
  if (item.getAttribute('data-type') === 'video') return '16 / 9';
  const [w, h] = (item.getAttribute('data-image-dimensions') ?? '').split('x').map(Number);
  return w && h && w > 0 && h > 0 ? `${w} / ${h}` : '1';
}

/**
 * Builds the strip for the slideshow `items` after `anchor` and links it to `main`; returns
 * the strip's own slides (kept on `main`'s index both ways).
 */
export function mountThumbnails(win: Window, anchor: HTMLElement, items: HTMLElement[], main: Slides, options: StripOptions): Slides {
  const doc = win.document;
  const strip = new Slides(items.length, main.loop, main.index);
  main.link(strip);
  const nav = doc.createElement('div');
  nav.className = 'gallery-thumbs';
  nav.setAttribute('role', 'group');
  nav.setAttribute('aria-label', 'Thumbnails');
  nav.style.setProperty('--thumbs-per-row', String(options.perRow));
  if (options.height) {
    nav.classList.add('gallery-thumbs--fixed');
    nav.style.setProperty('--thumb-height', `${options.height}px`);
  }
  if (typeof options.margin === 'number') nav.style.marginTop = `${options.margin}px`;
  const dpr = win.devicePixelRatio || 1;
  const width = pickWidth((anchor.clientWidth || win.innerWidth) / options.perRow, dpr);
  const buttons = items.map((item, i) => {
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'gallery-thumb';
    button.setAttribute('aria-label', `Show slide ${i + 1} of ${items.length}`);
    if (options.square === false) button.style.setProperty('--thumb-ratio', thumbRatio(item));
    const source = item.querySelector('img');
    const src = source?.getAttribute('data-src') || source?.getAttribute('src');
    if (src) {
      const img = doc.createElement('img');
      img.alt = '';
      img.loading = 'lazy';
      img.decoding = 'async';
      img.src = sizedUrl(src, width, win.location.href);
      button.append(img);
    }
    button.addEventListener('click', () => {
      const target = thumbnailTarget(strip.index, i, items.length, options.activeClick);
      if (target === null) return;
      if (target === strip.index + 1) strip.next();
      else if (target === strip.index - 1) strip.previous();
      else strip.go(target);
    });
    return button;
  });
  nav.append(...buttons);
  anchor.after(nav);

  const render = (moved: boolean) => {
    buttons.forEach((b, i) => {
      if (i === strip.index) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    });
    const current = buttons[strip.index];
    if (!moved || !current) return;
    const left = stripScrollLeft(
      { left: current.offsetLeft, width: current.offsetWidth },
      { width: nav.clientWidth, scrollWidth: nav.scrollWidth },
      options.alignment,
    );
    nav.scrollTo?.({ left, behavior: options.motion ? 'smooth' : 'auto' });
  };
  strip.on((event) => {
    if (event.type !== 'change') return;
    render(true);
    win.setTimeout(() => strip.settle(), options.motion ? STRIP_SPEED_MS : 0);
  });
  render(false);
  return strip;
}
