// The visitor's answer to the cookie banner (spec 000 §4, §9): `ss_cookieAllowed` holds
// `true` or `false` for 30 days on path `/`, and `ss_cookieBannerVersion` the banner version
// the answer was given to. An answer given to another version no longer counts: the banner
// asks again, and the stale cookie is dropped so the server sees no consent either.
import { readCookie, writeCookie } from '../telemetry/transport';

/** The consent cookie; `true` means analytics cookies are allowed, `false` refused. */
export const CONSENT_COOKIE = 'ss_cookieAllowed';
/** The cookie naming the banner version the visitor answered. */
export const BANNER_VERSION_COOKIE = 'ss_cookieBannerVersion';
/** The current banner version (spec 000 §9). */
export const BANNER_VERSION = 2;
/** How long an answer lasts: 30 days. */
export const CONSENT_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The visitor's answer: `true` accepted, `false` declined, `undefined` not asked yet. */
export type ConsentAnswer = boolean | undefined;

/** Whether the answer on record was given to another banner version. */
function staleVersion(doc: Document): boolean {
  const version = readCookie(doc, BANNER_VERSION_COOKIE);
  return version !== null && version !== String(BANNER_VERSION);
}

/**
 * Reads the visitor's answer. An answer recorded without a version is taken as it is; one
 * recorded for another version is `undefined`.
 */
export function readConsent(doc: Document): ConsentAnswer {
  if (staleVersion(doc)) return undefined;
  const value = readCookie(doc, CONSENT_COOKIE);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** Drops an answer given to another banner version. */
export function dropStaleConsent(doc: Document): void {
  if (staleVersion(doc)) [CONSENT_COOKIE, BANNER_VERSION_COOKIE].forEach((name) => writeCookie(doc, name, '', 0));
}

/** Records the visitor's answer for 30 days, with the banner version it answers. */
export function writeConsent(doc: Document, allowed: boolean): void {
  writeCookie(doc, CONSENT_COOKIE, String(allowed), CONSENT_MAX_AGE_SECONDS);
  writeCookie(doc, BANNER_VERSION_COOKIE, String(BANNER_VERSION), CONSENT_MAX_AGE_SECONDS);
}
