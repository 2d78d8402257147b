// The announcement bar: a visitor may close it, and it stays closed on every page of the
// site until its text changes (a new announcement shows again).
//
// A closed bar must never paint again, so the choice goes to the server: closing sets the
// cookie `ss_announcementBarDismissed` to the bar's `data-announcement-id` (the id the
// server computed from the announcement's text), `Path=/; SameSite=Lax`, for one year, and
// the server leaves the bar out of every page while the cookie names the current
// announcement. The cookie is a preference the visitor chose, not an identifier, so it is
// written whatever the cookie-consent answer. localStorage keeps the id too: where the
// cookie is missing (blocked, expired, or the bar was closed before the cookie existed),
// the bar is hidden once this widget starts and the cookie is written again, so the next
// page leaves it out. Without storage or cookies the bar closes for this page only.
import { readCookie, writeCookie } from '../../loader/telemetry/transport';
import { hide } from '../../widgets/animations/hide-show';

/** The cookie, and the localStorage key, holding the id of the announcement last closed. */
export const DISMISSED_KEY = 'ss_announcementBarDismissed';
/** How long the dismissal cookie lives: one year. */
export const DISMISSED_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** The attribute in which the server gives the bar's announcement id. */
export const ID_ATTRIBUTE = 'data-announcement-id';

/**
 * Which announcement `el` shows: the server's id; for a bar without one, its text (kept in
 * localStorage only, the server cannot match it).
 */
function announcement(el: HTMLElement): { key: string; fromServer: boolean } {
  const id = el.getAttribute(ID_ATTRIBUTE)?.trim();
  if (id) return { key: id, fromServer: true };
  return { key: (el.querySelector('p')?.textContent ?? el.textContent ?? '').trim(), fromServer: false };
}

/** Reads the closed announcement's id; `null` when none or storage is blocked. */
function readDismissed(storage: Storage | null): string | null {
  try {
    return storage?.getItem(DISMISSED_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Whether the announcement in `el` was closed before (by the cookie or in storage). */
export function isDismissed(el: HTMLElement, storage: Storage | null): boolean {
  const { key } = announcement(el);
  return readDismissed(storage) === key || readCookie(el.ownerDocument, DISMISSED_KEY) === key;
}

/** Remembers that the announcement in `el` was closed, in the cookie and in storage. */
function remember(el: HTMLElement, storage: Storage | null): void {
  const { key, fromServer } = announcement(el);
  if (fromServer) writeCookie(el.ownerDocument, DISMISSED_KEY, key, DISMISSED_MAX_AGE_SECONDS);
  try {
    storage?.setItem(DISMISSED_KEY, key);
  } catch {
    // Storage full or blocked: the cookie alone remembers it.
  }
}

/**
 * Takes over the bar `el`: hides it when this announcement was closed before (and writes
 * the cookie again, so the server leaves it out next time), otherwise shows its close
 * button, which hides the bar, remembers it and moves focus to `focusAfter`.
 */
export function startAnnouncementBar(el: HTMLElement, storage: Storage | null, focusAfter: HTMLElement | null): void {
  if (isDismissed(el, storage)) {
    el.hidden = true;
    remember(el, storage);
    return;
  }
  const close = el.querySelector<HTMLButtonElement>('.announcement-bar-close');
  if (!close) return;
  close.hidden = false;
  close.addEventListener('click', () => {
    remember(el, storage);
    // The bar folds away (000 §4 collapse); focus moves on at once.
    void hide(el, 'collapse');
    focusAfter?.focus();
  });
}
