// Web-vitals p75 per page, as `GET /api/stats/vitals` gives them, and their ratings.
import type { PageVitals, VitalSummary } from '../../../generated/types';
import { getJson } from '../../api/http';

/** The route of the vitals. */
export const VITALS_PATH = '/api/stats/vitals';

/** The query key of the vitals. */
export const VITALS_KEY = ['stats', 'vitals'] as const;

/** How often the vitals are read again while the tab is visible. */
export const VITALS_REFRESH_MS = 60_000;

/** The five web vitals, in column order. */
export const VITAL_NAMES = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'] as const;

/** One web vital. */
export type VitalName = (typeof VITAL_NAMES)[number];

/** A vital's p75 (ms; CLS unitless) and how many page loads it covers. */
export type { VitalSummary };

/** The p75 of each vital of one page path (`null` when not measured). */
export type { PageVitals };

/** The answer of `GET /api/stats/vitals`. */
export interface VitalsReport {
  pages: PageVitals[];
}

/** The web-vitals rating of a value. */
export type Rating = 'good' | 'needs-improvement' | 'poor';

/** The good and poor thresholds of each vital, as the web-vitals library sets them. */
export const THRESHOLDS: Record<VitalName, readonly [number, number]> = {
  lcp: [2500, 4000],
  inp: [200, 500],
  cls: [0.1, 0.25],
  fcp: [1800, 3000],
  ttfb: [800, 1800],
};

/** Rates `value` of `vital`: good up to the first threshold, poor above the second. */
export function rate(vital: VitalName, value: number): Rating {
  const [good, poor] = THRESHOLDS[vital];
  if (value <= good) return 'good';
  if (value <= poor) return 'needs-improvement';
  return 'poor';
}

/** `value` of `vital` for people: CLS as a number, the others in ms or s. */
export function formatVital(vital: VitalName, value: number): string {
  if (vital === 'cls') return value.toFixed(2);
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/** Reads the vitals. */
export function fetchVitals(signal?: AbortSignal): Promise<VitalsReport> {
  return getJson<VitalsReport>(VITALS_PATH, signal);
}
