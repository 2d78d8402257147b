import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { charts } from '../../test/fake-uplot';
import { flakyFetch, jsonFetch, loadErrors, renderWithClient, retryOnceOnline, settleUntil } from '../../test/render';
import { TRAFFIC_PATH, trafficSummary } from './traffic';
import { TrafficPanel } from './traffic-panel';

vi.mock('uplot', async () => ({ default: (await import('../../test/fake-uplot')).FakeUPlot }));

afterEach(() => {
  document.body.innerHTML = '';
  charts.length = 0;
  vi.unstubAllGlobals();
});

const HOUR = 3_600_000;
const DAY = 86_400_000;
// 2026-11-26 00:00 UTC.
const MIDNIGHT = Date.UTC(2026, 10, 26);

const hours = {
  range: '24h',
  bucketMs: HOUR,
  points: Array.from({ length: 24 }, (_, i) => ({ start: MIDNIGHT - (23 - i) * HOUR, pageViews: i === 23 ? 30 : i, visitors: i === 23 ? 12 : 1 })),
};
const days = {
  range: '30d',
  bucketMs: DAY,
  points: Array.from({ length: 30 }, (_, i) => ({ start: MIDNIGHT - (29 - i) * DAY, pageViews: i === 0 ? 500 : 0, visitors: i === 0 ? 40 : 0 })),
};

describe('the traffic panel', () => {
  it('draws page views and visitors per hour with uPlot, named by a summary and given as a table', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({ [`${TRAFFIC_PATH}?range=24h`]: hours }, asked));
    const { container } = renderWithClient(<TrafficPanel />);
    await settleUntil(() => charts.length === 1);
    expect(asked).toEqual(['/api/stats/series?range=24h']);
    expect(container.querySelector('h2')?.textContent).toBe('Traffic');
    const [chart] = charts;
    expect(chart!.data).toEqual([hours.points.map((p) => p.start / 1000), hours.points.map((p) => p.pageViews), hours.points.map((p) => p.visitors)]);
    expect(chart!.options.series.slice(1).map((s) => s.label)).toEqual(['Page views', 'Visitors']);
    const plot = container.querySelector('[role="img"]');
    expect(chart!.target).toBe(plot);
    expect(plot?.getAttribute('aria-label')).toBe('Last 24 hours: 283 page views; busiest hour 00:00 UTC on 2026-11-26 with 30 page views and 12 visitors.');
    const table = container.querySelector('div.visually-hidden table')!;
    expect(table.querySelector('caption')?.textContent).toBe('Page views and visitors per hour (UTC)');
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Hour (UTC)', 'Page views', 'Visitors']);
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(24);
    expect([...rows[23]!.children].map((c) => c.textContent)).toEqual(['2026-11-26 00:00', '30', '12']);
  });

  it('switches to 30 days per UTC day, replacing the chart', async () => {
    vi.stubGlobal('fetch', jsonFetch({ [`${TRAFFIC_PATH}?range=24h`]: hours, [`${TRAFFIC_PATH}?range=30d`]: days }));
    const { container } = renderWithClient(<TrafficPanel />);
    await settleUntil(() => charts.length === 1);
    const button = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Last 30 days')!;
    expect(button.getAttribute('aria-pressed')).toBe('false');
    act(() => button.click());
    await settleUntil(() => charts.length === 2);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(charts[0]!.destroyed).toBe(true);
    expect(charts[1]!.data[0]).toHaveLength(30);
    const rows = [...container.querySelectorAll('div.visually-hidden table tbody tr')];
    expect(rows).toHaveLength(30);
    expect(rows[0]!.querySelector('th')?.textContent).toBe('2026-10-28');
    expect(container.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'Last 30 days: 500 page views; busiest day 2026-10-28 with 500 page views and 40 visitors.',
    );
  });

  it('says when nothing was viewed, and Unable to load. Try again. until the series can be read', async () => {
    const quiet = { ...hours, points: hours.points.map((p) => ({ ...p, pageViews: 0, visitors: 0 })) };
    expect(trafficSummary(quiet as typeof hours & { range: '24h' })).toBe('Last 24 hours: no page views.');
    const net = flakyFetch({ [`${TRAFFIC_PATH}?range=24h`]: hours });
    vi.stubGlobal('fetch', net.fetch);
    const { container } = renderWithClient(<TrafficPanel />);
    await retryOnceOnline(container, net);
    await settleUntil(() => charts.length === 1);
    expect(loadErrors(container)).toEqual([]);
  });
});
