import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTelemetry } from './index';
import { readCookie } from './transport';
import { clearCookies, pageContext, stubFetch } from './test-support';

// Spec 001 §3: the page context carries the analytics id, marketing id and session id; §4:
// "a session id cookie is created if absent"; §9: SS_ANALYTICS_ID, SS_SESSION_ID and SS_MID.

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  sessionStorage.clear();
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  stubFetch();
});
afterEach(() => {
  clearCookies();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The three ids of `context`. */
const ids = (context: ReturnType<typeof pageContext>) => [context.analyticsId, context.sessionId, context.marketingId];

describe('the visitor ids of the page context', () => {
  it('are the cookies the browser brings', () => {
    document.cookie = 'SS_ANALYTICS_ID=a-1; path=/';
    document.cookie = 'SS_SESSION_ID=s-2; path=/';
    document.cookie = 'SS_MID=m-3; path=/';
    const context = pageContext({ analyticsId: null, sessionId: null, marketingId: null } as never);
    startTelemetry(window, context);
    expect(ids(context)).toEqual(['a-1', 's-2', 'm-3']);
  });

  it('are created when absent, the marketing id excepted (it is made on a campaign landing)', () => {
    const context = pageContext({ analyticsId: null, sessionId: null, marketingId: null } as never);
    startTelemetry(window, context);
    expect(context.analyticsId).toBe(readCookie(document, 'SS_ANALYTICS_ID'));
    expect(context.sessionId).toBe(readCookie(document, 'SS_SESSION_ID'));
    expect(context.analyticsId).toMatch(/^[\w-]+$/);
    expect(context.sessionId).toMatch(/^[\w-]+$/);
    expect(context.marketingId).toBeNull();
  });

  it('are neither created nor read under a restrictive policy without consent', () => {
    document.cookie = 'SS_MID=m-3; path=/';
    const context = pageContext({ analyticsId: null, sessionId: null, marketingId: null } as never, true);
    startTelemetry(window, context);
    expect(ids(context)).toEqual([null, null, null]);
    expect(readCookie(document, 'SS_SESSION_ID')).toBeNull();
    expect(readCookie(document, 'SS_ANALYTICS_ID')).toBeNull();
  });

  it('are created under a restrictive policy once the visitor has accepted', () => {
    document.cookie = 'ss_cookieAllowed=true; path=/';
    const context = pageContext({ analyticsId: null, sessionId: null, marketingId: null } as never, true);
    startTelemetry(window, context);
    expect(context.sessionId).toBe(readCookie(document, 'SS_SESSION_ID'));
    expect(context.sessionId).not.toBeNull();
  });
});
