// The visitor cookies of spec 000 §3-§5 and §9: `ss_cvr` (visitor id, first, previous and
// current visit, visit count) and `ss_cvt` (the last hit's time, alive for one visit), and
// the consent rule that keeps every analytics cookie away without `ss_cookieAllowed`.
import type { PageContext } from '../../generated/types';
import { CONSENT_COOKIE, readConsent } from '../consent/state';
import { newVisitorId, readCookie, writeCookie } from './transport';

export { CONSENT_COOKIE, newVisitorId };

/** The visitor cookie: `id|first|previous|current|count`. */
export const VISITOR_COOKIE = 'ss_cvr';
/** The visit timestamp cookie: a positive integer, the time of the last hit. */
export const VISIT_COOKIE = 'ss_cvt';

/** How long `ss_cvr` lives: 2 years. */
export const VISITOR_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;
/** How long `ss_cvt` lives, and so how long a visit lasts without a hit: 30 minutes. */
export const VISIT_MAX_AGE_SECONDS = 30 * 60;

/** The cookies cleared under a restrictive policy without consent (spec 000 §9). */
export const ANALYTICS_COOKIES = [
  'SS_MATTR',
  'SS_MID',
  'SS_lastvisit',
  'user_segment',
  'ss_cid',
  'ss_cpvisit',
  'ss_cvisit',
  'ss_cvr',
  'ss_cvt',
] as const;

/** A parsed `ss_cvr`. */
export interface VisitorCookie {
  /** The visitor id (letters, digits, `_` and `-`). */
  id: string;
  /** When the first visit started (ms since the epoch). */
  first: number;
  /** When the visit before this one started. */
  previous: number;
  /** When this visit started. */
  current: number;
  /** How many visits so far. */
  count: number;
}

const VISITOR_PATTERN = /^([\w-]+)\|([1-9]\d*)\|([1-9]\d*)\|([1-9]\d*)\|([1-9]\d*)$/;
const POSITIVE = /^[1-9]\d*$/;

/** Parses an `ss_cvr` value: a word/dash id then four positive integers, separated by bars. */
export function parseVisitorCookie(raw: string | null): VisitorCookie | null {
  const m = raw === null ? null : VISITOR_PATTERN.exec(raw);
  if (!m) return null;
  const [first, previous, current, count] = m.slice(2).map(Number) as [number, number, number, number];
  if (![first, previous, current, count].every(Number.isSafeInteger)) return null;
  return { id: m[1]!, first, previous, current, count };
}

/** Parses an `ss_cvt` value: a positive integer. */
export function parseVisitTime(raw: string | null): number | null {
  if (raw === null || !POSITIVE.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : null;
}

/** Writes a `VisitorCookie` back in its cookie form. */
export function formatVisitorCookie(v: VisitorCookie): string {
  return [v.id, v.first, v.previous, v.current, v.count].join('|');
}


/**
 * The visitor cookie after a hit at `now`, given the two cookies as found:
 * - a valid `ss_cvr` with a live `ss_cvt` (set, and less than 30 minutes old) is the same visit;
 * - a valid `ss_cvr` with no `ss_cvt` (it expired) starts a new visit: previous takes the
 *   old current, current is now, the count goes up by one;
 * - anything else (no `ss_cvr`, a malformed one, or a malformed `ss_cvt`) makes a new visitor.
 */
export function nextVisit(cvr: string | null, cvt: string | null, now: number, newId = newVisitorId): VisitorCookie {
  const visitor = parseVisitorCookie(cvr);
  const time = parseVisitTime(cvt);
  if (visitor && (cvt === null || time !== null)) {
    const live = time !== null && now - time < VISIT_MAX_AGE_SECONDS * 1000;
    if (live) return visitor;
    return { ...visitor, previous: visitor.current, current: now, count: visitor.count + 1 };
  }
  return { id: newId(), first: now, previous: now, current: now, count: 1 };
}

/**
 * Whether analytics cookies may be set and telemetry sent: always, unless the site has the
 * restrictive policy (`isAnalyticsCookiesDisabled`) and the visitor has not accepted
 * (`ss_cookieAllowed=true`, given to the current banner version).
 */
export function analyticsCookiesAllowed(doc: Document, context: PageContext | null): boolean {
  const restrictive = context?.websiteSettings?.cookieSettings?.isAnalyticsCookiesDisabled === true;
  return !restrictive || readConsent(doc) === true;
}

/** Deletes every analytics cookie of spec 000 §9. */
export function clearAnalyticsCookies(doc: Document): void {
  ANALYTICS_COOKIES.forEach((name) => writeCookie(doc, name, '', 0));
}

/** Records a hit at `now` in the visitor cookies and gives the new `ss_cvr` value. */
export function touchVisitorCookies(doc: Document, now: number): string {
  const visit = nextVisit(readCookie(doc, VISITOR_COOKIE), readCookie(doc, VISIT_COOKIE), now);
  const value = formatVisitorCookie(visit);
  writeCookie(doc, VISITOR_COOKIE, value, VISITOR_MAX_AGE_SECONDS);
  writeCookie(doc, VISIT_COOKIE, String(now), VISIT_MAX_AGE_SECONDS);
  return value;
}
