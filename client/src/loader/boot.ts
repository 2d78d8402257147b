// Starts the runtime on a page: exposes the page context, starts telemetry and watches the islands.
import type { PageContext } from '../generated/types';
import { startPopupOverlay } from '../widgets/popup-overlay/start';
import { startConsent } from './consent';
import { readPageContext } from './context';
import { applyFontStylesheets } from './fonts';
import { createFeatures, type Features } from './features';
import { hydrateIslands } from './hydrate';
import { pageLifecycle, type PageLifecycle } from './lifecycle';
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
  /**
   * The page's initialisers; `lifecycle.destroy()` is the global destroy: it stops what the
   * page started (pending islands) and clears the initialised flag.
   */
  lifecycle?: PageLifecycle;
}

declare global {
  interface Window {
    /** The Veranda runtime of this page. */
    Veranda?: VerandaGlobal;
  }
}

/**
 * Runs the loader against `win`'s document, each step an initialiser of the page's lifecycle
 * (a failing step is logged and skipped). A second run on an initialised page — the loader
 * linked twice — is logged ('Detected second run, this is bad.') and starts nothing.
 */
export function boot(win: Window): VerandaGlobal {
  // Already started: a second run is logged and starts nothing; after a destroy, the page's
  // initialisers run again.
  const started = win.Veranda;
  if (started?.lifecycle) {
    started.lifecycle.initialise();
    return started;
  }
  const veranda: VerandaGlobal = { ...win.Veranda, context: readPageContext(win.document) };
  win.Veranda = veranda;
  const { context } = veranda;
  const doc = win.document;
  // Comment counts and the thread: a chunk of its own, fetched only where the page has a count link.
  const comments = () => {
    if (doc.querySelector('[data-comment-count]')) void import('./comments').then((m) => m.startComments(win, context), () => {});
  };
  const lifecycle = pageLifecycle([
    () => {
      veranda.telemetry = startTelemetry(win, context);
    },
    () => {
      const features = (veranda.features = createFeatures(doc, context));
      // Session recording is a chunk of its own, fetched only where the site has the toggle.
      if (context?.features && 'session-recording' in context.features) {
        void import('./session-recording').then((m) => m.startSessionRecording(win, context, features), () => {});
      }
    },
    // An Accept on a page whose telemetry started quiet starts it now; a Decline under the
    // restrictive policy clears the analytics cookies (sending already stops on its own).
    () =>
      startConsent(win, context, () => {
        if (!analyticsCookiesAllowed(doc, context)) clearAnalyticsCookies(doc);
        else if (veranda.telemetry?.quiet) {
          veranda.telemetry = startTelemetry(win, context);
          comments();
        }
      }),
    comments,
    () => applyFontStylesheets(doc),
    () => {
      const watchers: Array<() => void> = [];
      hydrateIslands(doc, islands, watchers);
      return () => watchers.forEach((stop) => stop());
    },
    () => watchImages(win),
    () => watchRelativeTimes(win),
    // The lightbox hook is a chunk of its own, fetched only where the page has a lightbox set.
    () => {
      if (doc.querySelector('[data-lightbox-set]')) void import('../islands/lightbox/trigger').then((m) => m.watchLightbox(win), () => {});
    },
    // Login prompt, logout, escape shortcuts and the owner redirect (the server decides it
    // first; the members chunk repeats it with what only the browser knows, the frame).
    () => watchMembers(win, context),
    // The live preview: a chunk of its own, fetched only for signed-in contributors.
    () => watchPreview(win, context),
    () => startPopupOverlay(win, context),
    // Block animations are a chunk of their own, fetched only where the site animates blocks.
    () => {
      if (doc.body.dataset.blockAnimation) void import('../widgets/animations/index.ts').then((m) => m.start(win), () => {});
    },
  ]);
  veranda.lifecycle = lifecycle;
  lifecycle.initialise();
  return veranda;
}
