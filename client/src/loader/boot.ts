// Starts the runtime on a page: exposes the page context, starts telemetry and watches the islands.
import type { PageContext } from '../generated/types';
import { readPageContext } from './context';
import { hydrateIslands } from './hydrate';
import { islands } from './islands';
import { startTelemetry, type Telemetry } from './telemetry';

/** What the loader exposes as `window.Veranda`. */
export interface VerandaGlobal {
  /** The page context, or `null` when the page has none. */
  context: PageContext | null;
  /** The page's telemetry (census, error reports, traces, events). */
  telemetry?: Telemetry;
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
  // The owner redirect's last skip rule ("not the top window") needs nothing here: the
  // server never redirects a framed request (it reads `Sec-Fetch-Dest: iframe`), so a
  // page inside the configuration area's preview frame is served as it is.
  hydrateIslands(win.document, islands);
  return veranda;
}
