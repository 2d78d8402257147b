// The most viewed pages and the top referring sites, as `GET /api/stats/top` gives them.
import { getJson } from '../../api/http';
import type { StatsRange, TopReport } from '../../../generated/types';

/** The route of the top lists. */
export const TOP_PATH = '/api/stats/top';

/** The query key of one range's top lists. */
export const topKey = (range: StatsRange) => ['stats', 'top', range] as const;

/** How often the lists are read again while the tab is visible. */
export const TOP_REFRESH_MS = 60_000;

/** Reads the top lists of `range`. */
export function fetchTop(range: StatsRange, signal?: AbortSignal): Promise<TopReport> {
  return getJson<TopReport>(`${TOP_PATH}?range=${range}`, signal);
}

export type { StatsRange, TopReport };
