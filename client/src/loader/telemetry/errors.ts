// The JavaScript error reporter of spec 000 §3 and §9: catches `error` and
// `unhandledrejection`, and posts batches of error records to
// `/api/events/RecordJavascriptErrors` with the crumb in `X-CSRF-Token`. At most 20 sends
// per page, at most 10 records queued, stacks trimmed to 5,000 characters, sends debounced
// by 1,000 ms; an error seen again before it is sent only raises its `count`, and once
// sent it is not sent again from this page. A 429 or 503 is retried once after `Retry-After`.
// Each record carries `data.pageLoadId`, random per page load, which the server's 20-per-page
// cap is keyed by (without it, reloads of a page would share one cap).
import type { PageContext } from '../../generated/types';
import { newVisitorId } from './cookies';
import { CRUMB_COOKIE, onPageHide, readCookie, telemetryAllowed } from './transport';

/** Where error batches go. */
export const ERRORS_URL = '/api/events/RecordJavascriptErrors';
/** The most sends (retries included) one page makes. */
export const MAX_SENDS = 20;
/** The most records waiting to be sent; later errors are dropped until a send empties the queue. */
export const MAX_QUEUED = 10;
/** Stacks are cut to this many characters. */
export const MAX_STACK = 5000;
/** A send waits this long after the last queued error. */
export const DEBOUNCE_MS = 1000;
/** The longest `Retry-After` wait honoured; longer ones are cut to this. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** One error as the reporter sends it. */
export interface ErrorRecord {
  /** Always `javascript-error`. */
  event: 'javascript-error';
  /** What happened, where. */
  data: {
    /** Website id. */
    websiteId: string | null;
    /** Template id. */
    templateId: string | null;
    /** The page's address. */
    url: string;
    /** The browser. */
    userAgent: string;
    /** The code that raised it: `loader` here. */
    app: string;
    /** The error message. */
    message: string;
    /** The stack, at most `MAX_STACK` characters. */
    stack: string;
    /** The script file. */
    file: string;
    /** Line in `file`. */
    line: number;
    /** Column in `line`. */
    column: number;
    /** This page load's id (32 hex digits), the key of the server's per-page cap. */
    pageLoadId: string;
  };
  /** When it was first seen on this page (ms since the epoch). */
  timestamp: number;
  /** How many times this page saw it before it was sent. */
  count: number;
}

/** The error reporter of a page. */
export interface ErrorReporter {
  /** Queues an error (the listeners call this; islands may too). */
  report(error: unknown, file?: string, line?: number, column?: number): void;
  /** Sends what is queued now, without waiting for the debounce. */
  flush(): void;
}

/** The wait a `Retry-After` header asks for, in ms (seconds or an HTTP date). */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  const seconds = Number(header);
  const ms = header !== null && header.trim() !== '' && Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header ?? '') - now;
  return Math.min(Math.max(Number.isFinite(ms) ? ms : 1000, 0), MAX_RETRY_WAIT_MS);
}

/** Reads message and stack from whatever was thrown. */
function describe(error: unknown): [message: string, stack: string] {
  if (error instanceof Error) return [error.message || error.name, error.stack ?? ''];
  try {
    return [typeof error === 'string' ? error : JSON.stringify(error) ?? String(error), ''];
  } catch {
    return [String(error), ''];
  }
}

/** Starts the error reporter of `win`: listens to its errors and sends them. */
export function startErrorReporter(win: Window, context: PageContext | null): ErrorReporter {
  // 32 hex digits from the platform's random source, like a visitor id.
  const pageLoadId = newVisitorId();
  const queue: ErrorRecord[] = [];
  const queued = new Map<string, ErrorRecord>();
  const sent = new Set<string>();
  let sends = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Posts `batch`; gives the response, or `null` when the request failed. */
  const post = (batch: ErrorRecord[]): Promise<Response | null> | null => {
    if (sends >= MAX_SENDS || !telemetryAllowed()) return null;
    sends += 1;
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const crumb = readCookie(win.document, CRUMB_COOKIE);
    if (crumb) headers['X-CSRF-Token'] = crumb;
    return fetch(ERRORS_URL, { method: 'POST', headers, body: JSON.stringify(batch), keepalive: true, credentials: 'same-origin' }).catch(
      () => null,
    );
  };

  const flush = () => {
    clearTimeout(timer);
    if (queue.length === 0 || sends >= MAX_SENDS) return;
    const batch = queue.splice(0);
    batch.forEach((record) => {
      const key = fingerprint(record);
      queued.delete(key);
      sent.add(key);
    });
    void post(batch)?.then((response) => {
      if (response?.status !== 429 && response?.status !== 503) return;
      setTimeout(() => void post(batch), retryAfterMs(response.headers.get('Retry-After')));
    });
  };

  const report = (error: unknown, file = '', line = 0, column = 0) => {
    const [message, stack] = describe(error);
    const record: ErrorRecord = {
      event: 'javascript-error',
      data: {
        websiteId: context?.website?.id ?? null,
        templateId: context?.templateId ?? null,
        url: win.location.href,
        userAgent: win.navigator.userAgent,
        app: 'loader',
        message,
        stack: stack.slice(0, MAX_STACK),
        file,
        line,
        column,
        pageLoadId,
      },
      timestamp: Date.now(),
      count: 1,
    };
    const key = fingerprint(record);
    const twin = queued.get(key);
    if (twin) twin.count += 1;
    if (twin || sent.has(key) || queue.length >= MAX_QUEUED || sends >= MAX_SENDS) return;
    queue.push(record);
    queued.set(key, record);
    clearTimeout(timer);
    timer = setTimeout(flush, DEBOUNCE_MS);
  };

  win.addEventListener('error', (event: ErrorEvent) => {
    // Resource load errors do not reach window listeners; a script error always has a message.
    report(event.error ?? event.message, event.filename, event.lineno, event.colno);
  });
  win.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => report(event.reason));
  onPageHide(win, flush);
  return { report, flush };
}

/** What makes two errors the same: message, file, line and column. */
function fingerprint(record: ErrorRecord): string {
  const { message, file, line, column } = record.data;
  return JSON.stringify([message, file, line, column]);
}
