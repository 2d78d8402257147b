// Live visitors and page views, as `GET /api/stats/visitors` gives them.
import { getJson } from '../../api/http';

/** The route of the visitor figures. */
export const VISITORS_PATH = '/api/stats/visitors';

/** The query key of the visitor figures. */
export const VISITORS_KEY = ['stats', 'visitors'] as const;

/** How often the figures are read again while the tab is visible. */
export const VISITORS_REFRESH_MS = 10_000;

/** The answer of `GET /api/stats/visitors`. */
export interface VisitorStats {
  /** Visitors seen in the last five minutes. */
  liveVisitors: number;
  /** Page views counted by the census ingest. */
  pageViews: {
    /** Since midnight UTC. */
    today: number;
    /** In the last 60 minutes. */
    lastHour: number;
  };
}

/** Reads the visitor figures. */
export function fetchVisitors(signal?: AbortSignal): Promise<VisitorStats> {
  return getJson<VisitorStats>(VISITORS_PATH, signal);
}
