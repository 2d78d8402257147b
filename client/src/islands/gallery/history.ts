// Gallery history (001 §2): with `historyEnabled`, a slideshow or slider writes its current
// slide to the address as the visitor moves: the page's path, a slash and the slide's key
// (its `data-slide-url`, else its `data-slide-id`), with `{ itemId: key }` as the history
// state. The entry is replaced, never pushed: the back button leaves the page instead of
// stepping back through slides. The server answers that address with the page, the slide
// current (`data-linked-slide` on the list); `?itemId=<key>` also selects a slide on load.
// Nothing is written inside the configuration area's editing frame.
import type { Slides } from './slides';

/** The history state key, and the query key an address may also name a slide with. */
export const ITEM_ID_KEY = 'itemId';

/** A key is one path segment of unreserved characters, as the server reads it. */
const KEY = /^[A-Za-z0-9._~-]+$/;

/** Whether the block data turns gallery history on. */
export function historyEnabled(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>).historyEnabled === true;
}

/** Whether the page is in the configuration area's editing frame (a cross-origin parent counts). */
export function inEditor(win: Window): boolean {
  try {
    return win.top !== win.self;
  } catch {
    return true;
  }
}

/** A slide's key: its slide url, else its slide id; `null` when it has no usable one. */
export function slideKey(item: Element): string | null {
  const key = item.getAttribute('data-slide-url')?.trim() || item.getAttribute('data-slide-id')?.trim() || '';
  return KEY.test(key) && key !== '.' && key !== '..' ? key : null;
}

/** The page's own path: `pathname` without a trailing slash and without the linked slide's `/<key>`. */
export function pagePath(pathname: string, linked: string | null): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (linked && path.endsWith(`/${linked}`)) return path.slice(0, -linked.length - 1) || '/';
  return path || '/';
}

/** The address of the slide `key` (the page itself for `null`), keeping the query but `itemId`, and the hash. */
export function slideAddress(page: string, key: string | null, search: string, hash: string): string {
  const query = new URLSearchParams(search);
  query.delete(ITEM_ID_KEY);
  const rest = `${query.toString() ? `?${query}` : ''}${hash}`;
  return `${key ? `${page.replace(/\/$/, '')}/${key}` : page}${rest}`;
}

/** The index of the slide the address names: the server's linked slide, else `?itemId=`; -1 for none. */
export function linkedIndex(keys: readonly (string | null)[], linked: string | null, search: string): number {
  const wanted = linked || new URLSearchParams(search).get(ITEM_ID_KEY);
  return wanted ? keys.indexOf(wanted) : -1;
}

/** One gallery's history: the slide to start on, and the writer to attach to its slides. */
export interface GalleryHistory {
  /** The slide the address names, or 0. */
  start: number;
  /** Writes every change of `slides` to the address; returns the unsubscribe. */
  follow(slides: Slides): () => void;
}

/** Gallery history for `list`, or `null` inside the editing frame. */
export function galleryHistory(win: Window, list: HTMLElement): GalleryHistory | null {
  if (inEditor(win)) return null;
  const keys = Array.from(list.children, slideKey);
  const linked = list.getAttribute('data-linked-slide');
  const page = pagePath(win.location.pathname, linked && keys.includes(linked) ? linked : null);
  const index = linkedIndex(keys, linked, win.location.search);
  return {
    start: Math.max(0, index),
    follow: (slides) =>
      slides.on((event) => {
        if (event.type !== 'change') return;
        const key = keys[event.index] ?? null;
        const state: unknown = win.history.state;
        const base = typeof state === 'object' && state !== null ? state : {};
        const address = slideAddress(page, key, win.location.search, win.location.hash);
        win.history.replaceState({ ...base, [ITEM_ID_KEY]: key }, '', address);
      }),
  };
}
