// Comment counts (spec 000 §7 "a comments-count script keyed by the configured comment-service
// short name"): a lazy chunk, imported only by pages with a comment-count link (items of a
// site with comments on and a short name). The script comes from a third party that keeps
// its own cookies, so it loads under the analytics-cookie rule (never under a restrictive
// policy before the visitor accepts; the loader calls again after an Accept), and only once
// the first count link comes within 200 px of the viewport. It fills each link's text with the thread's count.
import type { PageContext } from '../generated/types';
import { onVisible } from './strategies/visible';
import { analyticsCookiesAllowed } from './telemetry/cookies';

/** The id of the count script element (the comment service's own name for it). */
export const COUNT_SCRIPT_ID = 'dsq-count-scr';
/** The links the script fills. */
export const COUNT_LINK_SELECTOR = '[data-comment-count]';

/** Adds the count script once. */
function addScript(doc: Document, src: string): void {
  if (doc.getElementById(COUNT_SCRIPT_ID)) return;
  const script = doc.createElement('script');
  script.id = COUNT_SCRIPT_ID;
  script.async = true;
  script.src = src;
  doc.head.append(script);
}

/** Loads the comment-count script for `win`'s count links when the rules allow it. */
export function startCommentCounts(win: Window, context: PageContext | null): void {
  const doc = win.document;
  const src = context?.websiteSettings?.commentCountScriptUrl;
  const link = doc.querySelector(COUNT_LINK_SELECTOR);
  if (!src || !link || !analyticsCookiesAllowed(doc, context)) return;
  onVisible(link, () => addScript(doc, src));
}
