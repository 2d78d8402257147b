// The accordion widget: takes over an accordion block's `<details>` items (no React). A
// `veranda:panel-path` event on the block, with the path as `detail`, selects items.
import { Accordion } from './accordion';

/** The event that selects items by panel path. */
export const PANEL_PATH_EVENT = 'veranda:panel-path';

/** Mounts the accordion in `el` with the block's data. */
export function mount(el: HTMLElement, data: unknown): void {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const accordion = new Accordion(el, {
    allowMultipleOpen: d.allowMultipleOpen === true,
    isFirstItemExpanded: d.isFirstItemExpanded === true,
    motion: !reduced,
  });
  el.addEventListener(PANEL_PATH_EVENT, (event) => {
    const path = (event as CustomEvent).detail;
    if (typeof path === 'string') accordion.selectPath(path);
  });
}
