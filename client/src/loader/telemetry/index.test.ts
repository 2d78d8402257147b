import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTelemetry } from './index';
import { clearCookies, cookieNames, formFields, pageContext, stubFetch } from './test-support';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  sessionStorage.clear();
  localStorage.clear();
  // The performance settings call answers the stub's 204; its console error is not under test here.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  clearCookies();
  vi.useRealTimers();
});

const hits = (seen: ReturnType<typeof stubFetch>['seen']) => seen.filter((r) => r.url === '/api/census/RecordHit');

describe('telemetry on a page', () => {
  it('sets the visitor and session cookies and sends the hit with ss_cvr', async () => {
    const { seen } = stubFetch();
    const telemetry = startTelemetry(window, pageContext());
    await vi.advanceTimersByTimeAsync(0);
    expect(cookieNames()).toEqual(['SS_ANALYTICS_ID', 'SS_SESSION_ID', 'ss_cvr', 'ss_cvt']);
    expect(telemetry.session).not.toBeNull();
    expect(hits(seen)).toHaveLength(1);
    expect(formFields(hits(seen)[0]!.init.body).ss_cvr).toBe(telemetry.visitorCookie);
    expect(telemetry.visitorCookie).toMatch(/\|1$/);
  });

  it('under a restrictive policy without consent sets nothing, sends nothing and clears the analytics cookies', async () => {
    for (const name of ['SS_MID', 'ss_cvr', 'ss_cvt', 'user_segment']) document.cookie = `${name}=1; path=/`;
    document.cookie = 'crumb=c; path=/';
    const { seen } = stubFetch();
    const set = vi.spyOn(document, 'cookie', 'set');
    const telemetry = startTelemetry(window, pageContext({}, true));
    await vi.advanceTimersByTimeAsync(0);
    expect(cookieNames()).toEqual(['crumb']);
    // Every write was a deletion.
    expect(set.mock.calls.every(([v]) => /=; path=\/; max-age=0;/.test(v))).toBe(true);
    expect(telemetry.session).toBeNull();
    expect(telemetry.visitorCookie).toBe('');
    expect(telemetry.quiet).toBe(true);
    telemetry.errors.report(new Error('x'));
    telemetry.trace.log('x');
    await telemetry.events.recordEvent('x');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(0);
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });

  it('stops sending once the visitor declines on the page', async () => {
    document.cookie = 'ss_cookieAllowed=true; path=/';
    const { seen } = stubFetch();
    const telemetry = startTelemetry(window, pageContext({}, true));
    await vi.advanceTimersByTimeAsync(0);
    // The performance settings call may be in flight already; it is not what is counted.
    const sent = () => seen.filter((r) => r.url !== '/api/1/performance/settings').length;
    const before = sent();
    expect(hits(seen)).toHaveLength(1);
    document.cookie = 'ss_cookieAllowed=false; path=/';
    await telemetry.census.recordHit();
    await telemetry.events.recordEvent('newsletter-signup');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent()).toBe(before);
  });

  it('does not count an answer given to another banner version', async () => {
    document.cookie = 'ss_cookieAllowed=true; path=/';
    document.cookie = 'ss_cookieBannerVersion=1; path=/';
    const { seen } = stubFetch();
    expect(startTelemetry(window, pageContext({}, true)).quiet).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(hits(seen)).toHaveLength(0);
  });

  it('under a restrictive policy with consent sets the cookies', () => {
    stubFetch();
    document.cookie = 'ss_cookieAllowed=true; path=/';
    startTelemetry(window, pageContext({}, true));
    expect(cookieNames()).toEqual(['SS_ANALYTICS_ID', 'SS_SESSION_ID', 'ss_cookieAllowed', 'ss_cvr', 'ss_cvt']);
  });

  it('records no hit and touches no visitor cookie when the page disables analytics', async () => {
    const { seen } = stubFetch();
    startTelemetry(window, pageContext({ analyticsEnabled: false }));
    await vi.advanceTimersByTimeAsync(0);
    expect(hits(seen)).toHaveLength(0);
    expect(cookieNames()).toEqual(['SS_ANALYTICS_ID', 'SS_SESSION_ID']);
  });

  it('starts without a page context and never throws', () => {
    stubFetch();
    expect(() => startTelemetry(window, null)).not.toThrow();
    expect(() => startTelemetry(window, { pageType: 100 } as never)).not.toThrow();
  });
});

describe('the event calls of a page', () => {
  it('load on first use and post with the page context', async () => {
    vi.useRealTimers();
    const { seen } = stubFetch();
    const telemetry = startTelemetry(window, pageContext());
    await telemetry.events.recordEvent('newsletter-signup');
    const event = seen.find((r) => r.url === '/api/events/RecordEvent')!;
    expect(formFields(event.init.body).event).toBe('newsletter-signup');
    expect(JSON.parse(formFields(event.init.body).data!).websiteId).toBe('w1');
  });
});
