// A timestamp in the spec's relative wording (spec 001 §4, §9: 'just now', 'about {n}
// seconds ago' under a minute, then the date), with the full date in a tooltip and in
// `datetime`. It re-renders on a shared clock refreshed every 5,000 ms, never in a live
// region.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { attachTooltip } from '../../widgets/tooltip/tooltip';
import { RELATIVE_TIME_REFRESH_MS, formattedDate, relativeTime } from '../../widgets/relative-time/relative-time';

let now = Date.now();
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!ticker) {
    ticker = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, RELATIVE_TIME_REFRESH_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}

/** The shared clock, refreshed every 5 s while anything shows a relative time. */
function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}

/** `<time>` showing `at` (unix ms) relative to now. */
export function RelativeTime({ at }: { at: number }) {
  const current = Math.max(useNow(), Date.now());
  const ref = useRef<HTMLTimeElement>(null);
  const full = formattedDate(at);
  useEffect(() => (ref.current ? attachTooltip(ref.current, full) : undefined), [full]);
  return (
    <time ref={ref} dateTime={new Date(at).toISOString()}>
      {relativeTime(at, current)}
    </time>
  );
}
