// The loader's way of talking to the telemetry endpoints: cookies, form and JSON posts
// with a timeout, beacons with an XMLHttpRequest fallback, and the "page is going away" signal.

/** Whether telemetry may be sent now; set by `startTelemetry` to follow the visitor's consent. */
let allowed: () => boolean = () => true;

/** Sets the rule every telemetry call checks just before it is sent. */
export function gateTelemetry(rule: () => boolean): void {
  allowed = rule;
}

/** Whether telemetry may be sent now (see `gateTelemetry`). */
export function telemetryAllowed(): boolean {
  return allowed();
}

/**
 * A new id (visitor, session, analytics, marketing): 32 hex digits, the current millisecond
 * (plus 2^44, so always 12 digits) then 80 bits from the platform's random source. Ids made
 * later sort after earlier ones, so the server stores a new visitor's session at the end of its
 * tree. The time it tells is the first visit's, which `ss_cvr` carries anyway.
 */
export function newVisitorId(): string {
  return crypto.getRandomValues(new Uint8Array(10)).reduce((id, b) => id + (b + 256).toString(16).slice(1), (Date.now() + 2 ** 44).toString(16));
}

/** The cookie the server keeps its CSRF crumb in. */
export const CRUMB_COOKIE = 'crumb';

/** Reads cookie `name` of `doc`, or `null` when it is not set. */
export function readCookie(doc: Document, name: string): string | null {
  for (const part of doc.cookie.split(';')) {
    const at = part.indexOf('=');
    if (part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Sets cookie `name` on path `/` with `SameSite=Lax`; `maxAgeSeconds` of `null` makes a
 * session cookie, `0` deletes it. With `expiryKey`, the lifetime is also written as an
 * `expires` date (the analytics id cookie: spec 001 §9 "with an expiry key").
 */
export function writeCookie(doc: Document, name: string, value: string, maxAgeSeconds: number | null, expiryKey?: boolean): void {
  let age = maxAgeSeconds === null ? '' : `; max-age=${maxAgeSeconds}`;
  if (expiryKey && maxAgeSeconds !== null) age += `; expires=${new Date(Date.now() + maxAgeSeconds * 1000).toUTCString()}`;
  const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
  doc.cookie = `${name}=${encodeURIComponent(value)}; path=/${age}; SameSite=Lax${secure}`;
}

/** Starts a timer that aborts its controller after `ms`; gives the signal and a way to stop. */
function deadline(ms: number): [AbortSignal, () => void] {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return [controller.signal, () => clearTimeout(timer)];
}

/**
 * Fetches `url`, aborted after `timeoutMs`. Resolves with the response, or rejects with
 * the fetch error (an `AbortError` `DOMException` on timeout, a `TypeError` when telemetry
 * is not allowed).
 */
export async function fetchWithTimeout(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  if (!allowed()) throw new TypeError('Veranda: telemetry is not allowed without consent.');
  const [signal, stop] = deadline(timeoutMs);
  try {
    return await fetch(url, { credentials: 'same-origin', ...init, signal });
  } finally {
    stop();
  }
}

/**
 * Posts `fields` form-encoded with a timeout (`keepalive`, so a call made as a link is
 * followed still arrives); any failure resolves with `null`.
 */
export function postForm(url: string, fields: Record<string, string>, timeoutMs: number): Promise<Response | null> {
  return fetchWithTimeout(url, { method: 'POST', body: new URLSearchParams(fields), keepalive: true }, timeoutMs).catch(() => null);
}

/**
 * Sends `body` with `navigator.sendBeacon`; when there is no beacon or the browser refuses
 * it, posts it with an `XMLHttpRequest` of Content-Type `type` (`text/plain` for the JSON
 * text bodies, the form type for form bodies, which the beacon itself would have sent).
 */
export function beacon(url: string, body: string | URLSearchParams, type: string): void {
  if (!allowed()) return;
  try {
    if (navigator.sendBeacon?.(url, body)) return;
  } catch {
    // A refused beacon (for instance a body over the quota) falls through to the request.
  }
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Content-Type', type);
    xhr.send(body);
  } catch {
    // Telemetry never breaks the page.
  }
}

/** Runs `fn` whenever the page is hidden or being unloaded. */
export function onPageHide(win: Window, fn: () => void): void {
  win.addEventListener('pagehide', fn);
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'hidden') fn();
  });
}
