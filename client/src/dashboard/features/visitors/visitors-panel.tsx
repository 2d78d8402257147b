// Live visitors and page views, read again every 10 s while the tab is visible.
import { useQuery } from '@tanstack/react-query';
import { LoadError } from '../../components/load-error';
import { fetchVisitors, VISITORS_KEY, VISITORS_REFRESH_MS } from './visitors';

const count = (n: number) => n.toLocaleString('en');

/** The visitors panel. */
export function VisitorsPanel() {
  const { data, error, refetch } = useQuery({
    queryKey: VISITORS_KEY,
    queryFn: ({ signal }) => fetchVisitors(signal),
    refetchInterval: VISITORS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  return (
    <section aria-labelledby="visitors-heading" className="panel">
      <div className="panel__head">
        <h2 id="visitors-heading">Visitors</h2>
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {data ? (
        <dl className="facts" aria-label="Visitor figures">
          <dt>Live visitors (last 5 minutes)</dt>
          <dd data-figure="live">{count(data.liveVisitors)}</dd>
          <dt>Page views in the last hour</dt>
          <dd data-figure="last-hour">{count(data.pageViews.lastHour)}</dd>
          <dt>Page views today (UTC)</dt>
          <dd data-figure="today">{count(data.pageViews.today)}</dd>
        </dl>
      ) : (
        !error && <p className="panel__empty">Loading…</p>
      )}
    </section>
  );
}
