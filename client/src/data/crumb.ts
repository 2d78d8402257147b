// The crumb: the server's CSRF token, kept in the `crumb` cookie and echoed on every call
// (as the `crumb` query parameter and the `X-CSRF-Token` header; the server accepts either).

/** The cookie holding the crumb. */
export const CRUMB_COOKIE = 'crumb';
/** The header the crumb is echoed in. */
export const CRUMB_HEADER = 'X-CSRF-Token';

/** Characters a crumb is made of (base64url and the dot); anything else is not stored. */
const CRUMB_PATTERN = /^[A-Za-z0-9._~-]{1,256}$/;

/** The crumb from the `crumb` cookie, if there is one. */
export function currentCrumb(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== CRUMB_COOKIE) continue;
    try {
      const value = decodeURIComponent(part.slice(at + 1).trim());
      return value === '' ? undefined : value;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Stores a new crumb in the cookie (whole site, Lax, like the server's). Only when cookies
 * are enabled and the value looks like a crumb; says whether it was stored.
 */
export function storeCrumb(crumb: unknown): boolean {
  if (!navigator.cookieEnabled || typeof crumb !== 'string' || !CRUMB_PATTERN.test(crumb)) return false;
  document.cookie = `${CRUMB_COOKIE}=${crumb}; path=/; SameSite=Lax`;
  return true;
}
