// Every page's web-vitals p75 per hour or per UTC day, as `GET /api/stats/vitals/series` gives them.
import { getJson } from '../../api/http';
import type { StatsRange, VitalSeriesReport } from '../../../generated/types';
import { formatVital, VITAL_NAMES, type VitalName } from './vitals';

/** The route of the vitals over time. */
export const VITAL_SERIES_PATH = '/api/stats/vitals/series';

/** The query key of one range's vitals over time. */
export const vitalSeriesKey = (range: StatsRange) => ['stats', 'vitals-series', range] as const;

/** Reads the vitals over time of `range`. */
export function fetchVitalSeries(range: StatsRange, signal?: AbortSignal): Promise<VitalSeriesReport> {
  return getJson<VitalSeriesReport>(`${VITAL_SERIES_PATH}?range=${range}`, signal);
}

/** The p75 of `vital` per point (`null` where not measured). */
export function p75s(report: VitalSeriesReport, vital: VitalName): (number | null)[] {
  return report.points.map((p) => p[vital]?.p75 ?? null);
}

/** The chart's name: each of `vitals`' latest p75, e.g. `Last 24 hours, p75 per hour; latest LCP 2.5 s, INP —.` */
export function vitalSeriesSummary(report: VitalSeriesReport, vitals: readonly VitalName[]): string {
  const span = report.range === '30d' ? 'Last 30 days, p75 per day' : 'Last 24 hours, p75 per hour';
  const latest = vitals.map((v) => {
    const values = p75s(report, v).filter((x): x is number => x !== null);
    const last = values[values.length - 1];
    return `${v.toUpperCase()} ${last === undefined ? 'not measured' : formatVital(v, last)}`;
  });
  return `${span}; latest ${latest.join(', ')}.`;
}

/** The vitals timed in ms, in column order (CLS, unitless, has its own chart). */
export const TIMED_VITALS = VITAL_NAMES.filter((v) => v !== 'cls');

export type { StatsRange, VitalSeriesReport };
