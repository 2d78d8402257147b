// Slideshow captions over the slide (the meta overlay, 001 §3 `meta-position`, §4): the
// server draws them at their position; here a caption whose content is taller than 90 % of
// its slide gets the overflow state, which fixes it at 40 % of the slide's height and
// scrolls it. An overflowing caption can be reached with the keyboard (it takes focus and
// is named "Caption of slide N"); the server draws every caption that way, since before
// it is measured (or without script) a long one may scroll, and measuring takes that
// from the captions that fit. Captions are measured again after the galleries' resize
// emitter (see resize.ts) and when a slide's image loads.
import { onGalleryResize } from './resize';

/** The overflow state's class. */
export const OVERFLOW_CLASS = 'gallery-meta--overflow';
/** A caption overflows when its content is taller than this share of its slide. */
export const OVERFLOW_RATIO = 0.9;
export { RESIZE_DEBOUNCE_MS } from './resize';

/** Whether content `contentHeight` high overflows a slide `containerHeight` high. */
export function overflows(contentHeight: number, containerHeight: number): boolean {
  return containerHeight > 0 && contentHeight > containerHeight * OVERFLOW_RATIO;
}

/** Measures `meta` against `container` and sets or clears its overflow state; returns whether it overflows. */
export function measureMeta(meta: HTMLElement, container: HTMLElement, label: string): boolean {
  // Measured at its own height: the overflow state would cap it at 40 %.
  meta.classList.remove(OVERFLOW_CLASS);
  const over = overflows(meta.scrollHeight, container.clientHeight);
  meta.classList.toggle(OVERFLOW_CLASS, over);
  if (over) {
    meta.tabIndex = 0;
    meta.setAttribute('role', 'group');
    meta.setAttribute('aria-label', label);
  } else {
    meta.removeAttribute('tabindex');
    meta.removeAttribute('role');
    meta.removeAttribute('aria-label');
  }
  return over;
}

/** Watches the captions over the slides of `list`; returns a function that stops watching. */
export function watchMeta(win: Window, list: HTMLElement): () => void {
  const captions = Array.from(list.children).flatMap((item, i) => {
    const meta = item.querySelector<HTMLElement>('.gallery-meta');
    const container = meta?.closest<HTMLElement>('figure') ?? meta?.parentElement;
    return meta && container ? [{ meta, container, label: `Caption of slide ${i + 1}` }] : [];
  });
  if (captions.length === 0) return () => {};
  const measureAll = () => captions.forEach((c) => measureMeta(c.meta, c.container, c.label));
  const loaded = (event: Event) => {
    const caption = captions.find((c) => c.container.contains(event.target as Node));
    if (caption) measureMeta(caption.meta, caption.container, caption.label);
  };
  measureAll();
  const stop = onGalleryResize(win, measureAll);
  // `load` does not bubble; listened to while capturing, it reaches the list for every image.
  list.addEventListener('load', loaded, true);
  return () => {
    stop();
    list.removeEventListener('load', loaded, true);
  };
}
