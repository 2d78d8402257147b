// The loader's telemetry, started once per page by `boot`: the error reporter first (so it
// sees errors of everything after it), then the consent rule, session info and visitor
// cookies, the page hit, the trace log and performance records. What islands may call is
// exposed as `window.Veranda.telemetry`. The event calls are a lazy chunk, imported on first
// use, since most pages never make one.
import type { PageContext } from '../../generated/types';
import { createCensus, type Census } from './census';
import { analyticsCookiesAllowed, clearAnalyticsCookies, touchVisitorCookies } from './cookies';
import { startErrorReporter, type ErrorReporter } from './errors';
import type { Events } from './events';
import { startPerf } from './perf';
import { startSession, type SessionInfo } from './session';
import { startTrace, type TraceLog } from './trace';

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
}

/** Starts every telemetry module for `win` and records the page hit. */
export function startTelemetry(win: Window, context: PageContext | null): Telemetry {
  const errors = startErrorReporter(win, context);
  const allowed = analyticsCookiesAllowed(win.document, context);
  if (!allowed) clearAnalyticsCookies(win.document);
  const session = allowed ? startSession(win) : null;
  const visitorCookie = allowed && context?.analyticsEnabled === true ? touchVisitorCookies(win.document, Date.now()) : '';
  const census = createCensus(win, context, visitorCookie);
  void census.recordHit();
  const trace = startTrace(win);
  startPerf(win, context);
  let events: Promise<Events> | undefined;
  const loadEvents = () => (events ??= import('./events').then((m) => m.createEvents(win, context, session)));
  return {
    session,
    visitorCookie,
    census,
    errors,
    trace,
    events: {
      recordEvent: (...args) => loadEvents().then((e) => e.recordEvent(...args)),
      track: (...args) => loadEvents().then((e) => e.track(...args)),
    },
  };
}
