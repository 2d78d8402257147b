// Page views and visitors over the last 24 hours or 30 days, as a chart with a text alternative.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { TimeChart, type ChartLine } from '../../components/chart/time-chart';
import { LoadError } from '../../components/load-error';
import { RangePicker } from '../../components/range-picker';
import { fetchTraffic, TRAFFIC_REFRESH_MS, trafficKey, trafficSummary, type StatsRange } from './traffic';

/** The traffic panel. */
export function TrafficPanel() {
  const [range, setRange] = useState<StatsRange>('24h');
  const { data, error, refetch } = useQuery({
    queryKey: trafficKey(range),
    queryFn: ({ signal }) => fetchTraffic(range, signal),
    refetchInterval: TRAFFIC_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const chart = useMemo(() => {
    if (!data) return undefined;
    const times = data.points.map((p) => p.start);
    const lines: ChartLine[] = [
      { label: 'Page views', values: data.points.map((p) => p.pageViews), stroke: '#0b57d0' },
      { label: 'Visitors', values: data.points.map((p) => p.visitors), stroke: '#1a7f37' },
    ];
    return { times, lines, summary: trafficSummary(data), unit: data.range === '30d' ? ('day' as const) : ('hour' as const) };
  }, [data]);
  return (
    <section aria-labelledby="traffic-heading" className="panel panel--wide">
      <div className="panel__head">
        <h2 id="traffic-heading">Traffic</h2>
        <RangePicker value={range} onChange={setRange} label="Traffic range" />
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {chart ? (
        <TimeChart
          times={chart.times}
          lines={chart.lines}
          unit={chart.unit}
          summary={chart.summary}
          caption={`Page views and visitors per ${chart.unit === 'day' ? 'day' : 'hour'} (UTC)`}
        />
      ) : (
        !error && <p className="panel__empty">Loading…</p>
      )}
    </section>
  );
}
