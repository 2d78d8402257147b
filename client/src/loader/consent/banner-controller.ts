// The cookie banner's state, in the banner's lazy chunk: the settings in force, whether
// the banner is forced, and what each event does (see `index.ts`). An answer is recorded
// in the cookies, the forced state ends, and a `veranda:consent` event announces it.
import type { PageContext } from '../../generated/types';
import { mountBanner, unmountBanner } from './banner';
import { CONSENT_EVENT, FORCED_CLASS, FORCE_EVENT, UNFORCE_EVENT } from './events';
import { readConsent, writeConsent } from './state';

type Settings = Record<string, unknown>;

let settings: Settings | null = null;
let forced = false;

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
    writeConsent(doc, allowed);
    forced = false;
    doc.body.classList.remove(FORCED_CLASS);
    onAnswer(allowed);
    win.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { allowed } }));
  };
  const show = forced || (settings.isCookieBannerEnabled === true && readConsent(doc) === undefined);
  if (show) mountBanner(doc, settings, { forced, onAnswer: answer });
  else unmountBanner(doc);
}

/** Forgets the state (for tests). */
export function reset(): void {
  settings = null;
  forced = false;
}
