import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { charts } from '../../test/fake-uplot';
import { jsonFetch, loadError, loadErrors, renderWithClient, settle, settleUntil } from '../../test/render';
import { VitalsOverTime } from './vitals-over-time';
import { VITAL_SERIES_PATH } from './vitals-series';

vi.mock('uplot', async () => ({ default: (await import('../../test/fake-uplot')).FakeUPlot }));

afterEach(() => {
  document.body.innerHTML = '';
  charts.length = 0;
  vi.unstubAllGlobals();
});

const HOUR = 3_600_000;
// 2026-11-26 00:00 UTC.
const MIDNIGHT = Date.UTC(2026, 10, 26);
const none = { lcp: null, inp: null, cls: null, fcp: null, ttfb: null };
const hours = {
  range: '24h',
  bucketMs: HOUR,
  points: Array.from({ length: 24 }, (_, i) => ({
    start: MIDNIGHT - (23 - i) * HOUR,
    ...none,
    ...(i === 22 ? { lcp: { p75: 2500, count: 4 }, cls: { p75: 0.12, count: 4 } } : {}),
    ...(i === 23 ? { lcp: { p75: 1800, count: 2 }, ttfb: { p75: 300, count: 2 } } : {}),
  })),
};

describe('the web vitals over time', () => {
  it('charts the timed vitals and CLS per hour, with gaps where nothing was measured, named by the latest p75s', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({ [`${VITAL_SERIES_PATH}?range=24h`]: hours }, asked));
    const { container } = renderWithClient(<VitalsOverTime />);
    await settleUntil(() => charts.length === 2);
    expect(asked).toEqual(['/api/stats/vitals/series?range=24h']);
    const [timed, cls] = charts;
    expect(timed!.options.series.slice(1).map((s) => s.label)).toEqual(['LCP (ms)', 'INP (ms)', 'FCP (ms)', 'TTFB (ms)']);
    expect(timed!.data[1]!.slice(21)).toEqual([null, 2500, 1800]);
    expect(cls!.data[1]!.slice(21)).toEqual([null, 0.12, null]);
    const names = [...container.querySelectorAll('[role="img"]')].map((el) => el.getAttribute('aria-label'));
    expect(names).toEqual([
      'Last 24 hours, p75 per hour; latest LCP 1.8 s, INP not measured, FCP not measured, TTFB 300 ms.',
      'Last 24 hours, p75 per hour; latest CLS 0.12.',
    ]);
    const clsRows = [...container.querySelectorAll('figure')[1]!.querySelectorAll('tbody tr')];
    expect([...clsRows[22]!.children].map((c) => c.textContent)).toEqual(['2026-11-25 23:00', '0.12']);
    expect(clsRows[23]!.querySelector('td')?.textContent).toBe('—');
  });

  it('reads the 30 days when that range is picked, and says Unable to load. Try again. when it cannot, reading again on Try again', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({ [`${VITAL_SERIES_PATH}?range=24h`]: hours }, asked));
    const { container } = renderWithClient(<VitalsOverTime />);
    await settleUntil(() => charts.length === 2);
    act(() => [...container.querySelectorAll('button')].find((b) => b.textContent === 'Last 30 days')!.click());
    await settleUntil(() => loadErrors(container).length > 0);
    expect(asked).toEqual(['/api/stats/vitals/series?range=24h', '/api/stats/vitals/series?range=30d']);
    act(() => loadError(container, 'Not here.').click());
    await settleUntil(() => asked.length === 3);
    await settle();
    expect(asked[2]).toBe('/api/stats/vitals/series?range=30d');
  });
});
