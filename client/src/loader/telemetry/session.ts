// Session info of spec 001 §4 and §9: a first-landing flag (first page of this browser
// session, in sessionStorage), a first-session flag (first session of this browser, in
// localStorage), the `SS_SESSION_ID` session cookie and the `SS_ANALYTICS_ID` cookie (390 days,
// "with an expiry key": an `expires` date as well as its `max-age`).
import { newVisitorId, readCookie, writeCookie } from './transport';

/** The session id cookie, created when absent; it lives as long as the browser session. */
export const SESSION_COOKIE = 'SS_SESSION_ID';
/** The analytics id cookie. */
export const ANALYTICS_COOKIE = 'SS_ANALYTICS_ID';
/** How long `SS_ANALYTICS_ID` lives: 390 days. */
export const ANALYTICS_MAX_AGE_SECONDS = 390 * 24 * 60 * 60;
/** The sessionStorage key set by the first page of a browser session. */
export const LANDED_KEY = 'ss_landed';
/** The value of `LANDED_KEY` in the browser's first session. */
const FIRST = 'first';
/** The localStorage key set once this browser has had a session. */
export const SESSION_SEEN_KEY = 'ss_session_seen';

/** What the loader knows about the visitor's session. */
export interface SessionInfo {
  /** The `SS_SESSION_ID` value. */
  sessionId: string;
  /** The `SS_ANALYTICS_ID` value. */
  analyticsId: string;
  /** This page is the first of the browser session. */
  isFirstLanding: boolean;
  /** This browser session is the first one seen in this browser. */
  isFirstSession: boolean;
}

/**
 * The landing and first-session flags. The first page of a browser session writes, in
 * sessionStorage, whether that session is the browser's first (decided once, from the
 * localStorage key); later pages of the session read it back. Storage that cannot be used
 * (blocked, full or missing) gives `false` for both, claiming no first time it cannot keep.
 */
function sessionFlags(win: Window): [isFirstLanding: boolean, isFirstSession: boolean] {
  try {
    const known = win.sessionStorage.getItem(LANDED_KEY);
    if (known !== null) return [false, known === FIRST];
    const first = win.localStorage.getItem(SESSION_SEEN_KEY) === null;
    win.localStorage.setItem(SESSION_SEEN_KEY, '1');
    win.sessionStorage.setItem(LANDED_KEY, first ? FIRST : 'returning');
    return [true, first];
  } catch {
    return [false, false];
  }
}

/** Reads cookie `name`, creating it with a fresh id when absent or empty. */
function ensureId(doc: Document, name: string, maxAgeSeconds: number | null): string {
  const found = readCookie(doc, name);
  if (found) return found;
  const id = newVisitorId();
  writeCookie(doc, name, id, maxAgeSeconds, true);
  return id;
}

/** Reads (and where needed creates) the session info of `win`. */
export function startSession(win: Window): SessionInfo {
  const [isFirstLanding, isFirstSession] = sessionFlags(win);
  return {
    sessionId: ensureId(win.document, SESSION_COOKIE, null),
    analyticsId: ensureId(win.document, ANALYTICS_COOKIE, ANALYTICS_MAX_AGE_SECONDS),
    isFirstLanding,
    isFirstSession,
  };
}
