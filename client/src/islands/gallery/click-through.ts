// Where a gallery slide's link goes (001 §4 "Click on slideshow"): an Instagram-hosted video
// opens in a 620×720 popup window instead of playing in the page or the lightbox, and inside
// the configuration area's preview frame a slide's click-through url is posted to that frame
// (`{type: 'veranda:gallery-click-through', url}`) instead of navigating the preview away.
// Both act only on a link that would be followed: a click a moving gallery used (to go next,
// or to make a slide current) is left to it.

/** The popup an Instagram-hosted video opens in (001 §4), in CSS pixels. */
export const INSTAGRAM_POPUP = { width: 620, height: 720 } as const;
/** The message type the preview frame's page posts to the configuration area. */
export const CLICK_THROUGH_MESSAGE = 'veranda:gallery-click-through';

/** Whether `url` (resolved against `base`) is on Instagram. */
export function instagramHosted(url: string, base: string): boolean {
  try {
    const { protocol, hostname } = new URL(url, base);
    return (protocol === 'https:' || protocol === 'http:') && /(^|\.)(instagram\.com|instagr\.am)$/i.test(hostname);
  } catch {
    return false;
  }
}

/** Opens `url` in the Instagram popup window. */
export function openInstagramPopup(win: Window, url: string): void {
  win.open(url, '_blank', `popup,noopener,width=${INSTAGRAM_POPUP.width},height=${INSTAGRAM_POPUP.height}`);
}

/**
 * Whether `win` is the page in the configuration area's preview frame: framed by a page of
 * the same site under `/config`. A page framed by anyone else navigates as usual.
 */
export function inPreviewFrame(win: Window): boolean {
  if (win.parent === win) return false;
  try {
    const parent = win.parent.location;
    return parent.origin === win.location.origin && /^\/config(\/|$)/.test(parent.pathname);
  } catch {
    return false;
  }
}

/** Takes over the followed links of `list`'s slides (see the file's opening comment). */
export function watchSlideLinks(win: Window, list: HTMLElement): void {
  list.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element | null)?.closest?.('a[href]');
    const item = link?.closest('li');
    if (!link || !item || item.parentElement !== list) return;
    const href = link.getAttribute('href') ?? '';
    const through = item.getAttribute('data-click-through-url');
    // A video slide's link is its player (also for a gallery that is not mixed content,
    // where the slide shows as an image): any link but the slide's click-through.
    const player = item.getAttribute('data-type') === 'video' || href !== through;
    if (player && instagramHosted(href, win.location.href)) {
      event.preventDefault();
      openInstagramPopup(win, new URL(href, win.location.href).toString());
      return;
    }
    if (through !== null && href === through && inPreviewFrame(win)) {
      event.preventDefault();
      const url = new URL(through, win.location.href).toString();
      win.parent.postMessage({ type: CLICK_THROUGH_MESSAGE, url }, win.location.origin);
    }
  });
}
