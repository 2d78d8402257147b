import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_COOKIES,
  analyticsCookiesAllowed,
  clearAnalyticsCookies,
  nextVisit,
  parseVisitorCookie,
  parseVisitTime,
  touchVisitorCookies,
} from './cookies';
import { readCookie } from './transport';
import { clearCookies, cookieNames, pageContext } from './test-support';

const MINUTE = 60_000;
const T0 = 1_700_000_000_000;

beforeEach(() => vi.useFakeTimers({ now: T0 }));
afterEach(() => {
  clearCookies();
  vi.useRealTimers();
});

describe('ss_cvr', () => {
  it('parses a word/dash id followed by four positive integers', () => {
    expect(parseVisitorCookie('ab_C-9|1|2|3|4')).toEqual({ id: 'ab_C-9', first: 1, previous: 2, current: 3, count: 4 });
  });

  it.each([
    ['no count', 'abc|1|2|3'],
    ['an extra part', 'abc|1|2|3|4|5'],
    ['a zero', 'abc|1|2|3|0'],
    ['a negative number', 'abc|1|-2|3|4'],
    ['a leading zero', 'abc|01|2|3|4'],
    ['a fraction', 'abc|1|2.5|3|4'],
    ['letters in a number', 'abc|1|2|3|x'],
    ['an empty id', '|1|2|3|4'],
    ['a space in the id', 'a b|1|2|3|4'],
    ['a dot in the id', 'a.b|1|2|3|4'],
    ['a number past 2^53', 'abc|1|2|3|99999999999999999999'],
    ['nothing', ''],
  ])('is refused with %s', (_, raw) => {
    expect(parseVisitorCookie(raw)).toBeNull();
  });
});

describe('ss_cvt', () => {
  it('is a positive integer', () => {
    expect(parseVisitTime('1700000000000')).toBe(1_700_000_000_000);
    for (const raw of ['0', '-5', '1.5', 'abc', '', ' 12', null]) expect(parseVisitTime(raw)).toBeNull();
  });
});

describe('a hit', () => {
  const id = () => 'new-id';
  const cvr = 'v1|100|200|300|4';

  it('inside a live visit keeps the visitor cookie as it is', () => {
    expect(nextVisit(cvr, String(T0 - 29 * MINUTE), T0, id)).toEqual({ id: 'v1', first: 100, previous: 200, current: 300, count: 4 });
  });

  it('after ss_cvt expired starts a new visit: count +1, previous and current shift', () => {
    expect(nextVisit(cvr, null, T0, id)).toEqual({ id: 'v1', first: 100, previous: 300, current: T0, count: 5 });
  });

  it('with an ss_cvt older than 30 minutes starts a new visit too', () => {
    expect(nextVisit(cvr, String(T0 - 30 * MINUTE), T0, id)).toMatchObject({ previous: 300, current: T0, count: 5 });
  });

  it('with a malformed ss_cvr makes a new visitor', () => {
    expect(nextVisit('v1|100|200|300', String(T0), T0, id)).toEqual({ id: 'new-id', first: T0, previous: T0, current: T0, count: 1 });
  });

  it('with a malformed ss_cvt recreates both', () => {
    expect(nextVisit(cvr, 'yesterday', T0, id)).toEqual({ id: 'new-id', first: T0, previous: T0, current: T0, count: 1 });
  });

  it('without cookies makes a visitor with a random word/dash id', () => {
    const visit = nextVisit(null, null, T0);
    expect(visit.id).toMatch(/^[0-9a-f]{32}$/);
    expect(nextVisit(null, null, T0).id).not.toBe(visit.id);
    expect(visit).toMatchObject({ first: T0, previous: T0, current: T0, count: 1 });
  });
});

describe('the visitor cookies in the browser', () => {
  it('are written with path /, SameSite=Lax, 2 years and 30 minutes', () => {
    const set = vi.spyOn(document, 'cookie', 'set');
    touchVisitorCookies(document, Date.now());
    const written = set.mock.calls.map(([value]) => value);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^ss_cvr=[0-9a-f]{32}%7C\d+%7C\d+%7C\d+%7C1; path=\/; max-age=63072000; SameSite=Lax$/);
    expect(written[1]).toBe(`ss_cvt=${T0}; path=/; max-age=1800; SameSite=Lax`);
  });

  it('count visits across the 30-minute boundary of ss_cvt', () => {
    const first = touchVisitorCookies(document, Date.now());
    const [id] = first.split('|');
    expect(first).toBe(`${id}|${T0}|${T0}|${T0}|1`);

    vi.advanceTimersByTime(20 * MINUTE);
    expect(touchVisitorCookies(document, Date.now())).toBe(first);

    // 29 minutes after the last hit the visit is still alive (ss_cvt slides with each hit).
    vi.advanceTimersByTime(29 * MINUTE);
    expect(touchVisitorCookies(document, Date.now())).toBe(first);

    const lastHit = Date.now();
    vi.advanceTimersByTime(31 * MINUTE);
    expect(readCookie(document, 'ss_cvt')).toBeNull();
    const now = Date.now();
    expect(touchVisitorCookies(document, now)).toBe(`${id}|${T0}|${T0}|${now}|2`);
    expect(readCookie(document, 'ss_cvt')).toBe(String(now));
    expect(now - lastHit).toBe(31 * MINUTE);
  });

  it('are recreated when ss_cvr is malformed', () => {
    document.cookie = 'ss_cvr=bad%20id|1|2|3|4; path=/';
    document.cookie = `ss_cvt=${T0 - MINUTE}; path=/`;
    const value = touchVisitorCookies(document, T0);
    expect(value).toMatch(new RegExp(`^[0-9a-f]{32}\\|${T0}\\|${T0}\\|${T0}\\|1$`));
    expect(readCookie(document, 'ss_cvr')).toBe(value);
  });
});

describe('consent', () => {
  it('allows analytics cookies without the restrictive policy', () => {
    expect(analyticsCookiesAllowed(document, pageContext())).toBe(true);
    expect(analyticsCookiesAllowed(document, null)).toBe(true);
  });

  it('under the restrictive policy needs ss_cookieAllowed=true', () => {
    const restrictive = pageContext({}, true);
    expect(analyticsCookiesAllowed(document, restrictive)).toBe(false);
    document.cookie = 'ss_cookieAllowed=false; path=/';
    expect(analyticsCookiesAllowed(document, restrictive)).toBe(false);
    document.cookie = 'ss_cookieAllowed=true; path=/';
    expect(analyticsCookiesAllowed(document, restrictive)).toBe(true);
  });

  it('clears exactly the nine analytics cookies', () => {
    expect(ANALYTICS_COOKIES).toEqual(['SS_MATTR', 'SS_MID', 'SS_lastvisit', 'user_segment', 'ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt']);
    for (const name of ANALYTICS_COOKIES) document.cookie = `${name}=1; path=/`;
    document.cookie = 'crumb=abc; path=/';
    document.cookie = 'ss_cookieAllowed=false; path=/';
    clearAnalyticsCookies(document);
    expect(cookieNames()).toEqual(['crumb', 'ss_cookieAllowed']);
  });
});
