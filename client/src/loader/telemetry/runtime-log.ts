// The runtime's own warnings and errors, written to the console and to the trace log
// (spec 000 §7 `POST /api/events/Trace`, "a JSON array of log entries (pageUrl, type,
// data)"), so the owner sees on the server what went wrong on visitors' pages. The spec
// names no list of what is traced; what the runtime logs about a block it had to leave
// as the server drew it is (`docs/analytics.md`). Its data is `{message, error}`.
// The trace log is the page's current telemetry's, read at call time: nothing is traced
// without consent.

/**
 * Trace entry types: `block-data-undecodable` (a block's `data-block-json` is not JSON; the
 * block is left as is), `island-failed` (an island's chunk failed to load or to mount),
 * `widget-undecodable` (a widget rendering could not be asked for or read; the block is
 * left as is).
 */
export type TraceType = 'block-data-undecodable' | 'island-failed' | 'widget-undecodable';

/** `Name: message` for an error (what `Error.prototype.toString` gives), the text of anything else. */
function describe(error: unknown): string | null {
  return error == null ? null : String(error);
}

/** Logs `message` at `level` and traces `{message, error}` as `type`. */
export function runtimeLog(
  level: 'warn' | 'error',
  type: TraceType,
  message: string,
  error?: unknown,
): void {
  console[level](...(error === undefined ? [message] : [message, error]));
  window.Veranda?.telemetry?.trace.log(type, { message, error: describe(error) });
}
