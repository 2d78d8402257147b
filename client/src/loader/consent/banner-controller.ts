// The cookie banner's state, in the banner's lazy chunk: the settings in force, whether
// the banner is forced, and what each event does (see `index.ts`). An answer is recorded
// in the cookies, the forced state ends, and a `veranda:consent` event announces it.
// While shown, the banner is a close target (`members/close-targets.ts`): the escape key
// closes it, after anything opened later, without recording an answer and ending the
// forced state; it shows again on the next page while the visitor has not answered. The
// registry is imported when the banner shows, so the page loader does not list it among
// this chunk's files.
import type { PageContext } from '../../generated/types';
import { mountBanner, unmountBanner } from './banner';
import { CONSENT_EVENT, FORCED_CLASS, FORCE_EVENT, UNFORCE_EVENT } from './events';
import { readConsent, writeConsent } from './state';

type Settings = Record<string, unknown>;

let settings: Settings | null = null;
let forced = false;
let unregister = () => {};
/** Counts banners shown, so a late registry import registers only the current one. */
let shown = 0;

/** Drops the banner's close target. */
function release(): void {
  shown += 1;
  unregister();
  unregister = () => {};
}

const settingsOf = (value: unknown, fallback: Settings): Settings =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Settings) : fallback;

/** Handles `type` (`start` or one of the banner events) with the event's `detail`. */
export function handle(win: Window, context: PageContext | null, onAnswer: (allowed: boolean) => void, type: string, detail?: unknown): void {
  const doc = win.document;
  settings = settingsOf(detail, settings ?? settingsOf(context?.websiteSettings?.cookieSettings, {}));
  if (type === FORCE_EVENT) forced = true;
  if (type === UNFORCE_EVENT) forced = false;
  doc.body.classList.toggle(FORCED_CLASS, forced);

  const answer = (allowed: boolean) => {
    release();
    writeConsent(doc, allowed);
    forced = false;
    doc.body.classList.remove(FORCED_CLASS);
    onAnswer(allowed);
    win.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { allowed } }));
  };
  const show = forced || (settings.isCookieBannerEnabled === true && readConsent(doc) === undefined);
  release();
  unmountBanner(doc);
  if (!show) return;
  mountBanner(doc, settings, { forced, onAnswer: answer });
  const current = shown;
  import('../../members/close-targets')
    .then(({ registerCloseTarget }) => {
      if (current !== shown) return;
      unregister = registerCloseTarget(() => {
        release();
        forced = false;
        doc.body.classList.remove(FORCED_CLASS);
        unmountBanner(doc);
      });
    })
    .catch((error: unknown) => console.error('Veranda: the escape key cannot close the cookie banner.', error));
}

/** Forgets the state (for tests). */
export function reset(): void {
  release();
  settings = null;
  forced = false;
}
