// The escape key (spec 000 §4, key code 27): closes the top registered close target; else,
// with shift, logs out (only when signed in); else goes to the configuration area (signed
// in) or shows the login prompt (when the site enables `useEscapeKeyToLogin`). The close
// target registry is imported when a press comes: the lazy chunks that register in it
// (popups, the popup overlay, the cookie banner) import it the same way, so it stays out
// of the page loader's list of files.
import type { PageContext } from '../generated/types';
import { configLocation } from './owner-redirect';

/** What an escape press does. */
export type EscapeAction = 'close' | 'logout' | 'config' | 'login' | 'none';

/** The facts an escape press is decided on. */
export interface EscapeInput {
  /** Shift was held. */
  shift: boolean;
  /** A close target is registered. */
  hasCloseTarget: boolean;
  /** The page context. */
  context: PageContext | null;
}

/** Decides what an escape press does. */
export function escapeAction({ shift, hasCloseTarget, context }: EscapeInput): EscapeAction {
  if (hasCloseTarget) return 'close';
  const signedIn = Boolean(context?.authenticatedAccount);
  if (shift) return signedIn ? 'logout' : 'none';
  if (signedIn) return 'config';
  return context?.websiteSettings?.useEscapeKeyToLogin ? 'login' : 'none';
}

/** What carries out each action other than closing. */
export interface EscapeHandlers {
  logout(): void;
  login(): void;
}

/** Handles one escape press; resolves with the action taken. */
export async function onEscape(win: Window, context: PageContext | null, shift: boolean, handlers: EscapeHandlers): Promise<EscapeAction> {
  const { closeTopTarget } = await import('./close-targets');
  if (closeTopTarget()) return 'close';
  const action = escapeAction({ shift, hasCloseTarget: false, context });
  if (action === 'logout') handlers.logout();
  else if (action === 'login') handlers.login();
  else if (action === 'config') win.location.assign(configLocation(win.location.pathname, win.location.search));
  return action;
}
