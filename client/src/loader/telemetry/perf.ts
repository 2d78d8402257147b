// Performance records of spec 001 §7 and §8. Once the page has loaded, the loader asks
// `/api/1/performance/settings` for a `pageLoadId` (30 s timeout; the three failures are
// reported with their spec messages and end the reporting), then imports the `web-vitals`
// chunk and buffers one record per metric (LCP, INP, CLS, FCP, TTFB). The buffer is sent
// 30 s after load or when the page is hidden, whichever comes first, and that first flush
// happens once: afterwards only a page hide sends the records that arrived since.
// CLS and INP change for as long as the page lives: their values are delivered (made into
// records) at the earlier of 60 s after load or page hide, and sent at once; a later change
// is delivered on the next hide, its `delta` counted from the value delivered before.
// Records go as a JSON array in a `text/plain` beacon, with a `fetch` fallback, to
// `/api/1/performance/records`. Each record is sent once.
import type { Metric } from 'web-vitals';
import type { PageContext } from '../../generated/types';
import { beacon, fetchWithTimeout, onPageHide } from './transport';

/** Where the page load id comes from. */
export const PERF_SETTINGS_URL = '/api/1/performance/settings';
/** Where the records go. */
export const PERF_RECORDS_URL = '/api/1/performance/records';
/** The settings request is abandoned after this long. */
export const SETTINGS_TIMEOUT_MS = 30_000;
/** The first flush happens this long after load, unless the page is hidden before. */
export const FIRST_FLUSH_MS = 30_000;
/** CLS and INP are delivered this long after load, unless the page is hidden before. */
export const DELIVER_METRICS_MS = 60_000;

/** The console errors of spec 001 §8, verbatim. */
export const PERF_ERRORS = {
  status: 'XHR request DONE with unexpected status',
  timeout: 'Metric settings request timeout',
  pageLoadId: 'Unable to resolve pageLoadId',
} as const;

/** The `web-vitals` functions the loader uses. */
export type Vitals = Pick<typeof import('web-vitals'), 'onLCP' | 'onINP' | 'onCLS' | 'onFCP' | 'onTTFB'>;

/** One performance record. */
export interface PerfRecord {
  /** The id the settings call gave this page load. */
  pageLoadId: string;
  /** Metric name: `LCP`, `INP`, `CLS`, `FCP` or `TTFB`. */
  name: Metric['name'];
  /** The metric's value (ms, or unitless for CLS). */
  value: number;
  /** `good`, `needs-improvement` or `poor`. */
  rating: Metric['rating'];
  /** Change since the metric was last reported. */
  delta: number;
  /** The metric instance id from `web-vitals`. */
  id: string;
  /** How the page was reached (navigate, reload, back-forward, ...). */
  navigationType: Metric['navigationType'];
  /** The page path, which the server aggregates by. */
  pagePath: string;
  /** Website id. */
  websiteId: string | null;
}

/**
 * Asks for this page load's id. Gives `null` after a console error when the answer is not
 * a 200 (status 0 means no answer at all and is not reported), the request times out, or
 * the answer carries no `pageLoadId`.
 */
export async function fetchPageLoadId(): Promise<string | null> {
  let response: Response;
  try {
    response = await fetchWithTimeout(PERF_SETTINGS_URL, { headers: { Accept: 'application/json' } }, SETTINGS_TIMEOUT_MS);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') console.error(PERF_ERRORS.timeout);
    return null;
  }
  if (response.status !== 200) {
    if (response.status !== 0) console.error(PERF_ERRORS.status, response.status);
    return null;
  }
  const body: unknown = await response.json().catch(() => null);
  const id = (body as { pageLoadId?: unknown } | null)?.pageLoadId;
  if ((typeof id === 'string' && id !== '') || typeof id === 'number') return String(id);
  console.error(PERF_ERRORS.pageLoadId);
  return null;
}

/** Starts performance reporting for `win`, once it has loaded. */
export function startPerf(
  win: Window,
  context: PageContext | null,
  loadVitals: () => Promise<Vitals> = () => import('web-vitals'),
): void {
  const records: PerfRecord[] = [];
  let firstDone = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // CLS and INP: the latest value not yet delivered, and the value delivered last, by name.
  const latest = new Map<string, Metric>();
  const delivered = new Map<string, number>();
  let record: ((metric: Metric, delta: number) => void) | null = null;

  const flush = () => {
    firstDone = true;
    clearTimeout(timer);
    if (records.length > 0) beacon(PERF_RECORDS_URL, JSON.stringify(records.splice(0)), 'text/plain');
  };
  // Makes records of the CLS and INP values that changed since they were last delivered.
  const deliver = () => {
    if (!record) return;
    for (const [name, metric] of latest) {
      const before = delivered.get(name);
      if (before === metric.value) continue;
      record(metric, metric.value - (before ?? 0));
      delivered.set(name, metric.value);
    }
    latest.clear();
  };

  const start = async () => {
    if (!firstDone) timer = setTimeout(flush, FIRST_FLUSH_MS);
    const deliverAt = setTimeout(() => {
      deliver();
      flush();
    }, DELIVER_METRICS_MS);
    const pageLoadId = await fetchPageLoadId();
    if (pageLoadId === null) return clearTimeout(deliverAt);
    const vitals = await loadVitals().catch(() => null);
    if (!vitals) return clearTimeout(deliverAt);
    const push = (metric: Metric, delta = metric.delta) => {
      const { name, value, rating, id, navigationType } = metric;
      const pagePath = context?.pagePath ?? win.location.pathname;
      records.push({ pageLoadId, name, value, rating, delta, id, navigationType, pagePath, websiteId: context?.website?.id ?? null });
    };
    record = push;
    [vitals.onLCP, vitals.onFCP, vitals.onTTFB].forEach((on) => on((metric) => push(metric)));
    // Every change, kept until delivered.
    const keep = (metric: Metric) => void latest.set(metric.name, metric);
    vitals.onCLS(keep, { reportAllChanges: true });
    vitals.onINP(keep, { reportAllChanges: true });
  };

  // A hide before the first flush is the first flush; later hides send what came since.
  onPageHide(win, () => {
    deliver();
    flush();
  });
  if (win.document.readyState === 'complete') void start();
  else win.addEventListener('load', () => void start(), { once: true });
}
