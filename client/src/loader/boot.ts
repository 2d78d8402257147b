// Starts the runtime on a page: exposes the page context, starts telemetry and watches the islands.
import type { PageContext } from '../generated/types';
import { startPopupOverlay } from '../widgets/popup-overlay/start';
import { startConsent } from './consent';
import { readPageContext } from './context';
import { createFeatures, type Features } from './features';
import { hydrateIslands } from './hydrate';
import { watchLightbox } from '../islands/lightbox/trigger';
import { watchImages } from './images';
import { islands } from './islands';
import { watchMembers } from './members';
import { watchPreview } from './preview';
import { watchRelativeTimes } from './relative-times';
import { startTelemetry, type Telemetry } from './telemetry';
import { analyticsCookiesAllowed, clearAnalyticsCookies } from './telemetry/cookies';

/** What the loader exposes as `window.Veranda`. */
export interface VerandaGlobal {
  /** The page context, or `null` when the page has none. */
  context: PageContext | null;
  /** The page's telemetry (census, error reports, traces, events). */
  telemetry?: Telemetry;
  /** The site's feature toggles and A/B tests. */
  features?: Features;
}

declare global {
  interface Window {
    /** The Veranda runtime of this page. */
    Veranda?: VerandaGlobal;
  }
}

/** Runs the loader against `win`'s document. */
export function boot(win: Window): VerandaGlobal {
  const veranda: VerandaGlobal = { ...win.Veranda, context: readPageContext(win.document) };
  win.Veranda = veranda;
  veranda.telemetry = startTelemetry(win, veranda.context);
  veranda.features = createFeatures(win.document, veranda.context);
  // Session recording is a chunk of its own, fetched only where the site has the toggle.
  const features = veranda.features;
  if (veranda.context?.features && 'session-recording' in veranda.context.features) {
    void import('./session-recording').then((m) => m.startSessionRecording(win, veranda.context, features), () => {});
  }
  // An Accept on a page whose telemetry started quiet starts it now; a Decline under the
  // restrictive policy clears the analytics cookies (sending already stops on its own).
  startConsent(win, veranda.context, () => {
    if (!analyticsCookiesAllowed(win.document, veranda.context)) clearAnalyticsCookies(win.document);
    else if (veranda.telemetry?.quiet) veranda.telemetry = startTelemetry(win, veranda.context);
  });
  hydrateIslands(win.document, islands);
  watchImages(win);
  watchRelativeTimes(win);
  watchLightbox(win);
  // Login prompt, logout, escape shortcuts and the owner redirect (the server decides it
  // first; the members chunk repeats it with what only the browser knows, the frame).
  watchMembers(win, veranda.context);
  // The live preview: a chunk of its own, fetched only for signed-in contributors.
  watchPreview(win, veranda.context);
  startPopupOverlay(win, veranda.context);
  // Block animations are a chunk of their own, fetched only where the site animates blocks.
  if (win.document.body.dataset.blockAnimation) void import('../widgets/animations/index.ts').then((m) => m.start(win), () => {});
  return veranda;
}
