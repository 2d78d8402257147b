import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELATIVE_TIME_REFRESH_MS, UNREADABLE_DATE_WARNING, relativeTime, startRelativeTimes } from './relative-time';

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

  it('reads an instant still to come as a date, and one a moment ahead as now', () => {
    expect(relativeTime(NOW + 3_600_000, NOW, 'en-US')).toMatch(/Nov 23, 2026/);
    expect(relativeTime(NOW + 500, NOW)).toBe('just now');
  });

  it("keeps the server's date past a minute and gives the full date in a tooltip", () => {
    const then = NOW - 30_000;
    document.body.innerHTML = `<time data-relative datetime="${new Date(then).toISOString()}">November 23, 2026</time>`;
    const el = document.querySelector('time')!;
    const stop = startRelativeTimes(document, 'en-US');
    expect(el.textContent).toBe('about 30 seconds ago');
    const tip = document.getElementById(el.getAttribute('aria-describedby')!)!;
    expect(tip.getAttribute('role')).toBe('tooltip');
    expect(tip.textContent).toMatch(/Nov 23, 2026/);
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS * 6);
    expect(el.textContent).toBe('November 23, 2026');
    stop();
    expect(el.hasAttribute('aria-describedby')).toBe(false);
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

  it('skips a date node whose date cannot be read, with one warning, and keeps the others going', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    document.body.innerHTML = `<time data-relative datetime="soon">Soon</time><time data-relative datetime="${new Date(NOW).toISOString()}"></time>`;
    const [bad, good] = [...document.querySelectorAll('time')];
    const stop = startRelativeTimes(document);
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS * 3);
    expect(bad!.textContent).toBe('Soon');
    expect(bad!.hasAttribute('aria-describedby')).toBe(false);
    expect(good!.textContent).toBe('about 15 seconds ago');
    expect(warn.mock.calls).toEqual([[UNREADABLE_DATE_WARNING, 'soon']]);
    stop();
    warn.mockRestore();
  });
});
