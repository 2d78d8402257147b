// A group's last 24 hours as a small uPlot line with no axes or legend; its name says what it shows.
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { loadUplot } from './load-uplot';

const WIDTH = 120;
const HEIGHT = 28;

/** What a sparkline of `counts` (per hour, oldest first) says: the total and the busiest hour. */
export function sparklineLabel(counts: number[]): string {
  const total = counts.reduce((a, b) => a + b, 0);
  const most = Math.max(0, ...counts);
  return total === 0 ? 'No errors in the last 24 hours' : `${total} in the last 24 hours, at most ${most} in one hour`;
}

/** A sparkline of `counts`, one per hour, drawn in `stroke`. */
export function Sparkline({ counts, stroke = '#8a1c1c' }: { counts: number[]; stroke?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const key = counts.join(',');
  useEffect(() => {
    let chart: uPlot | undefined;
    let cancelled = false;
    const values = key.split(',').map(Number);
    void loadUplot().then((UPlot) => {
      const el = box.current;
      if (cancelled || !el) return;
      const options: uPlot.Options = {
        width: WIDTH,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        axes: [{ show: false }, { show: false }],
        scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [{}, { stroke, width: 1.5, points: { show: false } }],
      };
      chart = new UPlot(options, [values.map((_, i) => i), values], el);
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [key, stroke]);
  return <div ref={box} className="sparkline" role="img" aria-label={sparklineLabel(counts)} />;
}
