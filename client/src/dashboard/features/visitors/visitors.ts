// Live visitors and page views, as `GET /api/stats/visitors` gives them.
import { getJson } from '../../api/http';
import type { VisitorStats } from '../../../generated/types';

/** The route of the visitor figures. */
export const VISITORS_PATH = '/api/stats/visitors';

/** The query key of the visitor figures. */
export const VISITORS_KEY = ['stats', 'visitors'] as const;

/** How often the figures are read again while the tab is visible. */
export const VISITORS_REFRESH_MS = 10_000;

/** Reads the visitor figures. */
export function fetchVisitors(signal?: AbortSignal): Promise<VisitorStats> {
  return getJson<VisitorStats>(VISITORS_PATH, signal);
}

export type { VisitorStats };
