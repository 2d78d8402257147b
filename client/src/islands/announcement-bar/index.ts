// The announcement bar's widget (no React): a close button whose choice is remembered.
import { startAnnouncementBar } from './announcement-bar';

/** The page's localStorage, or `null` where the browser blocks it. */
function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Mounts the announcement bar widget on the bar `el`. */
export function mount(el: HTMLElement): void {
  startAnnouncementBar(el, localStorageOrNull(), document.getElementById('main'));
}
