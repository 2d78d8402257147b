// The announcement bar: a visitor may close it, and it stays closed on every page of the
// site until its text changes (a new announcement shows again). The closed text is kept
// in localStorage; without storage the bar closes for this page only.

/** The localStorage key holding the text of the announcement last closed. */
export const DISMISSED_KEY = 'ss_announcementBarDismissed';

/** The announcement's text, which says which announcement was closed. */
function announcement(el: HTMLElement): string {
  return (el.querySelector('p')?.textContent ?? el.textContent ?? '').trim();
}

/** Reads the closed announcement's text; `null` when none or storage is blocked. */
function readDismissed(storage: Storage | null): string | null {
  try {
    return storage?.getItem(DISMISSED_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Whether the announcement in `el` was closed before. */
export function isDismissed(el: HTMLElement, storage: Storage | null): boolean {
  return readDismissed(storage) === announcement(el);
}

/**
 * Takes over the bar `el`: hides it when this announcement was closed before, otherwise
 * shows its close button, which hides the bar, remembers it and moves focus to `focusAfter`.
 */
export function startAnnouncementBar(el: HTMLElement, storage: Storage | null, focusAfter: HTMLElement | null): void {
  if (isDismissed(el, storage)) {
    el.hidden = true;
    return;
  }
  const close = el.querySelector<HTMLButtonElement>('.announcement-bar-close');
  if (!close) return;
  close.hidden = false;
  close.addEventListener('click', () => {
    try {
      storage?.setItem(DISMISSED_KEY, announcement(el));
    } catch {
      // Storage full or blocked: closed for this page only.
    }
    el.hidden = true;
    focusAfter?.focus();
  });
}
