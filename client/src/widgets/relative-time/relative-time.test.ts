import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELATIVE_TIME_REFRESH_MS, relativeTime, startRelativeTimes } from './relative-time';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe('relative time', () => {
  it("reads 'just now', then 'about {n} seconds ago', then a date", () => {
    expect(relativeTime(NOW, NOW)).toBe('just now');
    expect(relativeTime(NOW - 999, NOW)).toBe('just now');
    expect(relativeTime(NOW - 1000, NOW)).toBe('about 1 seconds ago');
    expect(relativeTime(NOW - 59_000, NOW)).toBe('about 59 seconds ago');
    expect(relativeTime(NOW - 60_000, NOW, 'en-US')).toMatch(/Nov 23, 2026/);
  });

  it('refreshes every 5000 ms until stopped', () => {
    document.body.innerHTML = `<time data-relative datetime="${new Date(NOW).toISOString()}"></time>`;
    const el = document.querySelector('time')!;
    const stop = startRelativeTimes(document);
    expect(el.textContent).toBe('just now');
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS - 1);
    expect(el.textContent).toBe('just now');
    vi.advanceTimersByTime(1);
    expect(el.textContent).toBe('about 5 seconds ago');
    stop();
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS);
    expect(el.textContent).toBe('about 5 seconds ago');
  });
});
