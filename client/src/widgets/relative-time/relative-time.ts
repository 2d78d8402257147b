// Relative time text (spec 001 §4, §9): 'just now' at 0 seconds, 'about {n} seconds ago'
// under a minute, a formatted date after that; `<time data-relative>` elements are refreshed
// every 5,000 ms.

/** How often relative times are refreshed. */
export const RELATIVE_TIME_REFRESH_MS = 5000;

/** The text for an instant `then` seen at `now` (both ms since the epoch). */
export function relativeTime(then: number, now: number, locale?: string): string {
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  if (seconds === 0) return 'just now';
  if (seconds < 60) return `about ${seconds} seconds ago`;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(then);
}

/** Keeps every `time[data-relative]` under `root` up to date; gives a stop function. */
export function startRelativeTimes(root: ParentNode, locale?: string): () => void {
  const refresh = () => {
    root.querySelectorAll<HTMLTimeElement>('time[data-relative]').forEach((el) => {
      const then = Date.parse(el.dateTime);
      if (Number.isFinite(then)) el.textContent = relativeTime(then, Date.now(), locale);
    });
  };
  refresh();
  const timer = setInterval(refresh, RELATIVE_TIME_REFRESH_MS);
  return () => clearInterval(timer);
}
