// Comments (spec 000 §7 "a comments-count script keyed by the configured comment-service short
// name"; the thread is what the count links lead to): a lazy chunk, imported only by pages with
// a comment-count link (items of a site with comments on and a short name). The scripts come
// from a third party that keeps its own cookies, so they load under the analytics-cookie rule
// (never under a restrictive policy before the visitor accepts; the loader calls again after an
// Accept), and only once their element comes within 200 px of the viewport. The count script
// fills each link's text with the thread's count; the thread script draws the thread. Where
// cookies are not allowed, the thread's "Show comments" button loads it on the visitor's request.
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

/** The element the thread script draws the thread in (`id="disqus_thread"`). */
export const THREAD_SELECTOR = '[data-comment-thread]';

/** The page the thread script reads before it runs: the service's documented `disqus_config`. */
type ThreadConfig = (this: { page: { url?: string; identifier?: string } }) => void;

/** Loads `thread`'s script once, naming the item's address and id; the offer to load goes. */
function loadThread(win: Window, thread: HTMLElement, src: string): void {
  if (thread.hasAttribute('data-comment-loaded')) return;
  thread.setAttribute('data-comment-loaded', '');
  const { commentUrl: url, commentIdentifier: identifier } = thread.dataset;
  (win as Window & { disqus_config?: ThreadConfig }).disqus_config = function () {
    this.page.url = url;
    this.page.identifier = identifier;
  };
  thread.querySelectorAll<HTMLElement>('[data-comment-offer]').forEach((el) => el.remove());
  const script = win.document.createElement('script');
  script.async = true;
  script.src = src;
  script.setAttribute('data-timestamp', String(Date.now()));
  win.document.head.append(script);
}

/** The thread: loaded when near where cookies are allowed, otherwise offered behind its button. */
function startThread(win: Window, context: PageContext | null): void {
  const src = context?.websiteSettings?.commentThreadScriptUrl;
  const thread = win.document.querySelector<HTMLElement>(THREAD_SELECTOR);
  if (!src || !thread) return;
  if (analyticsCookiesAllowed(win.document, context)) {
    onVisible(thread, () => loadThread(win, thread, src));
    return;
  }
  thread.querySelectorAll<HTMLElement>('[data-comment-offer]').forEach((el) => {
    el.hidden = false;
  });
  const button = thread.querySelector<HTMLButtonElement>('button[data-comment-offer]');
  if (!button || button.onclick) return;
  button.onclick = () => {
    loadThread(win, thread, src);
    // The button is gone: keep the keyboard where the thread will be.
    thread.tabIndex = -1;
    thread.focus();
  };
}

/** Loads `win`'s comment counts and thread when the rules allow it. */
export function startComments(win: Window, context: PageContext | null): void {
  const doc = win.document;
  const src = context?.websiteSettings?.commentCountScriptUrl;
  const link = doc.querySelector(COUNT_LINK_SELECTOR);
  if (src && link && analyticsCookiesAllowed(doc, context)) onVisible(link, () => addScript(doc, src));
  startThread(win, context);
}
