// A timestamp shown relative to now ("2 minutes ago"), with the full date on hover and in
// `datetime`. It re-renders on the shared minute clock, never in a live region.
import { useSyncExternalStore } from 'react';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "3 minutes ago", "in 2 hours": `at` relative to `now` (both unix ms). */
export function relativeTime(at: number, now: number, locale?: string): string {
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size * 0.75 || unit === 'minute') return format.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

const TICK_MS = 15_000;
let now = Date.now();
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!ticker) {
    ticker = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}

/** The shared clock, refreshed every 15 s while anything shows a relative time. */
function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}

/** `<time>` showing `at` (unix ms) relative to now. */
export function RelativeTime({ at }: { at: number }) {
  const current = Math.max(useNow(), Date.now());
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()}>
      {relativeTime(at, current)}
    </time>
  );
}
