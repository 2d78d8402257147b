// The members chunk, loaded by the page loader only when needed: the login prompt, logging
// out and the 'Logout Successful' dialog, the escape-key shortcuts and the owner redirect.
import type { PageContext } from '../generated/types';
import { onEscape, type EscapeAction } from './escape';
import { openLoginPrompt } from './login-prompt';
import { logOut } from './logout';
import { isLogoutLanding, showLogoutDialog } from './logout-dialog';
import { redirectOwner } from './owner-redirect';

export { openLoginPrompt, logOut, redirectOwner };

/** Whether a key press lands in something that takes text. */
function inField(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable]') !== null;
}

/** One escape press outside fields (the loader has left out presses while a dialog is open). */
export function escapePressed(win: Window, context: PageContext | null, shift: boolean): Promise<EscapeAction> {
  return onEscape(win, context, shift, {
    logout: () => void logOut(win),
    login: () => openLoginPrompt(win, win.document.activeElement),
  });
}

/**
 * What the loader hands over: an escape press, a click on a login or logout control, or
 * (no event) the page's start.
 */
export function handle(win: Window, context: PageContext | null, event?: Event): void {
  if (!event) return startMembers(win, context);
  if (event instanceof KeyboardEvent) {
    if (!event.defaultPrevented && !inField(event.target)) void escapePressed(win, context, event.shiftKey);
    return;
  }
  const control = event.target instanceof Element ? event.target.closest('[data-action]') : null;
  if (control?.getAttribute('data-action') === 'login') openLoginPrompt(win, control);
  else if (control?.getAttribute('data-action') === 'logout') void logOut(win);
}

/**
 * What a page does at start: the owner redirect; for a signed-in account, the logout
 * controls the server renders hidden (they need this script) are shown; on the logout
 * landing, its dialog opens.
 */
export function startMembers(win: Window, context: PageContext | null): void {
  if (redirectOwner(win, context)) return;
  if (context?.authenticatedAccount) {
    win.document.querySelectorAll<HTMLElement>('[data-action="logout"][hidden]').forEach((el) => {
      el.hidden = false;
    });
  }
  if (isLogoutLanding(win.location)) showLogoutDialog(win);
}
