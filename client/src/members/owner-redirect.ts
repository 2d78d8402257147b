// The owner redirect on the client (spec 000 §2, §6): a signed-in owner or editor who opens
// a page of their own site goes to `/config/?frameUrl=<encoded path + query>`, unless a
// skip rule holds: `noredirect` in the query (remembered for the browser session), the host
// is localhost, the site is in developer mode or cloneable, the account's roles include
// viewer, or the page is not the top window (the configuration area's preview frame).
// The server makes the same decision before it answers; this one covers what only the
// browser knows (the frame) and pages answered from a cache.
import { readSessionValue, writeSessionValue } from '../data/session-values';
import { ContributorRole, type PageContext } from '../generated/types';
import { hasWebsiteRole } from '../loader/context';

/** The session-stored value (no expiry: the browser session) that remembers `noredirect`. */
export const NOREDIRECT_KEY = 'veranda:noredirect';

/** Permission ids that open the configuration area (config 1, admin 2). */
const CONFIG_PERMISSIONS: readonly number[] = [1, 2];

/** Whether `win` is the top window; a cross-origin parent counts as framed. */
export function isTopWindow(win: Window): boolean {
  try {
    return win.top === win.self;
  } catch {
    return false;
  }
}

function storage(win: Window): Storage | null {
  try {
    return win.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Where the page should send this visitor, or `null` to stay. Records `noredirect` in
 * session storage when the query carries it.
 */
export function ownerRedirectTarget(win: Window, ctx: PageContext | null): string | null {
  const { location } = win;
  const query = new URLSearchParams(location.search);
  const store = storage(win);
  if (query.has('noredirect')) {
    writeSessionValue(store, NOREDIRECT_KEY, true);
    return null;
  }
  if (!ctx?.authenticatedAccount) return null;
  if (hasWebsiteRole(ctx, ContributorRole.Viewer)) return null;
  const mayConfigure =
    hasWebsiteRole(ctx, ContributorRole.Admin) ||
    hasWebsiteRole(ctx, ContributorRole.Editor) ||
    (ctx.accessPermissions ?? []).some((p) => CONFIG_PERMISSIONS.includes(p));
  if (!mayConfigure) return null;
  if (readSessionValue(store, NOREDIRECT_KEY) === true) return null;
  if (location.hostname.toLowerCase() === 'localhost') return null;
  if (ctx.website?.developerMode || ctx.website?.cloneable) return null;
  if (!isTopWindow(win)) return null;
  return configLocation(location.pathname, location.search);
}

/** `/config/?frameUrl=` plus the encoded path and query string. */
export function configLocation(pathname: string, search: string): string {
  return `/config/?frameUrl=${encodeURIComponent(pathname + search)}`;
}

/** Sends the visitor to the configuration area when the rules say so; returns whether it did. */
export function redirectOwner(win: Window, ctx: PageContext | null): boolean {
  const target = ownerRedirectTarget(win, ctx);
  if (target === null) return false;
  win.location.assign(target);
  return true;
}
