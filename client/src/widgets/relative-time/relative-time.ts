// Relative time text (spec 001 §4, §9): 'just now' at 0 seconds, 'about {n} seconds ago'
// under a minute, a formatted date after that (and for an instant still to come);
// `<time data-relative>` elements are refreshed every 5,000 ms. A page's element keeps the
// date the server wrote as its formatted date, and shows the full date in a tooltip.
import { attachTooltip } from '../tooltip/tooltip';

/** How often relative times are refreshed. */
export const RELATIVE_TIME_REFRESH_MS = 5000;
/**
 * The warning for a date node whose date cannot be read (000 §5 "A card-style date node whose
 * data-date is non-numeric is skipped with a warning"; the spec gives no wording).
 */
export const UNREADABLE_DATE_WARNING = 'Veranda: a date whose datetime is not a date is left as the server wrote it.';
/** How far ahead of the clock an instant may be and still read as now (clocks differ). */
const SKEW_MS = 1000;

/** The full date and time of `then`, as the tooltip and the formatted date show it. */
export function formattedDate(then: number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(then);
}

/** The relative wording for `then` seen at `now` (ms since the epoch), or `null` past a minute. */
export function relativeWording(then: number, now: number): string | null {
  if (then - now > SKEW_MS) return null;
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  if (seconds === 0) return 'just now';
  if (seconds < 60) return `about ${seconds} seconds ago`;
  return null;
}

/** The text for an instant `then` seen at `now` (both ms since the epoch). */
export function relativeTime(then: number, now: number, locale?: string): string {
  return relativeWording(then, now) ?? formattedDate(then, locale);
}

/** Keeps every `time[data-relative]` under `root` up to date; gives a stop function. */
export function startRelativeTimes(root: ParentNode, locale?: string): () => void {
  const served = new Map<HTMLTimeElement, string>();
  const skipped = new WeakSet<HTMLTimeElement>();
  const detach: Array<() => void> = [];
  const refresh = () => {
    root.querySelectorAll<HTMLTimeElement>('time[data-relative]').forEach((el) => {
      const then = Date.parse(el.dateTime);
      if (!Number.isFinite(then)) {
        // Skipped, with one warning per node (not one every refresh).
        if (!skipped.has(el)) console.warn(UNREADABLE_DATE_WARNING, el.dateTime);
        skipped.add(el);
        return;
      }
      if (!served.has(el)) {
        served.set(el, el.textContent?.trim() ?? '');
        detach.push(attachTooltip(el, formattedDate(then, locale)));
      }
      el.textContent = relativeWording(then, Date.now()) ?? (served.get(el) || formattedDate(then, locale));
    });
  };
  refresh();
  const timer = setInterval(refresh, RELATIVE_TIME_REFRESH_MS);
  return () => {
    clearInterval(timer);
    detach.forEach((d) => d());
  };
}
