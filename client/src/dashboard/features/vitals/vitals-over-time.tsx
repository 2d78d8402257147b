// Every page's web-vitals p75 over the last 24 hours or 30 days: one chart of the timed
// vitals (ms) and one of CLS (unitless), each with its text alternative.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { TimeChart, type ChartLine } from '../../components/chart/time-chart';
import { LoadError } from '../../components/load-error';
import { RangePicker } from '../../components/range-picker';
import { formatVital } from './vitals';
import { fetchVitalSeries, p75s, TIMED_VITALS, vitalSeriesKey, vitalSeriesSummary, type StatsRange } from './vitals-series';

const STROKES = { lcp: '#0b57d0', inp: '#8a1c1c', fcp: '#1a7f37', ttfb: '#6b4fa0', cls: '#8a5a00' } as const;

const REFRESH_MS = 60_000;

/** The charts of the vitals over time. */
export function VitalsOverTime() {
  const [range, setRange] = useState<StatsRange>('24h');
  const { data, error, refetch } = useQuery({
    queryKey: vitalSeriesKey(range),
    queryFn: ({ signal }) => fetchVitalSeries(range, signal),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const charts = useMemo(() => {
    if (!data) return undefined;
    const times = data.points.map((p) => p.start);
    const timed: ChartLine[] = TIMED_VITALS.map((v) => ({ label: `${v.toUpperCase()} (ms)`, values: p75s(data, v), stroke: STROKES[v] }));
    const cls: ChartLine[] = [{ label: 'CLS', values: p75s(data, 'cls'), stroke: STROKES.cls }];
    const unit = data.range === '30d' ? ('day' as const) : ('hour' as const);
    return { times, timed, cls, unit, timedSummary: vitalSeriesSummary(data, TIMED_VITALS), clsSummary: vitalSeriesSummary(data, ['cls']) };
  }, [data]);
  return (
    <div className="vitals-over-time">
      <div className="panel__head">
        <h3>Over time, every page</h3>
        <RangePicker value={range} onChange={setRange} label="Web vitals range" />
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {charts && (
        <>
          <TimeChart
            times={charts.times}
            lines={charts.timed}
            unit={charts.unit}
            summary={charts.timedSummary}
            caption={`LCP, INP, FCP and TTFB p75 per ${charts.unit} (UTC), in ms`}
            format={(v) => (v === null ? '—' : String(Math.round(v)))}
          />
          <TimeChart
            times={charts.times}
            lines={charts.cls}
            unit={charts.unit}
            summary={charts.clsSummary}
            caption={`CLS p75 per ${charts.unit} (UTC)`}
            height={120}
            format={(v) => (v === null ? '—' : formatVital('cls', v))}
          />
        </>
      )}
    </div>
  );
}
