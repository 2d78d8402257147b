// Page views and visitors per hour or per UTC day, as `GET /api/stats/series` gives them.
import { getJson } from '../../api/http';
import type { StatsRange, TrafficReport } from '../../../generated/types';

/** The route of the series. */
export const TRAFFIC_PATH = '/api/stats/series';

/** The query key of one range's series. */
export const trafficKey = (range: StatsRange) => ['stats', 'series', range] as const;

/** How often the series is read again while the tab is visible. */
export const TRAFFIC_REFRESH_MS = 60_000;

/** Reads the series of `range`. */
export function fetchTraffic(range: StatsRange, signal?: AbortSignal): Promise<TrafficReport> {
  return getJson<TrafficReport>(`${TRAFFIC_PATH}?range=${range}`, signal);
}

const count = (n: number) => n.toLocaleString('en');

/** The chart's name: totals and the busiest bucket, e.g. `Last 24 hours: 120 page views, busiest hour 14:00 UTC with 30.` */
export function trafficSummary(report: TrafficReport): string {
  const unit = report.range === '30d' ? 'day' : 'hour';
  const span = report.range === '30d' ? 'Last 30 days' : 'Last 24 hours';
  const total = report.points.reduce((sum, p) => sum + p.pageViews, 0);
  if (total === 0) return `${span}: no page views.`;
  const busiest = report.points.reduce((a, b) => (b.pageViews > a.pageViews ? b : a));
  const iso = new Date(busiest.start).toISOString();
  const when = unit === 'day' ? iso.slice(0, 10) : `${iso.slice(11, 16)} UTC on ${iso.slice(0, 10)}`;
  return `${span}: ${count(total)} page views; busiest ${unit} ${when} with ${count(busiest.pageViews)} page views and ${count(busiest.visitors)} visitors.`;
}

export type { StatsRange, TrafficReport };
