import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANDED_KEY, SESSION_SEEN_KEY, startSession } from './session';
import { readCookie } from './transport';
import { clearCookies } from './test-support';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(clearCookies);

describe('session info', () => {
  it('flags the first page of the first session, then neither flag on its later pages but the session', () => {
    const first = startSession(window);
    expect(first).toMatchObject({ isFirstLanding: true, isFirstSession: true });
    expect(sessionStorage.getItem(LANDED_KEY)).not.toBeNull();
    expect(localStorage.getItem(SESSION_SEEN_KEY)).not.toBeNull();

    const later = startSession(window);
    expect(later).toMatchObject({ isFirstLanding: false, isFirstSession: true });
  });

  it('knows a later browser session is not the first', () => {
    startSession(window);
    sessionStorage.clear();
    expect(startSession(window)).toMatchObject({ isFirstLanding: true, isFirstSession: false });
    expect(startSession(window)).toMatchObject({ isFirstLanding: false, isFirstSession: false });
  });

  it('claims no first time when storage is blocked', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(startSession(window)).toMatchObject({ isFirstLanding: false, isFirstSession: false });
  });

  it('creates SS_SESSION_ID as a session cookie and SS_ANALYTICS_ID for 390 days with an expiry key, only when absent', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1), toFake: ['Date'] });
    const set = vi.spyOn(document, 'cookie', 'set');
    const info = startSession(window);
    expect(info.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(readCookie(document, 'SS_SESSION_ID')).toBe(info.sessionId);
    expect(readCookie(document, 'SS_ANALYTICS_ID')).toBe(info.analyticsId);
    expect(info.analyticsId).not.toBe(info.sessionId);
    expect(set.mock.calls.map(([v]) => v)).toEqual([
      `SS_SESSION_ID=${info.sessionId}; path=/; SameSite=Lax`,
      `SS_ANALYTICS_ID=${info.analyticsId}; path=/; max-age=33696000; expires=Tue, 26 Jan 2027 00:00:00 GMT; SameSite=Lax`,
    ]);
    vi.useRealTimers();

    set.mockClear();
    const again = startSession(window);
    expect(again.sessionId).toBe(info.sessionId);
    expect(again.analyticsId).toBe(info.analyticsId);
    expect(set).not.toHaveBeenCalled();
  });
});
