// A time series drawn with uPlot, with its text alternative: a one-sentence summary as the
// image's name and the figures as a visually hidden table. uPlot draws without animation,
// so the chart never moves on its own; the cursor only follows the pointer.
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { loadUplot } from './load-uplot';

/** One line of a chart. */
export interface ChartLine {
  /** Its name, in the legend and the table's heading. */
  label: string;
  /** One value per time; `null` where nothing was measured (a gap in the line). */
  values: (number | null)[];
  /** Its colour (at least 3:1 against white). */
  stroke: string;
}

/** How the chart's times read: hours or UTC days. */
export type TimeUnit = 'hour' | 'day';

/** `ms` (unix) as the table reads it: `2026-11-26 14:00` per hour, `2026-11-26` per day (UTC). */
export function timeLabel(ms: number, unit: TimeUnit): string {
  const iso = new Date(ms).toISOString();
  return unit === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** The plot's options for `lines`, `width` × `height` px, times in UTC. */
export function chartOptions(UPlot: typeof uPlot, lines: ChartLine[], width: number, height: number, unit: TimeUnit): uPlot.Options {
  return {
    width,
    height,
    tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { drag: { x: false, y: false } },
    scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [{ label: unit === 'day' ? 'Day (UTC)' : 'Hour (UTC)' }, ...lines.map((l) => ({ label: l.label, stroke: l.stroke, width: 2, points: { show: false } }))],
    axes: [{ stroke: '#4a4a4f' }, { stroke: '#4a4a4f', size: 48 }],
  };
}

const MIN_WIDTH = 160;

/** A chart of `lines` over `times` (unix ms), named by `summary`; `table` says whether the hidden table is drawn. */
export function TimeChart({
  times,
  lines,
  unit,
  summary,
  caption,
  height = 180,
  table = true,
  format = (value) => (value === null ? '—' : String(value)),
}: {
  times: number[];
  lines: ChartLine[];
  unit: TimeUnit;
  summary: string;
  caption: string;
  height?: number;
  table?: boolean;
  /** How a value reads in the table. */
  format?: (value: number | null) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void loadUplot().then((UPlot) => {
      const el = box.current;
      if (cancelled || !el) return;
      const width = () => Math.max(el.clientWidth, MIN_WIDTH);
      const data: uPlot.AlignedData = [times.map((t) => t / 1000), ...lines.map((l) => l.values)];
      chart = new UPlot(chartOptions(UPlot, lines, width(), height, unit), data, el);
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => chart?.setSize({ width: width(), height }));
        observer.observe(el);
      }
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [times, lines, unit, height]);
  return (
    <figure className="chart">
      <div ref={box} className="chart__plot" role="img" aria-label={summary} style={{ minHeight: height }} />
      {table && (
        // A table ignores the clipping box, so the hidden box is a wrapper around it.
        <div className="visually-hidden">
          <table>
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{unit === 'day' ? 'Day (UTC)' : 'Hour (UTC)'}</th>
                {lines.map((l) => (
                  <th key={l.label} scope="col">
                    {l.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((t, i) => (
                <tr key={t}>
                  <th scope="row">{timeLabel(t, unit)}</th>
                  {lines.map((l) => (
                    <td key={l.label}>{format(l.values[i] ?? null)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
