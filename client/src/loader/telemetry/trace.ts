// The trace log of spec 000 §7 and §9: `log(type, data)` buffers `{pageUrl, type, data}`
// entries; the buffer goes to `/api/events/Trace` every 30 s, when it holds `MAX_BUFFERED`
// entries, and when the page is hidden, as a beacon of form data whose `data` field is the
// JSON array of entries.
import { beacon, onPageHide } from './transport';

/** Where trace entries go. */
export const TRACE_URL = '/api/events/Trace';
/** How often the buffer is flushed. */
export const TRACE_FLUSH_MS = 30_000;
/** A buffer this full is flushed at once. */
export const MAX_BUFFERED = 50;

/** One trace entry. */
export interface TraceEntry {
  /** The page's address when it was logged. */
  pageUrl: string;
  /** What kind of entry it is. */
  type: string;
  /** Anything JSON can carry. */
  data: unknown;
}

/** The trace log of a page. */
export interface TraceLog {
  /** Buffers one entry. */
  log(type: string, data?: unknown): void;
  /** Sends the buffer now (nothing when it is empty). */
  flush(): void;
}

/** Starts the trace log of `win`: a 30 s flush timer and a flush on page hide. */
export function startTrace(win: Window): TraceLog {
  const buffer: TraceEntry[] = [];
  const flush = () => {
    if (buffer.length === 0) return;
    const entries = buffer.splice(0);
    beacon(TRACE_URL, new URLSearchParams({ data: JSON.stringify(entries) }), 'application/x-www-form-urlencoded');
  };
  setInterval(flush, TRACE_FLUSH_MS);
  onPageHide(win, flush);
  return {
    log(type, data = null) {
      buffer.push({ pageUrl: win.location.href, type, data });
      if (buffer.length >= MAX_BUFFERED) flush();
    },
    flush,
  };
}
