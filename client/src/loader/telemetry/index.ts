// The loader's telemetry, started once per page by `boot`: the consent rule first (under a
// restrictive cookie policy without an accepted banner, the analytics cookies are cleared
// and nothing is sent: the telemetry is quiet), then the error reporter (so it sees errors
// of everything after it), session info and visitor cookies, the page hit, the trace log
// and performance records; then (a lazy chunk) the marketing pixel of a campaign landing
// and the page's ad-pixel events (a product page, a search). Every call also checks consent just before it is sent, so a
// Decline given later on the page stops what is already running. What islands may call is
// exposed as `window.Veranda.telemetry`. The event calls are a lazy chunk, imported on first
// use, since most pages never make one; performance reporting is one too, imported after `load`.
import type { PageContext } from '../../generated/types';
import { createCensus, type Census } from './census';
import { analyticsCookiesAllowed, clearAnalyticsCookies, touchVisitorCookies } from './cookies';
import { startErrorReporter, type ErrorReporter } from './errors';
import type { Events } from './events';
import { startSession, type SessionInfo } from './session';
import { startTrace, type TraceLog } from './trace';
import { MARKETING_COOKIE } from './marketing';
import { gateTelemetry, readCookie } from './transport';

/** The telemetry of a page. */
export interface Telemetry {
  /** Session info; `null` when consent keeps analytics cookies away. */
  session: SessionInfo | null;
  /** The `ss_cvr` value of this page view; empty when analytics or consent keep it away. */
  visitorCookie: string;
  /** Census calls (page hit, buttons, forms, overlays). */
  census: Census;
  /** The JavaScript error reporter. */
  errors: ErrorReporter;
  /** The trace log. */
  trace: TraceLog;
  /** `RecordEvent` and the event tracker. */
  events: Events;
  /** Started without consent: nothing is recorded or sent. */
  quiet: boolean;
}

const resolved = () => Promise.resolve();

/** The telemetry of a page without consent: every call does nothing. */
export function quietTelemetry(): Telemetry {
  return {
    session: null,
    visitorCookie: '',
    census: { recordHit: resolved, buttonRender: resolved, buttonClick: resolved, formRender: resolved, overlay: resolved, quickView: resolved },
    errors: { report: () => {}, flush: () => {} },
    trace: { log: () => {}, flush: () => {} },
    events: { recordEvent: resolved, track: resolved },
    quiet: true,
  };
}

/** Performance reporting is a lazy chunk, imported once the page has loaded. */
function startPerfAfterLoad(win: Window, context: PageContext | null): void {
  const run = () => void import('./perf').then((m) => m.startPerf(win, context)).catch(() => {});
  if (win.document.readyState === 'complete') run();
  else win.addEventListener('load', run, { once: true });
}

/**
 * Starts every telemetry module for `win` and records the page hit. The page context's
 * `analyticsId`, `sessionId` and `marketingId` become the session's (created when absent);
 * without consent under a restrictive policy they stay as the server gave them, which is
 * none (it fills them only with consent, and only in pages rendered for one visitor, never in
 * a page its cache shares).
 */
export function startTelemetry(win: Window, context: PageContext | null): Telemetry {
  gateTelemetry(() => analyticsCookiesAllowed(win.document, context));
  if (!analyticsCookiesAllowed(win.document, context)) {
    clearAnalyticsCookies(win.document);
    return quietTelemetry();
  }
  const errors = startErrorReporter(win, context);
  const session = startSession(win);
  if (context) {
    context.analyticsId = session.analyticsId;
    context.sessionId = session.sessionId;
    context.marketingId = readCookie(win.document, MARKETING_COOKIE);
  }
  const visitorCookie = context?.analyticsEnabled === true ? touchVisitorCookies(win.document, Date.now()) : '';
  const census = createCensus(win, context, visitorCookie);
  void census.recordHit();
  const trace = startTrace(win);
  startPerfAfterLoad(win, context);
  let loaded: Promise<Events> | undefined;
  const loadEvents = () => (loaded ??= import('./events').then((m) => m.createEvents(win, context, session)));
  const events: Events = {
    recordEvent: (...args) => loadEvents().then((e) => e.recordEvent(...args)),
    track: (...args) => loadEvents().then((e) => e.track(...args)),
  };
  // Only a page with a query string (a campaign link, a search) or an item (a product) may
  // send anything more: the landing chunk decides.
  if (context && (win.location.search !== '' || context.item)) {
    void import('./landing').then((m) => m.startLanding(win, context, events), () => {});
  }
  return { session, visitorCookie, census, errors, trace, events, quiet: false };
}
