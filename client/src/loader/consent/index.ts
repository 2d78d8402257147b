// Cookie consent on a page (spec 000 §4), the part in the loader: drops an answer given to
// another banner version, and imports the banner's chunk only when it has something to do:
// the banner is enabled and unanswered, or one of the window events arrives —
// `veranda:cookie-banner-force` (a forced banner, `cookie-banner-forced` on the body),
// `veranda:cookie-banner-update` (mounted again with new settings) or
// `veranda:cookie-banner-unforce` (the class removed, mounted with the given settings).
import type { PageContext } from '../../generated/types';
import { FORCE_EVENT, UNFORCE_EVENT, UPDATE_EVENT } from './events';
import { dropStaleConsent, readConsent } from './state';

export * from './events';

/** Starts the banner logic for `win`; `onAnswer` runs after each recorded answer. */
export function startConsent(win: Window, context: PageContext | null, onAnswer: (allowed: boolean) => void): void {
  dropStaleConsent(win.document);
  const banner = (type: string, detail?: unknown) =>
    import('./banner-controller')
      .then((c) => c.handle(win, context, onAnswer, type, detail))
      .catch((error: unknown) => console.error('Veranda: the cookie banner could not start.', error));
  [FORCE_EVENT, UPDATE_EVENT, UNFORCE_EVENT].forEach((type) =>
    win.addEventListener(type, (event) => void banner(type, (event as CustomEvent).detail)),
  );
  if (context?.websiteSettings?.cookieSettings?.isCookieBannerEnabled === true && readConsent(win.document) === undefined) {
    void banner('start');
  }
}
